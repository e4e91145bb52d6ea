#include "common/folder_lock.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "common/error.hpp"
#include "tests/support/test_support.hpp"

namespace rave {
namespace {

namespace fs = std::filesystem;
using Mode = FolderLock::Mode;

// flock locks belong to open files, so two FolderLocks of one process conflict as two processes'.
TEST(FolderLock, SharedHoldersComeInTogetherAndKeepAnExclusiveOneOut) {
  const fs::path dir = testing::scratch_dir("lock-shared");
  std::optional<FolderLock> a, b;
  a.emplace(dir, "shard 1", FolderLock::kFileName, Mode::kShared);
  b.emplace(dir, "shard 2", FolderLock::kFileName, Mode::kShared);
  EXPECT_THROW(FolderLock(dir, "whole"), InputError);
  a.reset();  // not the last: the file stays, still locked
  EXPECT_TRUE(fs::exists(dir / FolderLock::kFileName));
  EXPECT_THROW(FolderLock(dir, "whole"), InputError);
  b.reset();  // the last removes it
  EXPECT_FALSE(fs::exists(dir / FolderLock::kFileName));
  EXPECT_NO_THROW(FolderLock(dir, "whole"));
}

TEST(FolderLock, AnExclusiveHolderKeepsSharedOnesOutNamingItself) {
  const fs::path dir = testing::scratch_dir("lock-exclusive");
  const FolderLock whole(dir, "rave generate -o whole");
  try {
    FolderLock shard(dir, "shard", FolderLock::kFileName, Mode::kShared);
    FAIL() << "a shared lock beside an exclusive one";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rave generate -o whole"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rave
