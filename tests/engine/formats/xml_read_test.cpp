// The XML reader's fast path (engine/formats/xml_read.cpp): `mask` values are cut out before
// pugixml parses the text, and the result must be exactly that of parsing the whole text, whatever
// the mask values hold and wherever ` mask="` appears. Checked on crafted cases and differentially
// on random mutations of generated problem files (results and error messages alike).
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "common/error.hpp"
#include "common/random.hpp"
#include "engine/encode.hpp"
#include "engine/formats/internal/xml_fields.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/generate.hpp"

namespace rave::engine {
namespace {

// A problem or the text of the error that reading it raised.
using Outcome = std::variant<Problem, std::string>;

Outcome fast(const std::string& text) {
  try {
    return parse_problem_xml(text, "t.xml");
  } catch (const InputError& e) {
    return std::string(e.what());
  }
}

Outcome uncut(const std::string& text) {
  try {
    return internal::parse_problem_xml_uncut(text, "t.xml");
  } catch (const InputError& e) {
    return std::string(e.what());
  }
}

std::string problem_text(ConfigId config, std::uint64_t k) {
  return write_problem_xml(generate_problem(config, AnswerStrategy::kIRaven, 31, k));
}

// Replaces every mask value of `text` by `value`.
std::string with_masks(std::string text, const std::string& value) {
  const std::string key = " mask=\"";
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
    const std::size_t begin = at + key.size(), end = text.find('"', begin);
    text.replace(begin, end - begin, value);
    at = begin + value.size() + 1;
  }
  return text;
}

TEST(XmlCut, CutsEveryMaskValueAndNothingElse) {
  const std::string text = problem_text(ConfigId::kOutInGrid, 0);
  std::string out;
  std::vector<std::size_t> cuts;
  internal::cut_mask_values(text, out, cuts);
  EXPECT_EQ(out, with_masks(text, ""));
  ASSERT_FALSE(cuts.empty());
  for (std::size_t at : cuts) EXPECT_EQ(out.substr(at - 7, 8), " mask=\"\"");
  internal::cut_mask_values(text + '\0', out, cuts);  // a NUL anywhere: nothing is cut
  EXPECT_EQ(out, text + '\0');
  EXPECT_TRUE(cuts.empty());
}

TEST(XmlCut, MaskValuesNeverChangeTheProblem) {
  const std::string text = problem_text(ConfigId::kDistributeNine, 1);
  const Problem want = parse_problem_xml(text, "t.xml");
  EXPECT_EQ(want, internal::parse_problem_xml_uncut(text, "t.xml"));
  for (const std::string value :
       {"", "&amp;&lt;&#10;&bogus;", "<Panel/>", "a\r\nb\tc", "k mask=", "'", ">"})
    EXPECT_EQ(parse_problem_xml(with_masks(text, value), "t.xml"), want) << value;
}

TEST(XmlCut, MasksElsewhereAndLookalikesFallBackToTheWholeText) {
  const std::string text = problem_text(ConfigId::kLeftRight, 2);
  const Problem want = parse_problem_xml(text, "t.xml");
  std::string on_layout = text;  // a mask on a Layout is no Entity mask: the whole text is read
  on_layout.insert(on_layout.find("<Layout ") + 7, " mask=\"[1, 2]\"");
  EXPECT_EQ(parse_problem_xml(on_layout, "t.xml"), want);
  std::string in_value = text;  // ` mask="` inside another attribute's value
  in_value.insert(in_value.find("<Panel>") + 6, " note=' mask=\"'");
  EXPECT_EQ(parse_problem_xml(in_value, "t.xml"), want);
  EXPECT_EQ(fast(in_value), uncut(in_value));
  std::string hidden = text;  // character data that hides a 17th Panel from the cut text
  hidden.insert(hidden.find("<Panels>") + 8, " mask=\"<Panel/>\"");
  const Outcome got = fast(hidden);
  EXPECT_EQ(got, uncut(hidden));
  ASSERT_TRUE(std::holds_alternative<std::string>(got));
  EXPECT_NE(std::get<std::string>(got).find("found 17"), std::string::npos)
      << std::get<std::string>(got);
}

TEST(XmlCut, ErrorsAfterMasksKeepTheirLineAndColumn) {
  std::string text = problem_text(ConfigId::kCenterSingle, 3);
  text.insert(text.find("<Panel>", 10), "\n\n");  // the next error is on line 3
  const std::string broken = text.substr(0, text.find("real_bbox", text.find("\n\n")));
  const Outcome got = fast(broken);
  ASSERT_TRUE(std::holds_alternative<std::string>(got));
  EXPECT_EQ(got, uncut(broken));
  EXPECT_NE(std::get<std::string>(got).find("t.xml:3:"), std::string::npos)
      << std::get<std::string>(got);
  std::string nul = text;  // a NUL inside a mask value is still an XML syntax error
  nul[nul.find(" mask=\"[") + 9] = '\0';
  EXPECT_EQ(fast(nul), uncut(nul));
  EXPECT_TRUE(std::holds_alternative<std::string>(fast(nul)));
}

// Random byte edits (many land in mask values): the fast path and the whole-text parse agree on
// every outcome, problem or error message.
TEST(XmlCut, AgreesWithTheWholeTextOnRandomMutations) {
  static constexpr std::string_view kBytes = "<>\"'&=/ \n\r\t019az;#x[],.-k";
  std::vector<std::string> texts;
  for (int c = 0; c < kNumConfigs; ++c) texts.push_back(problem_text(static_cast<ConfigId>(c), 4));
  Rng rng(2024);
  int accepted = 0;
  for (int m = 0; m < 1500; ++m) {
    std::string t = texts[static_cast<std::size_t>(rng.below(kNumConfigs))];
    for (int e = rng.uniform_int(1, 2); e > 0; --e) {
      const auto at = static_cast<std::size_t>(rng.below(static_cast<int>(t.size())));
      const char c = kBytes[static_cast<std::size_t>(rng.below(static_cast<int>(kBytes.size())))];
      switch (rng.below(5)) {
        case 0: t.erase(at, 1); break;
        case 1: t.insert(at, 1, c); break;
        case 2: t[at] = c; break;
        case 3: t.insert(at, " mask=\""); break;
        default:
          t.insert(at,
                   t.substr(static_cast<std::size_t>(rng.below(static_cast<int>(t.size()))), 12));
          break;
      }
    }
    const Outcome got = fast(t);
    ASSERT_EQ(got, uncut(t)) << "mutant " << m;
    accepted += std::holds_alternative<Problem>(got);
  }
  EXPECT_GT(accepted, 100);  // both outcomes are exercised
  EXPECT_LT(accepted, 1400);
}

}  // namespace
}  // namespace rave::engine
