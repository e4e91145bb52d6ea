// The study server's checks of a request before its body is read (request_checks.hpp): the Host a
// DNS-rebinding page would send is refused, the server's own addresses are not; JSON types; the
// numbers of headers and paths (never an exception, never past their range); names in characters.
#include "study/request_checks.hpp"

#include <gtest/gtest.h>

namespace rave::study {
namespace {

TEST(HostMatches, TheServersOwnAddressesOnly) {
  EXPECT_TRUE(host_matches("127.0.0.1:8765", "127.0.0.1", 8765, "127.0.0.1"));
  EXPECT_TRUE(host_matches("localhost:8765", "127.0.0.1", 8765, "127.0.0.1"));
  EXPECT_TRUE(host_matches("LocalHost:8765", "127.0.0.1", 8765, "127.0.0.1"));
  EXPECT_TRUE(host_matches("[::1]:8765", "::1", 8765, "::1"));
  EXPECT_TRUE(host_matches("192.168.1.5:8765", "192.168.1.5", 8765, "0.0.0.0"));
  EXPECT_TRUE(host_matches("192.168.1.5:8765", "::ffff:192.168.1.5", 8765, "::"));
  EXPECT_TRUE(host_matches("study.lan:8765", "192.168.1.5", 8765, "study.lan"));
  EXPECT_TRUE(host_matches("127.0.0.1", "127.0.0.1", 80, "127.0.0.1"));

  EXPECT_FALSE(host_matches("evil.example:8765", "127.0.0.1", 8765, "127.0.0.1"));
  EXPECT_FALSE(host_matches("evil.example", "127.0.0.1", 80, "127.0.0.1"));
  EXPECT_FALSE(host_matches("127.0.0.1:8766", "127.0.0.1", 8765, "127.0.0.1"));
  EXPECT_FALSE(host_matches("127.0.0.1", "127.0.0.1", 8765, "127.0.0.1"));
  EXPECT_FALSE(host_matches("", "127.0.0.1", 8765, "127.0.0.1"));
  EXPECT_FALSE(host_matches("localhost:8765", "192.168.1.5", 8765, "0.0.0.0"))
      << "localhost names the machine of the browser, not a network address";
  EXPECT_FALSE(host_matches("0.0.0.0:8765", "192.168.1.5", 8765, "0.0.0.0"));
}

TEST(IsJsonType, ApplicationJsonWithOrWithoutParameters) {
  EXPECT_TRUE(is_json_type("application/json"));
  EXPECT_TRUE(is_json_type("Application/JSON; charset=utf-8"));
  EXPECT_FALSE(is_json_type("text/plain"));
  EXPECT_FALSE(is_json_type("application/x-www-form-urlencoded"));
  EXPECT_FALSE(is_json_type("multipart/form-data; boundary=x"));
  EXPECT_FALSE(is_json_type(""));
}

TEST(ParseCount, DigitsWithinTheirRange) {
  EXPECT_EQ(parse_count("0", 10), 0u);
  EXPECT_EQ(parse_count("4096", 4096), 4096u);
  EXPECT_EQ(parse_count("18446744073709551615", UINT64_MAX), UINT64_MAX);
  EXPECT_FALSE(parse_count("18446744073709551616", UINT64_MAX)) << "past 64 bits";
  EXPECT_FALSE(parse_count("99999999999999999999999", UINT64_MAX));
  EXPECT_FALSE(parse_count("4097", 4096));
  EXPECT_FALSE(parse_count("-1", 10));
  EXPECT_FALSE(parse_count("+1", 10));
  EXPECT_FALSE(parse_count(" 1", 10));
  EXPECT_FALSE(parse_count("1e3", 10000));
  EXPECT_FALSE(parse_count("", 10));
}

TEST(Utf8Characters, CountsCodePointsNotBytes) {
  EXPECT_EQ(utf8_characters(""), 0u);
  EXPECT_EQ(utf8_characters("ada"), 3u);
  EXPECT_EQ(utf8_characters("\xc3\xa9t\xc3\xa9"), 3u);  // été: 5 bytes
  EXPECT_EQ(utf8_characters("\xe6\x9d\xb1"), 1u);       // one CJK character: 3 bytes
  EXPECT_EQ(utf8_characters("\xf0\x9f\x98\x80"), 1u);   // one emoji: 4 bytes
}

}  // namespace
}  // namespace rave::study
