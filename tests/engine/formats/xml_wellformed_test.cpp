// What every conforming XML parser refuses, rave's problem reader refuses too, with file:line:col:
// an attribute given twice, several root elements, text outside the root, bytes that are not UTF-8
// and characters XML does not allow. Values that end up in an error stay on one bounded line.
// Also the ranges and rules that no RAVEN problem can have (engine/model/constraints.hpp).
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "engine/encode.hpp"
#include "engine/formats/internal/xml_fields.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/generate.hpp"

namespace rave::engine {
namespace {

std::string problem_text(ConfigId config) {
  return write_problem_xml(generate_problem(config, AnswerStrategy::kRaven, 77, 3));
}

// The error of reading `text` by the fast and the reference path (they must agree), or "" if none.
std::string error_of(const std::string& text) {
  std::string fast, whole;
  try {
    parse_problem_xml(text, "p.xml");
  } catch (const InputError& e) {
    fast = e.what();
  }
  try {
    internal::parse_problem_xml_uncut(text, "p.xml");
  } catch (const InputError& e) {
    whole = e.what();
  }
  EXPECT_EQ(fast, whole);
  return fast;
}

// `text` with `insert` placed right after the first occurrence of `after`.
std::string with(std::string text, const std::string& after, const std::string& insert) {
  const std::size_t at = text.find(after);
  EXPECT_NE(at, std::string::npos) << after;
  return text.insert(at + after.size(), insert);
}

TEST(XmlWellFormed, GeneratedProblemsRead) {
  for (const auto& c : all_configurations())
    EXPECT_EQ(error_of(problem_text(c.id)), "") << c.folder;
}

TEST(XmlWellFormed, RefusesAnAttributeGivenTwice) {
  const std::string text = problem_text(ConfigId::kCenterSingle);
  const std::size_t entity = text.find("<Entity ");
  const std::string error = error_of(with(text, "<Entity ", "Type=\"1\" "));
  EXPECT_EQ(error,
            "p.xml:1:" + std::to_string(entity + 1 + text.substr(entity).find(" Type=") + 10) +
                ": XML syntax: attribute 'Type' given twice");
  // Many attributes on one element (the sorted check) name the first repeat too.
  std::string many;
  for (int i = 0; i < 40; ++i) many += " a" + std::to_string(i) + "=\"1\"";
  EXPECT_NE(error_of(with(text, "<Panels", many + " a7=\"2\"")).find("attribute 'a7' given twice"),
            std::string::npos);
}

TEST(XmlWellFormed, RefusesSeveralRootsAndTextOutsideTheRoot) {
  const std::string text = problem_text(ConfigId::kCenterSingle);
  EXPECT_EQ(error_of(text + "<Data/>"), "p.xml:1:" + std::to_string(text.size() + 1) +
                                            ": XML syntax: a second root element <Data>");
  EXPECT_EQ(error_of(text + "\ntrailing"), "p.xml:2:1: XML syntax: text after the root element");
  EXPECT_EQ(error_of("junk" + text), "p.xml:1:1: XML syntax: text before the root element");
  EXPECT_EQ(error_of(text + "\n  <!-- a comment -->\n"), "")
      << "whitespace and comments are allowed";
  EXPECT_EQ(error_of("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n" + text), "");
  EXPECT_EQ(error_of(""), "p.xml:1:1: XML syntax: no root element");
}

TEST(XmlWellFormed, RefusesBytesThatAreNotUtf8AndForbiddenCharacters) {
  const std::string text = problem_text(ConfigId::kCenterSingle);
  EXPECT_EQ(error_of("\n\n" + text.substr(0, 10) + "\xff" + text.substr(10)),
            "p.xml:3:11: XML syntax: byte 0xff is not valid UTF-8");
  EXPECT_EQ(error_of(with(text, "mask=\"", "\xc3")).find("is not valid UTF-8") != std::string::npos,
            true)
      << "even inside a mask value, which the fast path never parses";
  EXPECT_NE(error_of(with(text, "<Panels>", "\x01")).find("control character 0x01"),
            std::string::npos);
  EXPECT_NE(error_of(with(text, "<Panels>", "\xef\xbf\xbe")).find("U+FFFE"), std::string::npos);
  EXPECT_EQ(error_of(with(text, "<Panels>", "\n\t\r\n")), "") << "tab, LF and CR are allowed";
}

// A character reference must name a character XML allows (section 4.1), and end in ';'.
TEST(XmlWellFormed, RefusesCharacterReferencesToForbiddenCharacters) {
  const std::string text = problem_text(ConfigId::kCenterSingle);
  const auto at_panels = [&](const std::string& reference) {
    return error_of(with(text, "<Panels>", reference));
  };
  EXPECT_NE(at_panels("&#0;").find("XML syntax: character reference &#0; names no character XML "
                                   "allows"),
            std::string::npos);
  EXPECT_NE(at_panels("&#99999999999;").find("&#99999999999; names no character"),
            std::string::npos);
  EXPECT_NE(at_panels("&#x110000;").find("names no character"), std::string::npos);
  EXPECT_NE(at_panels("&#xD800;").find("names no character"), std::string::npos);
  EXPECT_NE(at_panels("&#12").find("is not closed by ';'"), std::string::npos);
  EXPECT_EQ(at_panels("&#32;&#x41;&#10;"), "") << "allowed characters pass";
  // In a value the reference is named, not what its decoding made of the value.
  const std::string in_type =
      error_of(std::string(text).replace(text.find("Type=\"") + 6, 0, "&#0;"));
  EXPECT_NE(in_type.find("character reference &#0;"), std::string::npos) << in_type;
}

TEST(XmlEchoes, EchoedValuesAreOneBoundedLine) {
  const std::string text = problem_text(ConfigId::kCenterSingle);
  const std::string forged =
      error_of(std::string(text).replace(text.find("Type=\"") + 6, 1, "&#10;rave: error: x"));
  EXPECT_NE(forged, "");
  EXPECT_EQ(forged.find('\n'), std::string::npos) << forged;
  const std::string escape =
      error_of(std::string(text).replace(text.find("Type=\"") + 6, 1, "\x1b[2J"));
  EXPECT_NE(escape, "");  // an ESC byte is refused as a character before any value is echoed
  EXPECT_EQ(escape.find('\x1b'), std::string::npos) << escape;
  const std::string huge = error_of(
      std::string(text).replace(text.find("Type=\"") + 6, 1, std::string(10'000'000, '7')));
  EXPECT_LT(huge.size(), 300u) << huge.substr(0, 300);
  EXPECT_NE(huge.find("(10000000 bytes)"), std::string::npos) << huge;
}

TEST(XmlRanges, EntityLevelsFollowTheirLayout) {
  // Out's Color is always 0 (docs/format.md, value tables): a 5 is no RAVEN problem.
  std::string text = problem_text(ConfigId::kOutInCenter);
  const std::size_t color = text.find("Color=\"", text.find("<Entity "));
  ASSERT_NE(color, std::string::npos);
  text[color + 7] = '5';  // a one-digit level; replace() here draws g++ 12's false -Wrestrict
  EXPECT_NE(
      error_of(text).find("Component[1]/Layout/Entity[1]@Color: Color level 5 out of range [0, 0]"),
      std::string::npos)
      << error_of(text);
}

TEST(XmlRules, RulesThatCannotExistAreRefused) {
  const std::string text = problem_text(ConfigId::kCenterSingle);
  const std::string np = "<Rule name=\"Constant\" attr=\"Number/Position\" />";
  ASSERT_NE(text.find(np), std::string::npos);
  const auto replaced = [&](const std::string& rule) {
    return std::string(text).replace(text.find(np), np.size(), rule);
  };
  EXPECT_NE(error_of(replaced("<Rule name=\"Progression\" attr=\"Number/Position\" />"))
                .find("Rule[1]: Progression Number/Position is not a rule of RAVEN's rule table"),
            std::string::npos);
  EXPECT_NE(error_of(replaced("<Rule name=\"Progression\" attr=\"Number\" />"))
                .find("cannot hold in layout Center_Single"),
            std::string::npos);
}

}  // namespace
}  // namespace rave::engine
