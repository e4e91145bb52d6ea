#include "cli/cli_util.hpp"

#include <charconv>
#include <cstdio>
#include <sstream>
#include <thread>

#include "common/error.hpp"
#include "common/text.hpp"
#include "engine/model/style.hpp"

namespace rave::cli {
namespace {

std::vector<std::string> split_words(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (const auto& word : words) {
    std::stringstream stream(word);
    std::string part;
    while (std::getline(stream, part, ','))
      if (!part.empty()) out.push_back(part);
  }
  return out;
}

}  // namespace

std::vector<engine::ConfigId> parse_config_list(const std::vector<std::string>& words) {
  std::vector<engine::ConfigId> ids;
  for (const auto& word : split_words(words)) {
    if (word == "all") return {};
    ids.push_back(engine::configuration_named(word));
  }
  return ids;
}

engine::AnswerStrategy parse_answer_strategy(const std::string& word) {
  return engine::strategy_named(word);
}

CLI::Validator jobs_range() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        int value = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc() && ptr == text.data() + text.size() && value >= 1 &&
            value <= kMaxJobs)
          return "";
        return "must be a number of worker threads from 1 to " + std::to_string(kMaxJobs) +
               ", not " + quote_value(text);
      },
      "1.." + std::to_string(kMaxJobs));
}

std::uint64_t parse_whole_number(const std::string& text, const std::string& flag, std::uint64_t lo,
                                 std::uint64_t hi) {
  std::uint64_t value = 0;
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (!digits || ec != std::errc() || ptr != text.data() + text.size() || value < lo || value > hi)
    throw UsageError(flag + " must be a whole number from " + std::to_string(lo) + " to " +
                     std::to_string(hi) + ", not " + quote_value(text));
  return value;
}

std::string shown(const std::filesystem::path& path) { return printable(path.string()); }

std::string json_path(const std::filesystem::path& path) {
  const std::string text = path.string();
  return utf8_error(text) == std::string::npos ? text : printable(text);
}

std::string read_standard_input(std::size_t max_bytes) {
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, stdin);
    text.append(buffer, n);
    if (text.size() > max_bytes)
      throw InputError(
          "<stdin>", "",
          "more than " + std::to_string(max_bytes) + " bytes; a problem needs under 1 MB");
    if (n < sizeof buffer) break;
  }
  if (std::ferror(stdin)) throw InputError("<stdin>", "", "read failed");
  return text;
}

int default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

std::string style_help() {
  std::string names;
  for (std::string_view n : engine::style_names())
    names += (names.empty() ? "" : ", ") + std::string(n);
  return "Render style NAME[:key=value,...]: " + names +
         "; keys size (32..1024 px), aa (0/1), stroke, background, line, palette (linear, lstar), "
         "first, last (fill grays), step (px), gray_step, seed (docs/rendering.md#styles)";
}

}  // namespace rave::cli
