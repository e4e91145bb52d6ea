#include "common/text.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"

namespace rave {
namespace {

TEST(Utf8, FindsTheFirstInvalidByte) {
  EXPECT_EQ(utf8_error("plain ascii, long enough for the eight-byte path"), std::string_view::npos);
  EXPECT_EQ(utf8_error("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), std::string_view::npos);
  EXPECT_EQ(utf8_error("0123456789\xff"), 10u);
  EXPECT_EQ(utf8_error("ab\xc3"), 2u) << "a sequence cut short";
  EXPECT_EQ(utf8_error("ab\x80z"), 2u) << "a stray continuation byte";
  EXPECT_EQ(utf8_error("\xc0\xaf"), 0u) << "an overlong '/'";
  EXPECT_EQ(utf8_error("\xe0\x80\xaf"), 0u) << "an overlong three-byte form";
  EXPECT_EQ(utf8_error("\xed\xa0\x80"), 0u) << "a UTF-16 surrogate";
  EXPECT_EQ(utf8_error("\xf4\x90\x80\x80"), 0u) << "above U+10FFFF";
  EXPECT_EQ(utf8_error("\xf4\x8f\xbf\xbf"), std::string_view::npos) << "U+10FFFF itself";
}

TEST(Printable, EscapesControlsAndInvalidBytesIntoOneLine) {
  EXPECT_EQ(printable("a\nb\r\tc"), "a\\nb\\r\\tc");
  EXPECT_EQ(printable("\x1b[2Jgone"), "\\x1b[2Jgone");
  EXPECT_EQ(printable("x\xffy"), "x\\xffy");
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\xc2\\x9b31m")
      << "a C1 control (CSI)";
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9") << "valid UTF-8 stays";
  const std::string once = printable("\x01\n\xfe");
  EXPECT_EQ(printable(once), once) << "idempotent";
  EXPECT_EQ(utf8_error(printable("\xff\xfe\xc3")), std::string_view::npos);
}

TEST(Quoted, CutsLongValues) {
  EXPECT_EQ(quote_value("Type"), "'Type'");
  const std::string value(10'000'000, 'x');
  const std::string q = quote_value(value);
  EXPECT_LT(q.size(), 120u);
  EXPECT_NE(q.find("(10000000 bytes)"), std::string::npos) << q;
  EXPECT_EQ(quote_value(std::string(79, 'a') + "\xc3\xa9" + "zzz").find("\\x"), std::string::npos)
      << "a cut never splits a UTF-8 sequence";
}

TEST(InputErrorText, IsOnePrintableBoundedLine) {
  const InputError e("dir/bad\nname.xml", "Data/Panels",
                     "unknown value '\x1b[31m'\nrave: error: forged");
  const std::string what = e.what();
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  EXPECT_EQ(what.find('\x1b'), std::string::npos) << what;
  const InputError huge("a.xml", "", std::string(5'000'000, 'y'));
  EXPECT_LT(std::string(huge.what()).size(), 1100u);
}

// A message of bytes that are not text (a fuzzed .npy header's key) grows fourfold when made
// printable: the error still bounds it, cuts it between escapes and says so.
TEST(InputErrorText, UnprintableMessagesStayBoundedAndWhole) {
  const std::string garbage =
      "unexpected key '" + std::string(1200, '\xff') + std::string(40, '\0');
  const InputError e("f.npz", "x.npy byte 574", garbage);
  const std::string_view what = e.what();
  EXPECT_LT(what.size(), 1100u);
  EXPECT_EQ(utf8_error(what), std::string_view::npos);
  EXPECT_EQ(what.find('\n'), std::string_view::npos);
  EXPECT_TRUE(what.starts_with("f.npz:x.npy byte 574: unexpected key '\\xff")) << what;
  EXPECT_TRUE(what.ends_with("\\xff... (message cut)")) << what;
}

}  // namespace
}  // namespace rave
