#include "grammar/parse.hpp"

#include <gtest/gtest.h>

#include "grammar/writer.hpp"

namespace rave::grammar {
namespace {

// The 7 configurations' sentences of docs/format.md#structure-sentence, with the trees they must
// give.
struct ConfigSentence {
  const char* sentence;
  std::vector<std::pair<const char*, std::vector<const char*>>> components;  // name, layouts
  const char* structure;
};

const std::vector<ConfigSentence>& config_sentences() {
  static const std::vector<ConfigSentence> kSentences{
      {"Scene Singleton Grid Center_Single / / / /", {{"Grid", {"Center_Single"}}}, "Singleton"},
      {"Scene Singleton Grid Distribute_Four / / / /",
       {{"Grid", {"Distribute_Four"}}},
       "Singleton"},
      {"Scene Singleton Grid Distribute_Nine / / / /",
       {{"Grid", {"Distribute_Nine"}}},
       "Singleton"},
      {"Scene Left_Right Left Left_Center_Single / / Right Right_Center_Single / / / /",
       {{"Left", {"Left_Center_Single"}}, {"Right", {"Right_Center_Single"}}},
       "Left_Right"},
      {"Scene Up_Down Up Up_Center_Single / / Down Down_Center_Single / / / /",
       {{"Up", {"Up_Center_Single"}}, {"Down", {"Down_Center_Single"}}},
       "Up_Down"},
      {"Scene Out_In Out Out_Center_Single / / In In_Center_Single / / / /",
       {{"Out", {"Out_Center_Single"}}, {"In", {"In_Center_Single"}}},
       "Out_In"},
      {"Scene Out_In Out Out_Center_Single / / In In_Distribute_Four / / / /",
       {{"Out", {"Out_Center_Single"}}, {"In", {"In_Distribute_Four"}}},
       "Out_In"},
  };
  return kSentences;
}

Tree expected_tree(const ConfigSentence& config) {
  Tree tree;
  const auto scene = add_node(tree, "Scene", Level::kRoot);
  const auto structure = add_child(tree, scene, config.structure, Level::kStructure);
  for (const auto& [component, layouts] : config.components) {
    const auto node = add_child(tree, structure, component, Level::kComponent);
    for (const char* layout : layouts) add_child(tree, node, layout, Level::kLayout);
  }
  return tree;
}

TEST(ParseSentence, TheSevenConfigurationsGiveTheirTrees) {
  for (const auto& config : config_sentences()) {
    SCOPED_TRACE(config.sentence);
    const Tree tree = parse_sentence(config.sentence);
    EXPECT_TRUE(same_tree(tree, expected_tree(config)));
    EXPECT_EQ(write_sentence(tree), config.sentence);
    EXPECT_EQ(depth(tree), 3);
  }
}

TEST(ParseSentence, NpzTokenArraysAndDotJoinedTextParseAlike) {
  const std::vector<std::string> tokens{"Scene", "Up_Down", "Up",   "Up_Center_Single",
                                        "/",     "/",       "Down", "Down_Center_Single",
                                        "/",     "/",       "/",    "/"};
  std::string dotted;  // how the original joins the tokens before splitting them
                       // (docs/format.md#structure-sentence)
  for (const auto& token : tokens) dotted += (dotted.empty() ? "" : ".") + token;
  const Tree from_tokens = parse_tokens(tokens);
  EXPECT_TRUE(same_tree(from_tokens, parse_sentence(dotted)));
  EXPECT_EQ(structure_tokens(from_tokens), tokens);
}

TEST(ParseSentence, AttributesAreKeptAsWrittenAndInOrder) {
  const Tree tree = parse_sentence(
      "Scene Singleton Grid Distribute_Four[Position=3,0 Number=01] Entity[Color=9 slot=3] / "
      "Entity / / / / /");
  const auto layout = preorder(tree)[3];
  ASSERT_EQ(tree[layout].attributes.size(), 2u);
  EXPECT_EQ(tree[layout].attributes[0], (Attribute{"Position", "3,0"}));
  EXPECT_EQ(tree[layout].attributes[1], (Attribute{"Number", "01"}));
  const auto entities = children(tree, layout);
  ASSERT_EQ(entities.size(), 2u);
  EXPECT_EQ(tree[entities[0]].level, Level::kEntity);
  EXPECT_EQ(find_attribute(tree[entities[0]], "Color")->value, "9");
  EXPECT_TRUE(tree[entities[1]].attributes.empty());
}

TEST(ParseSentence, LevelsComeFromTheGrammar) {
  const Tree tree = parse_sentence("Scene Out_In In In_Center_Single Entity / / / / /");
  const std::vector<Level> expected{Level::kRoot, Level::kStructure, Level::kComponent,
                                    Level::kLayout, Level::kEntity};
  const auto order = preorder(tree);
  ASSERT_EQ(order.size(), expected.size());
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(tree[order[i]].level, expected[i]);
}

TEST(ParseSentence, SourceMapLocatesNodesAndAttributes) {
  const std::string text =
      "Scene Singleton Grid\n Center_Single[Number=0 Uniformity=2]  Entity[Type=3] / / / / /";
  SourceMap where;
  const Tree tree = parse_sentence(text, "<t>", where);
  ASSERT_EQ(where.nodes.size(), boost::num_vertices(tree));
  ASSERT_EQ(where.attributes.size(), boost::num_vertices(tree));
  for (const NodeId node : preorder(tree)) {
    EXPECT_EQ(text.substr(where.nodes[node], tree[node].label.size()), tree[node].label);
    ASSERT_EQ(where.attributes[node].size(), tree[node].attributes.size());
    for (std::size_t i = 0; i < tree[node].attributes.size(); ++i) {
      const auto& name = tree[node].attributes[i].name;
      EXPECT_EQ(text.substr(where.attributes[node][i], name.size()), name);
    }
  }
  EXPECT_EQ(where.nodes[3], 22u);
}

TEST(SyntaxErrors, CarryPlaceExpectationAndExcerpt) {
  try {
    parse_sentence("Scene Singleton\n  Grid Centre_Single / / / /", "x.sentence");
    FAIL() << "no error";
  } catch (const SyntaxError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 8);
    EXPECT_EQ(e.expected(), "a Layout or '/'");
    EXPECT_EQ(e.got(), "'Centre_Single'");
    EXPECT_EQ(e.file(), "x.sentence");
    EXPECT_EQ(e.place(), "2:8");
    EXPECT_EQ(std::string(e.what()),
              "x.sentence:2:8: expected a Layout or '/', got 'Centre_Single'");
    EXPECT_EQ(e.excerpt(), "  Grid Centre_Single / / / /\n       ^");
  }
}

TEST(SyntaxErrors, AreInputErrors) {
  EXPECT_THROW(parse_sentence("Scene"), InputError);
  EXPECT_THROW(parse_tokens(std::vector<std::string>{"Scene", "/", "/"}), SyntaxError);
}

TEST(LoadSentence, NamesTheFileInErrors) {
  EXPECT_THROW(load_sentence("/nonexistent/a.sentence"), InputError);
}

}  // namespace
}  // namespace rave::grammar
