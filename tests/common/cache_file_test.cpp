// Disk caches (common/cache_file.hpp): a payload reads back as written; a file that is truncated,
// altered, of another kind or another format is ignored; concurrent writers leave whole files;
// RAVE_CACHE_DIR chooses the folder or turns caching off; old builds' files do not pile up.
#include "common/cache_file.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <thread>

#include "common/atomic_file.hpp"
#include "tests/support/test_support.hpp"

namespace rave {
namespace {

namespace fs = std::filesystem;

std::string payload(std::size_t n, char seed) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + i * 7);
  return s;
}

std::optional<std::string> read_back(const fs::path& path, std::string_view kind) {
  CacheMapping file;
  const auto bytes = read_cache(path, kind, file);
  return bytes ? std::optional<std::string>(*bytes) : std::nullopt;
}

TEST(CacheFile, APayloadReadsBackAsWritten) {
  const auto path = testing::scratch_dir("cache-round") / "t.bin";
  const std::string bytes = payload(100000, 3);
  ASSERT_TRUE(write_cache(path, "tables", bytes));
  EXPECT_EQ(read_back(path, "tables"), bytes);
  EXPECT_EQ(read_back(path, "templates"), std::nullopt);  // another kind
  EXPECT_EQ(read_back(path.parent_path() / "none.bin", "tables"), std::nullopt);
}

TEST(CacheFile, AnAlteredOrCutFileIsIgnored) {
  const auto dir = testing::scratch_dir("cache-bad");
  const std::string bytes = payload(5000, 1);
  ASSERT_TRUE(write_cache(dir / "t.bin", "tables", bytes));
  const std::string whole = read_file(dir / "t.bin");
  std::string flipped = whole;
  flipped[flipped.size() - 10] ^= 1;
  write_file_atomic(dir / "flipped.bin", flipped);
  write_file_atomic(dir / "cut.bin", whole.substr(0, whole.size() - 1));
  write_file_atomic(dir / "short.bin", whole.substr(0, 20));
  std::string format = whole;
  format[8] ^= 2;  // the format version
  write_file_atomic(dir / "format.bin", format);
  for (const char* name : {"flipped.bin", "cut.bin", "short.bin", "format.bin"})
    EXPECT_EQ(read_back(dir / name, "tables"), std::nullopt) << name;
}

TEST(CacheFile, OnlyTheCheckedPartIsChecked) {
  const auto path = testing::scratch_dir("cache-part") / "t.bin";
  const std::string bytes = payload(4000, 5);
  ASSERT_TRUE(write_cache(path, "templates", bytes, 1000));
  std::string whole = read_file(path);
  whole[whole.size() - 1] ^= 1;  // past the checked part: the reader's own checks must see it
  write_file_atomic(path, whole);
  EXPECT_TRUE(read_back(path, "templates").has_value());
  whole[whole.size() - 3500] ^= 1;  // inside it
  write_file_atomic(path, whole);
  EXPECT_EQ(read_back(path, "templates"), std::nullopt);
}

TEST(CacheFile, ConcurrentWritersLeaveWholeFiles) {
  const auto path = testing::scratch_dir("cache-race") / "t.bin";
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w)
    writers.emplace_back([&, w] {
      for (int i = 0; i < 20; ++i)
        write_cache(path, "tables", payload(200000, static_cast<char>(w)));
    });
  bool read_whole = true;
  for (int i = 0; i < 200; ++i) {
    const auto got = read_back(path, "tables");
    read_whole = read_whole && (!got || got->size() == 200000);
  }
  for (auto& t : writers) t.join();
  EXPECT_TRUE(read_whole);
  EXPECT_TRUE(read_back(path, "tables").has_value());
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(path.parent_path())) ++files;
  EXPECT_EQ(files, 1u) << "no temporary file survives";
}

TEST(CacheFile, TheFolderComesFromTheEnvironmentAndOldFilesGo) {
  const auto dir = testing::scratch_dir("cache-env");
  ASSERT_EQ(setenv("RAVE_CACHE_DIR", "off", 1), 0);
  EXPECT_EQ(cache_path("x"), std::nullopt);
  ASSERT_EQ(setenv("RAVE_CACHE_DIR", dir.c_str(), 1), 0);
  const auto path = cache_path("perception-x");
  ASSERT_TRUE(path.has_value());
  EXPECT_EQ(path->parent_path(), dir);
  for (int i = 0; i < 6; ++i)  // six older builds' files of the same name
    write_file_atomic(dir / ("perception-x-old" + std::to_string(i) + ".bin"),
                      std::string_view("x"));
  ASSERT_TRUE(write_cache(*path, "k", "payload"));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 4u);
  EXPECT_TRUE(fs::exists(*path));
  unsetenv("RAVE_CACHE_DIR");
}

TEST(CacheFile, ReaderStopsAtTheEnd) {
  ByteWriter w;
  w.u32(3);
  w.array(std::vector<std::int16_t>{1, 2, 3});
  w.text("abc");
  ByteReader r(w.bytes());
  EXPECT_EQ(r.u32(), 3u);
  EXPECT_EQ(r.array<std::int16_t>(), (std::vector<std::int16_t>{1, 2, 3}));
  EXPECT_EQ(r.text(), "abc");
  EXPECT_TRUE(r.done());
  EXPECT_THROW(r.u64(), CacheError);
  ByteReader lying(std::string_view("\xff\xff\xff\xff\xff\xff\xff\x7f", 8));
  EXPECT_THROW(lying.array<std::uint64_t>(), CacheError);
}

}  // namespace
}  // namespace rave
