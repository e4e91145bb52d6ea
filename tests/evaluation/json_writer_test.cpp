// The direct JSON writer of `rave export` writes what nlohmann::json's dump() writes for the same
// values: strings with every kind of escape, integers, doubles, nesting; every export line of every form re-dumps to itself.
#include "evaluation/internal/json_writer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "evaluation/export/export.hpp"
#include "tests/engine/support/reference_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::evaluation {
namespace {

using internal::JsonWriter;
using Ordered = nlohmann::ordered_json;

std::string written(double v) {
  std::string out;
  JsonWriter(out).value(v);
  return out;
}

std::string written(std::string_view s) {
  std::string out;
  JsonWriter(out).value(s);
  return out;
}

TEST(JsonWriter, StringsAreEscapedAsNlohmannEscapesThem) {
  std::string every_byte_below_0x80;
  for (int c = 1; c < 0x80; ++c) every_byte_below_0x80 += static_cast<char>(c);
  for (const std::string& s :
       {std::string(""), std::string("plain"), std::string("q\"b\\s/"),
        std::string("\b\f\n\r\t\x01\x1f\x7f"), every_byte_below_0x80,
        std::string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), std::string("nul\0inside", 10)})
    EXPECT_EQ(written(s), Ordered(s).dump()) << s;
}

TEST(JsonWriter, InvalidUtf8BecomesTheReplacementCharacter) {
  EXPECT_EQ(written("a\xff"
                    "b"),
            "\"a\xEF\xBF\xBD"
            "b\"");
  EXPECT_EQ(written("\xc3"), "\"\xEF\xBF\xBD\"");  // a sequence cut short
}

TEST(JsonWriter, DoublesAsNlohmannWritesThem) {
  const std::vector<double> fixed{0.0,  -0.0,   1.0,  -1.0,   0.1,   0.2,     0.5,        0.33,
                                  1e-4, 1e-5,   1e15, 1.5e15, 1e16,  1e300,   1e-9,       0.16,
                                  0.83, 0.3333, 99.5, 1e21,   0.055, 123.456, 0.295369988};
  for (double v : fixed) EXPECT_EQ(written(v), Ordered(v).dump()) << v;
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> exponent(-12, 18), unit(0, 1);
  for (int i = 0; i < 2000; ++i) {
    const double v = std::pow(10.0, exponent(random)) * unit(random);
    const std::string ours = written(v);
    EXPECT_EQ(ours, Ordered(v).dump());
    EXPECT_EQ(Ordered::parse(ours).get<double>(), v) << ours;
  }
  EXPECT_EQ(written(0.5), "0.5");
  EXPECT_EQ(written(2.0), "2.0");
  EXPECT_EQ(written(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(written(std::numeric_limits<double>::infinity()), "null");
}

TEST(JsonWriter, IntegersAndNesting) {
  std::string out;
  JsonWriter w(out);
  w.begin_object().key("a").value(0).key("b").value(std::int64_t{-9223372036854775807 - 1});
  w.key("c").begin_array().begin_array().end_array().begin_object().end_object();
  w.value(true).value(false).null().value(std::size_t{7}).end_array();
  w.key("d \"quoted\"").begin_object().key("e").begin_array().value(1).value(2).end_array();
  w.end_object().end_object();
  const Ordered expected{{"a", 0},
                         {"b", std::numeric_limits<std::int64_t>::min()},
                         {"c", {Ordered::array(), Ordered::object(), true, false, nullptr, 7}},
                         {"d \"quoted\"", {{"e", {1, 2}}}}};
  EXPECT_EQ(out, expected.dump());
}

// Each line as nlohmann parses and dumps it again is the line: same layout, escapes and numbers.
TEST(JsonWriter, ExportLinesRedumpToThemselves) {
  const std::vector<ExportOptions> forms{
      {.format = ExportFormat::kText},
      {.format = ExportFormat::kTextDisentangled, .text = {.angle = true}},
      {.format = ExportFormat::kText, .text = {.style = PromptStyle::kLmRaven, .rows_shown = 2}},
      {.format = ExportFormat::kText, .uncertainty_seed = 5, .text = {.uncertainty = 0.6}},
      {.format = ExportFormat::kJson},
      {.format = ExportFormat::kJson, .shuffle_seed = 3},
      {.format = ExportFormat::kJson, .no_answer = true}};
  std::vector<std::filesystem::path> sets{testing::source_dir() / "data" / "variants"};
  for (const char* set : {"raven", "iraven", "fair"})
    sets.push_back(engine::testing::reference_set_dir(set));
  int lines = 0;
  for (const auto& set : sets)
    for (const ExportOptions& o : forms) {
      std::string text;
      export_set(set, o, 2, text);
      for (std::size_t at = 0; at < text.size(); ++lines) {
        const std::size_t end = text.find('\n', at);
        const std::string line = text.substr(at, end - at);
        EXPECT_EQ(Ordered::parse(line).dump(), line) << set;
        at = end + 1;
      }
    }
  EXPECT_GT(lines, 100);
}

}  // namespace
}  // namespace rave::evaluation
