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
      const bool ok = visit_zip_tail(tail, bytes.size() - keep, "t.zip",
                                     [&](std::string_view name, std::string_view data) {
                                       seen.push_back(std::string(name) + "=" + std::string(data));
                                     },
                                     only_b);
      if (ok) EXPECT_EQ(seen, std::vector<std::string>{"b.npy=" + b}) << keep;
      else EXPECT_TRUE(seen.empty()) << keep;
      if (keep == bytes.size()) full_seen = ok;
      if (!ok) break;  // a smaller window cannot hold more
    }
    EXPECT_TRUE(full_seen);
  }
}

TEST(Zip, TailWindowStillReportsDamage) {
  const ZipSource member{"x.npy", {std::string("0123456789")}};
  std::string bytes = write_zip(std::span(&member, 1), false);
  bytes[bytes.find("0123")] = '9';
  EXPECT_THROW(visit_zip_tail(bytes, 0, "t.zip", [](std::string_view, std::string_view) {}), InputError);
  EXPECT_THROW(visit_zip_tail(std::string_view(bytes).substr(0, 10), 0, "t.zip", [](std::string_view, std::string_view) {}),
               InputError);
}

}  // namespace
}  // namespace rave::engine
