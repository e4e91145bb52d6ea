// Datasets of the variants (docs/variants.md): shards make the one-machine dataset, rave.json
// records the variant and a resume with other options is refused, and undrawable options need
// --symbolic-only.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "jobs/dataset.hpp"
#include "jobs/dataset_manifest.hpp"
#include "tests/support/test_support.hpp"

namespace rave::jobs {
namespace {

using namespace rave::engine;

using testing::file_tree;

TEST(Variant, ThreeShardsMakeTheOneMachineDataset) {
  const auto one = rave::testing::scratch_dir("variant_one"),
             sharded = rave::testing::scratch_dir("variant_shards");
  DatasetSpec spec{.dir = one,
                   .configs = {ConfigId::kCenterSingle, ConfigId::kLeftRight},
                   .num_samples = 10,
                   .seed = 21,
                   .answers = AnswerStrategy::kFair,
                   .threads = 2,
                   .variant = Variant{.grid = 4, .confounders = 1}};
  write_dataset(spec, {});
  spec.dir = sharded;
  std::uint64_t written = 0;
  for (int shard = 1; shard <= 3; ++shard) {
    spec.shard = Shard{.index = shard, .count = 3};
    written += write_dataset(spec, {}).written;
  }
  EXPECT_EQ(written, 20u);
  EXPECT_EQ(file_tree(one),
            file_tree(sharded));  // rave.json included: the shards' manifests merged
  spec.shard = Shard{.index = 2, .count = 3};
  spec.resume =
      true;  // after the merge a shard resumes from rave.json and verifies its own problems
  const DatasetReport again = write_dataset(spec, {});
  EXPECT_EQ(again.skipped, 7u);
  EXPECT_EQ(again.written, 0u);
  spec.shard = Shard{.index = 4, .count = 3};
  EXPECT_THROW(prepare_dataset_dir(spec), UsageError);
}

// rave.json records the variant, and a run with other variant options may not continue the folder.
TEST(Variant, ManifestRecordsTheVariantAndResumeChecksIt) {
  const auto dir = rave::testing::scratch_dir("variant_manifest");
  DatasetSpec spec{.dir = dir,
                   .configs = {ConfigId::kCenterSingle},
                   .num_samples = 4,
                   .seed = 3,
                   .variant = Variant{.grid = 4, .confounders = 1}};
  write_dataset(spec, {});
  const std::optional<DatasetManifest> m = read_manifest(dir / kManifestName);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->variant.grid, 4);
  EXPECT_EQ(m->variant.confounders, 1);
  EXPECT_TRUE(manifest_mismatches(dir, *m).empty());
  spec.resume = true;
  EXPECT_EQ(write_dataset(spec, {}).skipped, 4u);
  spec.variant.grid = 5;
  try {
    write_dataset(spec, {});
    ADD_FAILURE() << "a run with --grid 5 continued a --grid 4 dataset";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("grid: 4 in rave.json, 5 in this run"), std::string::npos)
        << e.what();
  }
}

TEST(Variant, UndrawableOptionsNeedSymbolicOnly) {
  DatasetSpec spec{.dir = rave::testing::scratch_dir("variant_bad"),
                   .configs = {},
                   .num_samples = 1,
                   .variant = Variant{.values = 100}};
  EXPECT_THROW(prepare_dataset_dir(spec), UsageError);
  spec.symbolic_only = true;
  EXPECT_NO_THROW(prepare_dataset_dir(spec));
}

}  // namespace
}  // namespace rave::jobs
