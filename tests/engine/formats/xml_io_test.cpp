// The XML reader and writer: every reference XML read and written back byte for byte (masks and
// real_bbox recomputed from the levels), Python 2's sorted attribute order, and located errors.
#include "engine/formats/xml_io.hpp"
#include "engine/encode.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <regex>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "tests/support/test_support.hpp"

namespace rave::engine {
namespace {

// The first byte where two texts differ, with some context, for failure messages.
std::string first_difference(const std::string& got, const std::string& want) {
  std::size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  if (i == got.size() && i == want.size()) return "";
  const std::size_t from = i < 60 ? 0 : i - 60;
  return "byte " + std::to_string(i) + " (sizes " + std::to_string(got.size()) + " vs " +
         std::to_string(want.size()) + ")\n got: ..." + got.substr(from, 120) + "\nwant: ..." +
         want.substr(from, 120);
}

// Every reference XML (a byte copy of the original, per the manifest's sha256) read and written
// back byte for byte.
void expect_round_trip(std::string_view set) {
  int files = 0, identical = 0;
  std::size_t bytes = 0;
  for (const auto& ref : testing::reference_problems(set)) {
    const std::string want = read_file(ref.xml);
    ASSERT_EQ(testing::sha256_hex(want), ref.xml_sha256)
        << ref.xml << ": the fixture is not the original XML";
    const std::string got = write_problem_xml(read_problem_xml(ref.xml));
    const std::string diff = first_difference(got, want);
    EXPECT_EQ(diff, "") << ref.xml;
    files += 1, identical += diff.empty(), bytes += want.size();
  }
  std::cout << set << " reference: " << identical << " of " << files
            << " XML files byte-identical (" << bytes << " bytes)\n";
}

TEST(XmlConformance, RavenReferenceRoundTripsByteForByte) { expect_round_trip("raven"); }
TEST(XmlConformance, IRavenReferenceRoundTripsByteForByte) { expect_round_trip("iraven"); }
TEST(XmlConformance, FairReferenceRoundTripsByteForByte) { expect_round_trip("fair"); }

// Rewrites every start tag with its attributes sorted as Python 2's ElementTree wrote them.
std::string sort_attributes(const std::string& xml) {
  static const std::regex tag(R"(<([A-Za-z_]+)((?: [A-Za-z_]+="[^"]*")+)( ?/?)>)");
  static const std::regex attr(R"( ([A-Za-z_]+)="([^"]*)\")");
  std::string out;
  auto last = xml.cbegin();
  for (std::sregex_iterator it(xml.begin(), xml.end(), tag), end; it != end; ++it) {
    out.append(last, (*it)[0].first);
    std::vector<std::pair<std::string, std::string>> attrs;
    const std::string body = (*it)[2];
    for (std::sregex_iterator a(body.begin(), body.end(), attr); a != end; ++a)
      attrs.emplace_back((*a)[1], (*a)[2]);
    std::sort(attrs.begin(), attrs.end());
    out += "<" + std::string((*it)[1]);
    for (const auto& [k, v] : attrs) out += " " + k + "=\"" + v + "\"";
    out += std::string((*it)[3]) + ">";
    last = (*it)[0].second;
  }
  out.append(last, xml.cend());
  return out;
}

TEST(XmlRead, AcceptsPython2SortedAttributeOrder) {
  for (const auto& ref : testing::reference_problems("iraven")) {
    const std::filesystem::path& path = ref.xml;
    const std::string text = read_file(path);
    const std::string sorted = sort_attributes(text);
    ASSERT_NE(sorted, text);
    ASSERT_NE(sorted.find("<Entity Angle="), std::string::npos);
    EXPECT_EQ(parse_problem_xml(sorted, "sorted.xml"), parse_problem_xml(text, "original.xml"))
        << path;
  }
}

TEST(XmlRead, ReadsLevelsRulesAndModifications) {
  const Problem p = read_problem_xml(testing::reference_fixtures_dir() /
                                     "iraven/distribute_four/RAVEN_0_train.xml");
  EXPECT_EQ(p.config, ConfigId::kDistributeFour);
  const Entity first{.slot = 0,
                     .type = 5,
                     .size = 3,
                     .color = 9,
                     .angle = 2};  // bbox [0.25, 0.25, 0.5, 0.5], Type 5 Size 3 Color 9 Angle 2
  ASSERT_EQ(p.context[0].components.size(), 1u);
  EXPECT_EQ(p.context[0].components[0].entities.at(0), first);
  EXPECT_EQ(p.context[0].components[0].uniformity, 1);
  EXPECT_EQ(p.rules.at(0).rules[0], (Rule{.name = RuleName::kArithmetic,
                                          .attr = RuleAttr::kPosition,
                                          .value = 0,
                                          .value_known = false}));
  ASSERT_TRUE(p.modified.has_value());
  EXPECT_TRUE((*p.modified)[6].empty());
  EXPECT_EQ((*p.modified)[0], (std::vector<Modification>{{0, Attr::kType}, {0, Attr::kPosition}}));
  EXPECT_FALSE(p.target.has_value());
  EXPECT_FALSE(p.predict.has_value());
}

// Symbolic exports by other tools carry no Rules element: the rules are then unknown (empty), the
// panels read as before, and such a problem is written back without the element.
TEST(XmlRead, AProblemWithoutRulesHasUnknownRules) {
  const std::string text = read_file(::rave::testing::reference_fixtures_dir() / "iraven" /
                                     "distribute_four" / "RAVEN_0_train.xml");
  const std::size_t from = text.find("<Rules>"), to = text.find("</Rules>");
  ASSERT_NE(from, std::string::npos);
  const std::string without =
      text.substr(0, from) + text.substr(to + std::string("</Rules>").size());
  const Problem p = parse_problem_xml(without, "no_rules.xml");
  Problem original = parse_problem_xml(text, "original.xml");
  EXPECT_TRUE(p.rules.empty());
  original.rules.clear();
  EXPECT_EQ(p, original);
  EXPECT_EQ(write_problem_xml(p), without);
}

// The error a malformed variant of a reference file raises.
InputError error_of(const std::string& text) {
  try {
    parse_problem_xml(text, "bad.xml");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError";
  return InputError("", "", "");
}

class XmlErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    text_ = read_file(testing::reference_fixtures_dir() /
                      "raven/in_distribute_four_out_center_single" / "RAVEN_0_train.xml");
  }
  // Replaces the n-th (0-based) occurrence of `from`.
  std::string replace_nth(const std::string& from, const std::string& to, int n) const {
    std::size_t at = text_.find(from);
    for (int i = 0; i < n && at != std::string::npos; ++i) at = text_.find(from, at + 1);
    EXPECT_NE(at, std::string::npos) << from;
    std::string out = text_;
    return at == std::string::npos ? out : out.replace(at, from.size(), to);
  }
  std::string text_;
};

TEST_F(XmlErrors, TruncatedFileNamesLineAndColumn) {
  const InputError e = error_of(text_.substr(0, 5000));
  EXPECT_EQ(e.file(), "bad.xml");
  EXPECT_TRUE(std::regex_match(e.place(), std::regex(R"(1:\d+)"))) << e.place();
  const InputError multi = error_of("<Data>\n  <Panels>\n    <Panel>\n  </Data>");
  EXPECT_EQ(multi.place(), "4:5") << multi.what();
}

TEST_F(XmlErrors, MissingAttributeNamesTheElementPath) {
  // Drops the first Type attribute of the file.
  const std::string text = std::regex_replace(text_, std::regex(R"( Type="\d")"), "",
                                              std::regex_constants::format_first_only);
  const InputError e = error_of(text);
  EXPECT_EQ(e.place(), "Data/Panels/Panel[1]/Struct/Component[1]/Layout/Entity[1]@Type")
      << e.what();
}

TEST_F(XmlErrors, BadLevelAndNonIntegerAreLocated) {
  std::string text = text_;
  std::size_t panel4 = 0;
  for (int i = 0; i < 4; ++i) panel4 = text.find("<Panel>", panel4 + 1);
  const std::size_t in = text.find("<Component id=\"1\"", panel4);
  const std::size_t color = text.find(" Color=\"", in);
  text.replace(color, 9, " Color=\"12");
  EXPECT_EQ(error_of(text).place(),
            "Data/Panels/Panel[4]/Struct/Component[2]/Layout/Entity[1]@Color");
  text = text_;
  text.replace(text.find(" Angle=\"", in), 9, " Angle=\"x1");
  const InputError e = error_of(text);
  EXPECT_EQ(e.place(), "Data/Panels/Panel[4]/Struct/Component[2]/Layout/Entity[1]@Angle");
  EXPECT_NE(std::string(e.what()).find("not an integer"), std::string::npos);
}

TEST_F(XmlErrors, WrongPanelCountAndUnknownNames) {
  const std::size_t last_panel = text_.rfind("<Panel>");
  std::string fifteen = text_;
  fifteen.erase(last_panel, text_.find("</Panel>", last_panel) + 8 - last_panel);
  const InputError count = error_of(fifteen);
  EXPECT_EQ(count.place(), "Data/Panels");
  EXPECT_NE(std::string(count.what()).find("expected 16 Panel elements, found 15"),
            std::string::npos);
  EXPECT_EQ(error_of(replace_nth("name=\"Out_In\"", "name=\"Inside_Out\"", 2)).place(),
            "Data/Panels/Panel[3]/Struct@name");
  EXPECT_EQ(error_of(replace_nth("In_Distribute_Four", "In_Distribute_Five", 0)).place(),
            "Data/Panels/Panel[1]/Struct");
  EXPECT_EQ(
      error_of(replace_nth("bbox=\"[0.5, 0.5, 1, 1]\"", "bbox=\"[0.5, 0.5, 1, 0.9]\"", 1)).place(),
      "Data/Panels/Panel[2]/Struct/Component[1]/Layout/Entity[1]@bbox");
}

TEST_F(XmlErrors, NumberMustMatchTheEntityCount) {
  const std::size_t layout = text_.find("name=\"In_Distribute_Four\" Number=\"");
  std::string text = text_;
  const std::size_t digit = layout + std::string("name=\"In_Distribute_Four\" Number=\"").size();
  text[digit] = text[digit] == '3' ? '2' : static_cast<char>(text[digit] + 1);
  EXPECT_EQ(error_of(text).place(), "Data/Panels/Panel[1]/Struct/Component[2]/Layout@Number");
}

TEST(XmlRead, MissingFileIsAnInputError) {
  EXPECT_THROW(read_problem_xml("/nonexistent/RAVEN_0_train.xml"), InputError);
}

}  // namespace
}  // namespace rave::engine
