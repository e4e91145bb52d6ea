#pragma once
// JSON text written straight into a string, for the lines of `rave export` (tens of thousands a
// second): no document tree is built. The layout (brackets, commas, keys) is written here; every
// string and number by nlohmann::json's serializer, so the text equals nlohmann's compact dump() of
// the same values in the same order, bytes that are not valid UTF-8 becoming U+FFFD.
//
//   JsonWriter w(line);
//   w.begin_object().key("id").value("center_single/RAVEN_0_test").key("answer").value(3);
//   w.key("choices").begin_array().value("(5,0.4,30)").end_array().end_object();
#include <cstdint>
#include <string>
#include <string_view>

namespace rave::evaluation::internal {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  /// The key of the next member of the object being written.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(std::size_t number) { return value(static_cast<std::int64_t>(number)); }
  /// As nlohmann writes it: "1.0" for integral values, null when not finite.
  JsonWriter& value(double number);
  JsonWriter& value(bool truth);
  JsonWriter& null();

 private:
  static constexpr int kMaxDepth = 62;
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);
  void separate();  // the comma before a value that is not its container's first

  std::string& out_;
  std::uint64_t has_items_ = 0;  // bit d: the container at depth d has a value already
  int depth_ = 0;
  bool after_key_ = false;
};

}  // namespace rave::evaluation::internal
