// The scanner of the plain XML subset (engine/formats/internal/xml_tree.hpp) takes every problem
// file the generators write, declines what lies outside the subset, and whatever it takes it reads
// into the tree pugixml makes of the same text: on crafted cases and on random mutations.
#include "engine/formats/internal/xml_tree.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/atomic_file.hpp"
#include "common/random.hpp"
#include "engine/encode.hpp"
#include "engine/formats/internal/xml_fields.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/generate.hpp"
#include "tests/support/test_support.hpp"

namespace rave::engine::internal {
namespace {

// The scanner's tree of `text`, or nullopt when it declines.
std::optional<std::string> scanned(std::string text) {
  XmlTree tree;
  if (!scan_xml(text, tree)) return std::nullopt;
  return describe(tree);
}

// The scanner's tree, which pugixml must agree with whenever the scanner takes the text.
std::optional<std::string> checked(const std::string& text) {
  const std::optional<std::string> ours = scanned(text);
  if (ours) {
    EXPECT_EQ(ours, describe_pugixml_parse(text)) << text;
  }
  return ours;
}

TEST(XmlTree, TakesEveryGeneratedProblemFile) {
  for (const AnswerStrategy s :
       {AnswerStrategy::kRaven, AnswerStrategy::kIRaven, AnswerStrategy::kFair})
    for (int c = 0; c < kNumConfigs; ++c) {
      const std::string text =
          write_problem_xml(generate_problem(static_cast<ConfigId>(c), s, 5, 1));
      std::string cut;
      std::vector<std::size_t> cuts;
      cut_mask_values(text, cut, cuts);
      EXPECT_TRUE(checked(text)) << c;
      EXPECT_TRUE(checked(cut)) << c;
    }
}

TEST(XmlTree, TakesTheOriginalGeneratorsFiles) {
  int files = 0;
  for (const char* set : {"raven", "iraven", "fair"})
    for (const auto& ref : rave::testing::reference_problems(set)) {
      EXPECT_TRUE(checked(read_file(ref.xml))) << ref.xml;
      ++files;
    }
  EXPECT_GT(files, 20);
}

TEST(XmlTree, ReadsThePlainSubsetAsPugixmlDoes) {
  for (const std::string& text : std::vector<std::string>{
           "<a/>",
           "<a></a>",
           "  <?xml version=\"1.0\" encoding=\"utf-8\"?>\n<a x='1' y = \"2\" >\n <b/>\t<c "
           "z=\"\"/></a>\r\n",
           "<a v=\"[0.5, 0.5, 1, 1]\" w='say \"hi\"' q=\"a>b\"><b><c/></b><b/></a>",
           "<Data><Panels><Panel><Struct name=\"Singleton\"/></Panel></Panels></Data>",
           "<a:b c-d.e=\"1\" _f=\"2\"></a:b >",
       })
    EXPECT_EQ(scanned(text), describe_pugixml_parse(text)) << text;
}

TEST(XmlTree, DeclinesWhatLiesOutsideTheSubset) {
  for (const std::string& text : std::vector<std::string>{
           "",
           "\xEF\xBB\xBF<a/>",      // a BOM
           "<a v=\"x &amp; y\"/>",  // a reference
           "<a v=\"x\ny\"/>",       // a value pugixml normalises
           "<a v=\"x\ty\"/>",
           "<a>text</a>",  // text inside
           "<a><!-- comment --></a>",
           "<a><![CDATA[x]]></a>",
           "<!DOCTYPE a><a/>",
           "<?xml-stylesheet href=\"s\"?><a/>",
           "<a/><b/>",  // two roots
           "<a/>text",
           "<a x=\"1\" x=\"2\"/>",  // given twice
           "<a x=\"1\"y=\"2\"/>",   // no blank between
           "<a x=1/>",
           "<a x=\"1/>",
           "<a><b></a></b>",
           "<a>",
           "<a/ >",
           "<1a/>",
           "<a\xC3\xA9/>",  // a name beyond ASCII
           std::string("<a x=\"\0\"/>", 10),
       })
    EXPECT_FALSE(scanned(text)) << text;
}

TEST(XmlTree, AgreesWithPugixmlOnRandomMutations) {
  static constexpr std::string_view kBytes = "<>\"'&=/ \n\r\t019az;#x[],.-k?!:_";
  std::vector<std::string> texts;
  for (int c = 0; c < kNumConfigs; ++c) {
    const Problem p = generate_problem(static_cast<ConfigId>(c), AnswerStrategy::kIRaven, 8, 2);
    std::string cut;
    std::vector<std::size_t> cuts;
    cut_mask_values(write_problem_xml(p), cut, cuts);
    texts.push_back(cut);
  }
  Rng rng(77);
  int taken = 0, mutants = 20000;
  for (int m = 0; m < mutants; ++m) {
    std::string t = texts[static_cast<std::size_t>(rng.below(kNumConfigs))];
    for (int e = rng.uniform_int(1, 3); e > 0; --e) {
      const auto at = static_cast<std::size_t>(rng.below(static_cast<int>(t.size())));
      const char c = kBytes[static_cast<std::size_t>(rng.below(static_cast<int>(kBytes.size())))];
      switch (rng.below(4)) {
        case 0: t.erase(at, 1); break;
        case 1: t.insert(at, 1, c); break;
        case 2: t[at] = c; break;
        default:
          t.insert(at, t.substr(static_cast<std::size_t>(rng.below(static_cast<int>(t.size()))),
                                static_cast<std::size_t>(rng.uniform_int(1, 12))));
      }
    }
    taken += checked(t).has_value();
  }
  EXPECT_GT(taken, mutants / 50);  // both outcomes are exercised
  EXPECT_LT(taken, mutants - mutants / 50);
}

}  // namespace
}  // namespace rave::engine::internal
