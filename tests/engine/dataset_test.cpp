#include "engine/dataset.hpp"

#include <gtest/gtest.h>

#include <map>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "tests/support/test_support.hpp"

namespace rave::engine {
namespace {

std::map<std::string, std::string> read_tree(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file())
      files[std::filesystem::relative(entry.path(), dir).string()] = read_file(entry.path());
  return files;
}

DatasetSpec small_spec(const std::filesystem::path& dir, int threads) {
  return {.dir = dir,
          .configs = {ConfigId::kCenterSingle, ConfigId::kDistributeNine, ConfigId::kOutInGrid},
          .num_samples = 10,
          .seed = 99,
          .answers = AnswerStrategy::kRaven,
          .threads = threads};
}

TEST(Dataset, SplitAndNamesFollowTheOriginal) {
  EXPECT_EQ(problem_stem(0, split_of(0, 2, 2)), "RAVEN_0_train");
  EXPECT_EQ(problem_stem(5, split_of(5, 2, 2)), "RAVEN_5_train");
  EXPECT_EQ(problem_stem(16, split_of(16, 2, 2)), "RAVEN_16_val");
  EXPECT_EQ(problem_stem(29, split_of(29, 2, 2)), "RAVEN_29_test");
  EXPECT_EQ(split_of(3, 0, 10), Split::kTest);
}

TEST(Dataset, OneAndTwoThreadsWriteIdenticalBytes) {
  const auto one = testing::scratch_dir("ds1");
  const auto two = testing::scratch_dir("ds2");
  const auto r1 = write_dataset(small_spec(one, 1));
  const auto r2 = write_dataset(small_spec(two, 2));
  EXPECT_EQ(r1.written, 30u);
  EXPECT_EQ(r2.written, 30u);
  const auto a = read_tree(one), b = read_tree(two);
  ASSERT_EQ(a.size(), 60u);
  EXPECT_TRUE(a == b) << "same seed must give byte-identical files for any thread count";
  EXPECT_TRUE(a.count("distribute_nine/RAVEN_9_test.xml"));
}

TEST(Dataset, ResumeSkipsCompleteProblemsAndRedoesHalfPairs) {
  const auto dir = testing::scratch_dir("resume");
  auto spec = small_spec(dir, 2);
  write_dataset(spec);
  const auto before = read_tree(dir);
  std::filesystem::remove(dir / "center_single" / "RAVEN_3_train.xml");
  spec.resume = true;
  const auto report = write_dataset(spec);
  EXPECT_EQ(report.skipped, 29u);
  EXPECT_EQ(report.written, 1u);
  EXPECT_TRUE(read_tree(dir) == before);
}

TEST(Dataset, BadSpecsAreUsageErrors) {
  auto spec = small_spec(testing::scratch_dir("bad"), 1);
  spec.num_samples = 0;
  EXPECT_THROW(write_dataset(spec), UsageError);
  spec.num_samples = 1;
  spec.val = 6;
  spec.test = 6;
  EXPECT_THROW(write_dataset(spec), UsageError);
}

TEST(Dataset, UnwritableSaveDirIsAnInputErrorAndLeavesNothing) {
  auto spec = small_spec("/proc/rave-cannot-write-here", 1);
  EXPECT_THROW(write_dataset(spec), InputError);
}

}  // namespace
}  // namespace rave::engine
