// The ZIP layer: the folded CRC-32 against zlib, and archives read back member by member.
#include "engine/formats/zip.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include "common/error.hpp"
#include "engine/formats/internal/crc32.hpp"
#include "common/random.hpp"

namespace rave::engine {
namespace {

TEST(Crc32, MatchesZlibForEveryLengthAlignmentAndSplit) {
  Rng rng(3);
  std::string data(5000, '\0');
  for (auto& c : data) c = static_cast<char>(rng.below(256));
  for (std::size_t offset = 0; offset < 16; offset += 5)
    for (std::size_t n = 0; n + offset <= data.size(); n += (n < 300 ? 1 : 397)) {
      const auto* p = reinterpret_cast<const Bytef*>(data.data() + offset);
      const auto want = static_cast<std::uint32_t>(crc32_z(0, p, n));
      ASSERT_EQ(internal::crc32_update(0, p, n), want) << "offset " << offset << " length " << n;
      const std::size_t cut = n / 3;
      ASSERT_EQ(internal::crc32_update(internal::crc32_update(0, p, cut), p + cut, n - cut), want) << n;
    }
}

TEST(Zip, MembersReadBackStoredAndDeflated) {
  const std::string a(100000, 'a'), b = "tiny";
  const ZipSource members[] = {{"a.npy", {a, b}}, {"empty.npy", {}}, {"b.npy", {b}}};
  for (bool deflate : {false, true}) {
    const std::vector<ZipMember> read = read_zip(write_zip(members, deflate), "t.zip");
    ASSERT_EQ(read.size(), 3u);
    EXPECT_EQ(read[0].name, "a.npy");
    EXPECT_EQ(read[0].data, a + b);
    EXPECT_EQ(read[1].data, "");
    EXPECT_EQ(read[2].data, b);
  }
}

TEST(Zip, CorruptCrcIsReportedWithTheMember) {
  const std::string payload = "0123456789";
  const ZipSource member{"x.npy", {payload}};
  std::string bytes = write_zip(std::span(&member, 1), false);
  bytes[bytes.find("0123")] = '9';
  try {
    read_zip(bytes, "t.zip");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("CRC mismatch in member x.npy"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rave::engine
