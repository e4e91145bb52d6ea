// The one translation unit that instantiates the X3 sentence grammar (grammar/internal/) and hides
// it behind plain functions (STYLE-ANCHORS 4: the context type of the call must match the
// grammar's, which holds trivially when the call sits beside the definition).
#include "grammar/parse.hpp"

#include <algorithm>

#include "common/atomic_file.hpp"
#include "grammar/internal/sentence_def.hpp"

namespace rave::grammar {
namespace {

// Every node of a sentence ends with the only '/' it owns, so a sentence with n slashes has n
// nodes when it parses. Allocating them at once saves log2(n) reallocations of the vertex list;
// the cap keeps a garbage input full of '/' from allocating much before it fails.
constexpr std::size_t kMaxPreallocatedNodes = 4096;

std::size_t expected_nodes(std::string_view text) {
  return std::min<std::size_t>(static_cast<std::size_t>(std::count(text.begin(), text.end(), '/')),
                               kMaxPreallocatedNodes);
}

Tree parse(std::string_view text, std::string_view file_name, SourceMap* where) {
  using parser::iterator_type;
  Tree tree(expected_nodes(text));
  parser::TreeBuilder builder(tree, text.data(), where);
  iterator_type first = text.data();
  const iterator_type last = text.data() + text.size();
  const auto begin = first;
  try {
    const bool ok = parser::x3::phrase_parse(
        first, last, parser::x3::with<parser::builder_tag>(builder)[parser::sentence],
        parser::separator);
    // `eps > ...` makes every failure an expectation failure.
    RAVE_CHECK(ok && first == last, "the sentence rule either succeeds or throws");
    RAVE_CHECK(builder.size() == boost::num_vertices(tree), "one node per '/'");
  } catch (const parser::x3::expectation_failure<iterator_type>& failure) {
    throw syntax_error_at(text, static_cast<std::size_t>(failure.where() - begin), file_name,
                          failure.which());
  } catch (const parser::SemanticFailure& failure) {
    throw syntax_error_at(text, static_cast<std::size_t>(failure.where - begin), file_name,
                          failure.expected, failure.got);
  }
  return tree;
}

}  // namespace

Tree parse_sentence(std::string_view text, std::string_view file_name) {
  return parse(text, file_name, nullptr);
}

Tree parse_sentence(std::string_view text, std::string_view file_name, SourceMap& where) {
  where = SourceMap{};
  return parse(text, file_name, &where);
}

Tree parse_tokens(std::span<const std::string> tokens, std::string_view file_name) {
  std::string text;
  for (const auto& token : tokens) {
    if (!text.empty()) text += ' ';
    text += token;
  }
  return parse_sentence(text, file_name);
}

Tree load_sentence(const std::filesystem::path& path) {
  return parse_sentence(read_file(path), path.string());
}

}  // namespace rave::grammar
