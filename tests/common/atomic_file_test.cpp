#include "common/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "common/atomic_writer.hpp"
#include "common/error.hpp"
#include "tests/support/test_support.hpp"

namespace rave {
namespace {

TEST(AtomicFile, WritesAndReadsBack) {
  const auto dir = testing::scratch_dir("atomic");
  write_file_atomic(dir / "a.txt", std::string_view("hello"));
  EXPECT_EQ(read_file(dir / "a.txt"), "hello");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u) << "no temporary file may survive";
}

TEST(AtomicFile, UnwritableDirectoryIsAnInputErrorNamingTheFile) {
  const auto path = std::filesystem::path("/nonexistent-dir-for-rave/x.npz");
  try {
    write_file_atomic(path, std::string_view("x"));
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path.string());
    EXPECT_NE(std::string(e.what()).find("cannot create file"), std::string::npos);
  }
}

TEST(AtomicFile, CreateExclusiveMakesTheFileOnceAndLeavesNothingElse) {
  const auto dir = testing::scratch_dir("atomic-exclusive");
  EXPECT_TRUE(create_file_exclusive(dir / "r.json", "first"));
  EXPECT_FALSE(create_file_exclusive(dir / "r.json", "second"));
  EXPECT_EQ(read_file(dir / "r.json"), "first");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u) << "no temporary file may survive";
}

TEST(AtomicFile, AWriterInPiecesShowsNothingBeforeCommitAndLeavesNothingWithout) {
  const auto dir = testing::scratch_dir("atomic-writer");
  const auto count = [&] {
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
    return files;
  };
  {
    AtomicFileWriter out(dir / "a.jsonl");
    out.write("one\n");
    out.write("two\n");
    EXPECT_FALSE(std::filesystem::exists(dir / "a.jsonl"));
    out.commit();
  }
  EXPECT_EQ(read_file(dir / "a.jsonl"), "one\ntwo\n");
  { AtomicFileWriter(dir / "b.jsonl").write("lost"); }  // never committed: an exception's path
  EXPECT_FALSE(std::filesystem::exists(dir / "b.jsonl"));
  EXPECT_EQ(count(), 1u) << "no temporary file may survive";
  EXPECT_THROW(AtomicFileWriter("/nonexistent-dir-for-rave/x.jsonl"), InputError);
}

TEST(AtomicFile, MissingFileIsAnInputError) {
  EXPECT_THROW(read_file("/nonexistent-file-for-rave"), InputError);
}

// Only regular files are read: a FIFO would block until a writer comes (or never end), a device
// such as /dev/zero would fill memory.
TEST(AtomicFile, RefusesWhatIsNotARegularFile) {
  const auto dir = testing::scratch_dir("atomic-kinds");
  const auto fifo = dir / "f.xml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(read_file(fifo), InputError);
  std::filesystem::create_symlink("/dev/zero", dir / "z.xml");
  try {
    read_file(dir / "z.xml");
    FAIL() << "read /dev/zero";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_file(dir), InputError);
}

// An optional file (the npz beside an XML) is looked for by the open itself: nothing there, or no
// regular file there, is nullopt; a regular file is read as read_file_tail reads it.
TEST(AtomicFile, TailOfAnOptionalFile) {
  const auto dir = testing::scratch_dir("atomic-optional");
  std::string tail = "old";
  EXPECT_FALSE(read_file_tail_if_present(dir / "missing.npz", 4, tail));
  EXPECT_FALSE(read_file_tail_if_present(dir / "missing" / "below.npz", 4, tail));
  EXPECT_FALSE(read_file_tail_if_present(dir, 4, tail));
  ASSERT_EQ(::mkfifo((dir / "f.npz").c_str(), 0600), 0);
  EXPECT_FALSE(read_file_tail_if_present(dir / "f.npz", 4, tail));
  write_file_atomic(dir / "a.npz", std::string("0123456789"));
  EXPECT_EQ(read_file_tail_if_present(dir / "a.npz", 4, tail), std::optional<std::uint64_t>(10));
  EXPECT_EQ(tail, "6789");
  EXPECT_EQ(read_file_tail_if_present(dir / "a.npz", 40, tail), std::optional<std::uint64_t>(10));
  EXPECT_EQ(tail, "0123456789");
  write_file_atomic(dir / "blocker", std::string("x"));  // a file where a folder should be
  EXPECT_FALSE(read_file_tail_if_present(dir / "blocker" / "a.npz", 4, tail));
}

TEST(AtomicFile, RefusesFilesAboveTheCap) {
  const auto dir = testing::scratch_dir("atomic-cap");
  write_file_atomic(dir / "big", std::string(1000, 'x'));
  EXPECT_EQ(read_file(dir / "big", 1000).size(), 1000u);
  try {
    read_file(dir / "big", 999);
    FAIL() << "read past the cap";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("more than the 999"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rave
