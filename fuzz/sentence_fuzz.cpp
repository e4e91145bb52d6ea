// libFuzzer target for the A-SIG sentence parser (grammar/parse.hpp). Any byte sequence must either
// parse or throw SyntaxError with a one-line what() and a place inside the input; whatever parses
// must survive the writer (write, parse again: same tree, same text). Anything else (a crash, a
// sanitizer report, another exception, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "grammar/parse.hpp"
#include "grammar/writer.hpp"

namespace {

void check(bool condition) {
  if (!condition) __builtin_trap();
}

void check_error(const rave::grammar::SyntaxError& error, std::string_view text) {
  check(std::string_view(error.what()).find('\n') == std::string_view::npos);
  check(error.line() >= 1 && error.column() >= 1);
  check(static_cast<std::size_t>(error.column()) <= text.size() + 1);
  check(!error.expected().empty() && !error.got().empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace grammar = rave::grammar;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const grammar::Tree tree = grammar::parse_sentence(text, "<fuzz>");
    const std::string canonical = grammar::write_sentence(tree);
    const grammar::Tree again = grammar::parse_sentence(canonical, "<canonical>");
    check(grammar::same_tree(tree, again));
    check(grammar::write_sentence(again) == canonical);
    check(grammar::bottom_up(tree).size() == boost::num_vertices(tree));
  } catch (const grammar::SyntaxError& error) {
    check_error(error, text);
  }
  return 0;
}
