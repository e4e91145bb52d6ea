// JsonWriter (internal/json_writer.hpp): the layout written directly, every string and number by
// nlohmann::json's serializer.
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "evaluation/internal/json_writer.hpp"

namespace rave::evaluation::internal {
namespace {

// One serializer per thread (its constructor reads the locale), writing into a scratch string.
struct Serializer {
  std::string text;
  nlohmann::detail::serializer<nlohmann::json> serializer{
      nlohmann::detail::output_adapter<char>(text), ' ', nlohmann::json::error_handler_t::replace};
};

template <class T>
void append_serialized(std::string& out, const T& value) {
  thread_local Serializer s;
  s.text.clear();
  s.serializer.dump(nlohmann::json(value), false, false, 0);
  out += s.text;
}

}  // namespace

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  const std::uint64_t bit = std::uint64_t{1} << depth_;
  if (has_items_ & bit) out_ += ',';
  has_items_ |= bit;
}

JsonWriter& JsonWriter::open(char bracket) {
  RAVE_CHECK(depth_ < kMaxDepth, "JSON nested too deeply");
  separate();
  out_ += bracket;
  ++depth_;
  has_items_ &= ~(std::uint64_t{1} << depth_);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  RAVE_CHECK(depth_ > 0 && !after_key_, "unbalanced JSON");
  --depth_;
  out_ += bracket;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  append_serialized(out_, name);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  separate();
  append_serialized(out_, text);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  separate();
  append_serialized(out_, number);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  separate();
  append_serialized(out_, number);
  return *this;
}

JsonWriter& JsonWriter::value(bool truth) {
  separate();
  out_ += truth ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace rave::evaluation::internal
