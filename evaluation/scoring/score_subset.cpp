#include "evaluation/scoring/score_subset.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/lines.hpp"
#include "engine/formats/layout.hpp"

namespace rave::evaluation {
namespace {

using Json = nlohmann::json;

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::uint64_t to_number(std::string_view s) {
  std::uint64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// Marks what one entry names; counts it absent when nothing.
class Marker {
 public:
  explicit Marker(const AnswerKey& key) : key_(key) {
    out_.member.assign(key.items().size(), 0);
    for (std::size_t i = 0; i < key.items().size(); ++i)
      if (const auto k = problem_number(key.items()[i].id)) by_number_.emplace(*k, i);
  }
  void number(std::uint64_t k, const std::string& written) {
    const auto [begin, end] = by_number_.equal_range(k);
    for (auto it = begin; it != end; ++it) out_.member[it->second] = 1;
    count(begin != end, written);
  }
  void id(const std::string& id) {
    const auto i = key_.find(id);
    if (i) out_.member[*i] = 1;
    count(i.has_value(), id);
  }
  Subset done() { return std::move(out_); }

 private:
  void count(bool found, const std::string& written) {
    ++out_.entries;
    if (found) return;
    if (out_.absent++ == 0) out_.first_absent = written;
  }
  const AnswerKey& key_;
  std::unordered_multimap<std::uint64_t, std::size_t> by_number_;
  Subset out_;
};

Subset parse_json_list(std::string_view text, const std::string& file, const AnswerKey& key) {
  Json list;
  try {
    list = Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw InputError(file, "byte " + std::to_string(e.byte), "not a JSON list of ids");
  }
  if (!list.is_array()) throw InputError(file, "", "not a JSON list of ids");
  Marker m(key);
  for (std::size_t e = 0; e < list.size(); ++e) {
    const Json& v = list[e];
    if (v.is_number_unsigned())
      m.number(v.get<std::uint64_t>(), v.dump());
    else if (v.is_string())
      m.id(v.get<std::string>());
    else
      throw InputError(
          file, "element " + std::to_string(e),
          "an entry must be a problem number (an integer >= 0) or an id, got " + v.dump());
  }
  return m.done();
}

Subset parse_lines(std::string_view text, const AnswerKey& key) {
  Marker m(key);
  for (const TextLine& entry : text_lines(text)) {
    std::string_view line = entry.text.substr(0, entry.text.find('#'));
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    if (all_digits(line))
      m.number(to_number(line), std::string(line));
    else
      m.id(std::string(line));
  }
  return m.done();
}

}  // namespace

std::optional<std::uint64_t> problem_number(std::string_view id) {
  return engine::parse_problem_stem(id.substr(std::min(id.size(), id.rfind('/') + 1))).k;
}

Subset parse_subset(std::string_view text, const std::string& file, const AnswerKey& key) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) throw InputError(file, "", "empty: no subset entries");
  Subset s = text[first] == '[' ? parse_json_list(text, file, key) : parse_lines(text, key);
  if (s.entries == 0) throw InputError(file, "", "no subset entries");
  return s;
}

Subset read_subset(const std::filesystem::path& path, const AnswerKey& key) {
  return parse_subset(read_file(path), path.string(), key);
}

}  // namespace rave::evaluation
