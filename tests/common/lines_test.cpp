#include "common/lines.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rave {
namespace {

std::vector<TextLine> all(std::string_view text) {
  std::vector<TextLine> out;
  for (const TextLine& line : text_lines(text)) out.push_back(line);
  return out;
}

TEST(TextLines, SplitAtNewlinesDroppingACarriageReturnBeforeThem) {
  const auto lines = all("a\r\nbc\n\nd");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].text, "a");
  EXPECT_EQ(lines[1].text, "bc");
  EXPECT_EQ(lines[2].text, "");
  EXPECT_EQ(lines[3].text, "d");
  EXPECT_EQ(lines[1].offset, 3u);
  EXPECT_EQ(lines[3].offset, 7u);
  EXPECT_EQ(lines[3].number, 4u);
  EXPECT_TRUE(lines[2].ended);
  EXPECT_FALSE(lines[3].ended) << "the last line has no newline";
}

TEST(TextLines, CountTheLinesATextHas) {
  EXPECT_TRUE(all("").empty());
  EXPECT_EQ(all("a\n").size(), 1u);
  EXPECT_EQ(all("\n").size(), 1u);
  EXPECT_EQ(all("a\nb").size(), 2u);
  EXPECT_EQ(all("x\r").front().text, "x") << "a carriage return at the very end";
}

TEST(TextPosition, NamesLineAndColumnFromOne) {
  const std::string_view text = "ab\ncd\n";
  EXPECT_EQ(line_col(text, 0), "1:1");
  EXPECT_EQ(line_col(text, 2), "1:3") << "the newline itself";
  EXPECT_EQ(line_col(text, 4), "2:2");
  EXPECT_EQ(line_col(text, 6), "3:1") << "the end";
  EXPECT_EQ(line_col(text, 99), "3:1") << "beyond the end: the end";
  const TextPosition from{10, 5};
  EXPECT_EQ(line_col(from.after("xy")), "10:7");
  EXPECT_EQ(line_col(from.after("x\nyz")), "11:3");
}

}  // namespace
}  // namespace rave
