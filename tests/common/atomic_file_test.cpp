#include "common/atomic_file.hpp"

#include <gtest/gtest.h>

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

TEST(AtomicFile, MissingFileIsAnInputError) {
  EXPECT_THROW(read_file("/nonexistent-file-for-rave"), InputError);
}

}  // namespace
}  // namespace rave
