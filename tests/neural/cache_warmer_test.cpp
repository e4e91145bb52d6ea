// CacheWarmer: it fills a ProblemCache from a background-priority thread with the problems the
// pipeline would decode, leaves bad files to the pipeline's error, runs beside a pipeline that
// uses the same cache without changing a batch, and lowers only its own thread.
#include "neural/cache_warmer.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <thread>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "tests/neural/neural_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::neural {
namespace {

using engine::ConfigId;
using engine::Split;

constexpr PipelineOptions kOptions{
    .image_size = 80, .batch_size = 5, .threads = 1, .shuffle = true, .shuffle_candidates = true};

std::vector<HostBatch> epoch(const std::vector<DataFile>& files, int e, ProblemCache* cache) {
  std::vector<HostBatch> out;
  BatchStream stream(files, kOptions, e, cache);
  while (auto b = stream.next()) out.push_back(std::move(*b));
  return out;
}

TEST(CacheWarmerTest, FillsWhatFitsWithTheProblemsThePipelineWouldDecode) {
  const auto root = testing::write_synthetic_dataset("warm", {ConfigId::kLeftRight}, 20);
  const auto files = list_split(root, Split::kTrain, {});  // 12
  ProblemCache cache(files.size(), kOptions, 9 * ProblemCache::problem_bytes(kOptions));
  ASSERT_EQ(cache.capacity(), 9u);
  {
    CacheWarmer warmer(files, kOptions, cache);
    warmer.wait();
    if (!warmer.background()) GTEST_SKIP() << "no background scheduling class here";
  }
  EXPECT_EQ(cache.size(), 9u);
  const PanelResizer resize(engine::kPanelSize, 80);
  for (std::size_t i = 0; i < cache.capacity(); ++i) {
    const LoadedProblem fresh = load_problem(files[i], resize);
    ASSERT_NE(cache.find(i), nullptr) << i;
    EXPECT_EQ(cache.find(i)->image, fresh.image) << i;
    EXPECT_EQ(cache.find(i)->target, fresh.target) << i;
    EXPECT_EQ(cache.find(i)->drt.labels, fresh.drt.labels) << i;
  }
  EXPECT_EQ(epoch(files, 3, &cache), epoch(files, 3, nullptr));
}

// Warming while the pipeline reads and writes the same cache: the batches of every epoch equal
// uncached ones, and the cache ends full.
TEST(CacheWarmerTest, RunsBesideAPipelineOnTheSameCache) {
  const auto root = testing::write_synthetic_dataset(
      "warm-beside", {ConfigId::kCenterSingle, ConfigId::kOutInGrid}, 20);
  const auto files = list_split(root, Split::kTrain, {});  // 24
  ProblemCache cache(files.size(), kOptions, std::size_t{1} << 30);
  CacheWarmer warmer(files, kOptions, cache);
  for (int e : {1, 2}) EXPECT_EQ(epoch(files, e, &cache), epoch(files, e, nullptr)) << e;
  warmer.wait();
  EXPECT_EQ(cache.size(), files.size());
}

// A file that does not decode stays out of the cache, and the pipeline still names it.
TEST(CacheWarmerTest, LeavesABadFileToThePipeline) {
  const auto root = testing::write_synthetic_dataset("warm-bad", {ConfigId::kCenterSingle}, 20);
  const auto files = list_split(root, Split::kTrain, {});
  write_file_atomic(files[4].path, std::string_view("garbage"));
  ProblemCache cache(files.size(), kOptions, std::size_t{1} << 30);
  CacheWarmer warmer(files, kOptions, cache);
  warmer.wait();
  if (!warmer.background()) GTEST_SKIP() << "no background scheduling class here";
  EXPECT_EQ(cache.find(4), nullptr);
  EXPECT_EQ(cache.size(), files.size() - 1);
  try {
    epoch(files, 1, &cache);
    ADD_FAILURE() << "the bad file was not reported";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(files[4].path.filename().string()), std::string::npos)
        << e.what();
  }
}

TEST(CacheWarmerTest, LowersTheCallingThreadOnly) {
  bool lowered = false;
  std::thread([&] { lowered = lower_to_background(); }).join();
  if (!lowered) GTEST_SKIP() << "no background scheduling class here";
#ifdef SCHED_IDLE
  EXPECT_NE(::sched_getscheduler(0), SCHED_IDLE);  // this thread kept its class
#endif
}

}  // namespace
}  // namespace rave::neural
