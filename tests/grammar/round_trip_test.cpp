// Property tests of the parser and writer on random trees and random bytes. Randomness is a
// fixed-seed std::mt19937_64 mapped by our own code (grammar cannot see Rng), so every run
// draws the same cases; a failure prints the case.
#include <gtest/gtest.h>

#include <random>

#include "grammar/parse.hpp"
#include "grammar/writer.hpp"

namespace rave::grammar {
namespace {

class Draw {
 public:
  explicit Draw(std::uint64_t seed) : engine_(seed) {}
  /// Uniform-enough integer in [0, n) (n small, so modulo bias is irrelevant here).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(engine_() % n); }
  bool coin() { return below(2) == 1; }
  template <class Span>
  std::string pick(const Span& names) {
    return std::string(names[below(names.size())]);
  }

 private:
  std::mt19937_64 engine_;
};

std::string random_digits(Draw& draw) {
  std::string out;
  for (std::size_t n = 1 + draw.below(3); n > 0; --n)
    out += static_cast<char>('0' + draw.below(10));
  return out;
}

// A random subset of `names`, in random order, with random values.
void add_random_attributes(Draw& draw, std::span<const std::string_view> names, Node& node) {
  std::vector<std::string_view> order(names.begin(), names.end());
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[draw.below(i)]);
  for (const auto name : order) {
    if (!draw.coin()) continue;
    std::string value = random_digits(draw);
    if (name == "Position")
      for (std::size_t n = draw.below(4); n > 0; --n) value.append(",").append(random_digits(draw));
    node.attributes.push_back({std::string(name), value});
  }
}

// A random tree that obeys the grammar: every level, 0..3 children per node, attributes on
// Layouts and Entities.
void grow(Draw& draw, Tree& tree, NodeId node) {
  const auto level = child_level(tree[node].level);
  if (!level) return;
  for (std::size_t n = draw.below(*level == Level::kEntity ? 5 : 3); n > 0; --n) {
    const NodeId child = add_child(tree, node, draw.pick(names_at(*level)), *level);
    add_random_attributes(draw, attribute_names(*level), tree[child]);
    grow(draw, tree, child);
  }
}

Tree random_tree(Draw& draw) {
  Tree tree;
  grow(draw, tree, add_node(tree, std::string(kRootName), Level::kRoot));
  return tree;
}

// The canonical text with every single space replaced by a random run of separators.
std::string with_random_separators(Draw& draw, const std::string& text) {
  static constexpr std::string_view kSeparators = " \t\n\r.";
  std::string out;
  for (const char c : text) {
    if (c != ' ') {
      out += c;
      continue;
    }
    for (std::size_t n = 1 + draw.below(3); n > 0; --n)
      out += kSeparators[draw.below(kSeparators.size())];
  }
  return out;
}

TEST(RoundTrip, WriteThenParseIsTheIdentityOnRandomTrees) {
  Draw draw(20240601);
  for (int i = 0; i < 2000; ++i) {
    const Tree tree = random_tree(draw);
    const std::string text = write_sentence(tree);
    SCOPED_TRACE(text);
    const Tree parsed = parse_sentence(text);
    ASSERT_TRUE(same_tree(parsed, tree));
    ASSERT_EQ(write_sentence(parsed), text);
    ASSERT_EQ(preorder(parsed).size(), boost::num_vertices(tree));
  }
}

TEST(RoundTrip, AnySeparatorsGiveTheSameTree) {
  Draw draw(7);
  for (int i = 0; i < 500; ++i) {
    const Tree tree = random_tree(draw);
    const std::string text = with_random_separators(draw, write_sentence(tree));
    SCOPED_TRACE(text);
    ASSERT_TRUE(same_tree(parse_sentence(text), tree));
  }
}

// Mutating one byte of a valid sentence either still parses or gives a SyntaxError that points
// inside the text; never another exception.
TEST(Robustness, MutatedSentencesParseOrFailCleanly) {
  Draw draw(99);
  int errors = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = write_sentence(random_tree(draw));
    const std::size_t at = draw.below(text.size() + 1);
    const char byte = static_cast<char>(draw.below(256));
    switch (draw.below(3)) {
      case 0: text.insert(text.begin() + static_cast<long>(at), byte); break;
      case 1:
        if (at < text.size()) text.erase(at, 1);
        break;
      default:
        if (at < text.size()) text[at] = byte;
        break;
    }
    try {
      const Tree tree = parse_sentence(text);
      ASSERT_TRUE(same_tree(parse_sentence(write_sentence(tree)), tree)) << text;
    } catch (const SyntaxError& e) {
      ++errors;
      ASSERT_GE(e.line(), 1);
      ASSERT_GE(e.column(), 1);
      ASSERT_LE(static_cast<std::size_t>(e.column()), text.size() + 1) << text;
      ASSERT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "what() must be one line";
    }
  }
  EXPECT_GT(errors, 1000);  // the mutations do break most sentences
}

TEST(Robustness, RandomBytesNeverParseAndNeverCrash) {
  Draw draw(4242);
  for (int i = 0; i < 2000; ++i) {
    std::string text(draw.below(200), '\0');
    for (auto& c : text) c = static_cast<char>(draw.below(256));
    EXPECT_THROW(parse_sentence(text), SyntaxError) << i;
  }
}

}  // namespace
}  // namespace rave::grammar
