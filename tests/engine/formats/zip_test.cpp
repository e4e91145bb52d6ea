// The ZIP layer: the folded CRC-32 against zlib, and archives read back member by member.
#include "engine/formats/zip.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include "common/error.hpp"
#include "common/random.hpp"
#include "engine/formats/internal/crc32.hpp"

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
      ASSERT_EQ(internal::crc32_update(internal::crc32_update(0, p, cut), p + cut, n - cut), want)
          << n;
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
    EXPECT_NE(std::string(e.what()).find("CRC mismatch in member 'x.npy'"), std::string::npos)
        << e.what();
  }
}

// Every window from the whole archive down to nothing: the members come back as from the whole
// archive when the directory and the wanted member lie inside, false when they do not, and never a
// read outside the window.
TEST(Zip, TailWindowVisitsWhatItHoldsOrSaysItCannot) {
  const std::string a(5000, 'a'), b = "tail member";
  const ZipSource members[] = {{"a.npy", {a}}, {"b.npy", {b}}};
  for (bool deflate : {false, true}) {
    const std::string bytes = write_zip(members, deflate);
    const auto only_b = [](std::string_view name) { return name == "b.npy"; };
    bool full_seen = false;
    for (std::size_t keep = bytes.size(); keep >= 22; --keep) {
      const std::string_view tail = std::string_view(bytes).substr(bytes.size() - keep);
      std::vector<std::string> seen;
      const bool ok = visit_zip_tail(
          tail, bytes.size() - keep, "t.zip",
          [&](std::string_view name, std::string_view data) {
            seen.push_back(std::string(name) + "=" + std::string(data));
          },
          only_b);
      if (ok)
        EXPECT_EQ(seen, std::vector<std::string>{"b.npy=" + b}) << keep;
      else
        EXPECT_TRUE(seen.empty()) << keep;
      if (keep == bytes.size()) full_seen = ok;
      if (!ok) break;  // a smaller window cannot hold more
    }
    EXPECT_TRUE(full_seen);
  }
}

TEST(Zip, TailWindowStillReportsDamage) {
  const ZipSource member{"x.npy", {std::string_view("0123456789")}};
  std::string bytes = write_zip(std::span(&member, 1), false);
  bytes[bytes.find("0123")] = '9';
  EXPECT_THROW(visit_zip_tail(bytes, 0, "t.zip", [](std::string_view, std::string_view) {}),
               InputError);
  EXPECT_THROW(visit_zip_tail(std::string_view(bytes).substr(0, 10), 0, "t.zip",
                              [](std::string_view, std::string_view) {}),
               InputError);
}

// Little-endian fields of an archive, for crafting hostile ones.
std::uint64_t le(const std::string& bytes, std::size_t at, int width) {
  std::uint64_t v = 0;
  for (int i = 0; i < width; ++i)
    v |= std::uint64_t{static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)])}
         << (8 * i);
  return v;
}
void put_le(std::string& bytes, std::size_t at, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i)
    bytes[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

std::string error_of(const std::string& bytes, std::uint64_t max_unpacked = kMaxZipUnpackedBytes) {
  try {
    visit_zip(
        bytes, "bomb.npz", [](std::string_view, std::string_view) {}, {}, max_unpacked);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A one-member archive whose central directory entry is repeated `copies` times: every copy names
// the same local header and data (the "overlapping members" of a zip bomb).
std::string repeated_entry(const std::string& payload, int copies) {
  const ZipSource member{"image.npy", {payload}};
  std::string bytes = write_zip(std::span(&member, 1), true);
  const std::size_t end = bytes.size() - 22, cd = le(bytes, end + 16, 4),
                    cd_size = le(bytes, end + 12, 4);
  const std::string entry = bytes.substr(cd, cd_size);
  std::string out = bytes.substr(0, cd);
  for (int i = 0; i < copies; ++i) out += entry;
  std::string eocd = bytes.substr(end);
  put_le(eocd, 8, static_cast<std::uint64_t>(copies), 2);
  put_le(eocd, 10, static_cast<std::uint64_t>(copies), 2);
  put_le(eocd, 12, entry.size() * static_cast<std::size_t>(copies), 4);
  return out + eocd;
}

TEST(ZipHostile, OverlappingMembersAreRefused) {
  EXPECT_EQ(error_of(repeated_entry(std::string(1000, 'z'), 1)), "");
  const std::string error = error_of(repeated_entry(std::string(1000, 'z'), 2));
  EXPECT_NE(error.find("member 'image.npy' overlaps member 'image.npy'"), std::string::npos)
      << error;
}

TEST(ZipHostile, TheUnpackedTotalIsCapped) {
  // 1,000 copies of a 1 MB member: 1 GB declared from a few kilobytes.
  const std::string error = error_of(repeated_entry(std::string(1 << 20, '\0'), 1000));
  EXPECT_NE(error.find("unpack to more than 67108864 bytes"), std::string::npos) << error;
  EXPECT_EQ(error_of(repeated_entry(std::string(1 << 20, '\0'), 1), 1 << 20), "");
  EXPECT_NE(error_of(repeated_entry(std::string((1 << 20) + 1, '\0'), 1), 1 << 20), "");
}

TEST(ZipHostile, LocalHeaderNamesMustMatchTheDirectory) {
  const ZipSource member{"target.npy", {std::string_view("payload")}};
  std::string bytes = write_zip(std::span(&member, 1), false);
  bytes[30] = 'T';  // the local header's copy of the name
  const std::string error = error_of(bytes);
  EXPECT_NE(error.find("member 'target.npy' has another name in its local header ('Target.npy')"),
            std::string::npos)
      << error;
}

// Other readers (miniz, inside LibTorch) extract nothing from a member marked as a folder: one
// with bytes is refused rather than read differently by them and by rave.
TEST(ZipHostile, AMemberWithBytesMarkedAsAFolderIsRefused) {
  const ZipSource member{"target.npy", {std::string_view("payload")}};
  std::string bytes = write_zip(std::span(&member, 1), false);
  const std::size_t cd = le(bytes, bytes.size() - 22 + 16, 4);
  put_le(bytes, cd + 38, le(bytes, cd + 38, 4) | 0x10, 4);  // MS-DOS folder attribute
  const std::string error = error_of(bytes);
  EXPECT_NE(error.find("member 'target.npy' is marked as a folder yet holds 7 bytes"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace rave::engine
