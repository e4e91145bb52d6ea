// The data side of rave::neural (torch-free): split listing by file-name suffix, problem loading
// and its errors, the structure -> tree rows conversion, the label table, and the TBB pipeline's
// determinism (same batches for 1 and 2 threads).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/random.hpp"
#include "engine/formats/npy.hpp"
#include "engine/model/structure.hpp"
#include "neural/dataset.hpp"
#include "neural/label_embeddings.hpp"
#include "neural/pipeline.hpp"
#include "neural/structure_input.hpp"
#include "tests/neural/neural_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::neural {
namespace {

using engine::ConfigId;
using engine::Split;
namespace fs = std::filesystem;

// ---- split listing --------------------------------------------------------------------------

TEST(DatasetTest, SplitIsTheFileNameSuffix) {
  EXPECT_TRUE(in_split("/data/test_runs/center_single/RAVEN_1_train.npz", Split::kTrain));
  EXPECT_FALSE(in_split("/data/test_runs/center_single/RAVEN_1_train.npz", Split::kTest));
  EXPECT_TRUE(in_split("RAVEN_16_val.npz", Split::kVal));
  EXPECT_FALSE(in_split("RAVEN_16_val.xml", Split::kVal));
  EXPECT_FALSE(in_split("RAVEN_16_train_backup.npz", Split::kTrain));
  EXPECT_FALSE(in_split("_train.npz", Split::kTrain));
}

TEST(DatasetTest, ListsPerConfigurationInProblemOrder) {
  const auto root =
      testing::write_synthetic_dataset("list", {ConfigId::kUpDown, ConfigId::kCenterSingle}, 22);
  const auto train = list_split(root, Split::kTrain, {});
  ASSERT_EQ(train.size(), 2u * 14);  // k mod 10 in 0..5 for k < 22: 6 + 6 + 2
  EXPECT_EQ(train.front().config, ConfigId::kCenterSingle);  // ConfigId order, not folder order
  EXPECT_EQ(train[5].path.filename(), "RAVEN_5_train.npz");
  EXPECT_EQ(train[6].path.filename(), "RAVEN_10_train.npz");  // numeric, not lexicographic
  EXPECT_EQ(train.back().config, ConfigId::kUpDown);
  const std::vector<ConfigId> only{ConfigId::kUpDown};
  EXPECT_EQ(list_split(root, Split::kTest, only).size(), 4u);
  // A configuration folder given directly.
  EXPECT_EQ(list_split(root / "up_center_single_down_center_single", Split::kVal, {}).size(), 4u);
}

TEST(DatasetTest, EmptyOrMissingSplitIsAnInputError) {
  const auto root =
      testing::write_synthetic_dataset("empty", {ConfigId::kCenterSingle}, 3);  // train only
  EXPECT_THROW(list_split(root, Split::kTest, {}), InputError);
  const std::vector<ConfigId> other{ConfigId::kOutInGrid};
  EXPECT_THROW(list_split(root, Split::kTrain, other), InputError);
  EXPECT_THROW(list_split(root / "nowhere", Split::kTrain, {}), InputError);
  try {
    list_split(root, Split::kVal, {});
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("empty split"), std::string::npos) << e.what();
  }
}

// ---- loading one problem --------------------------------------------------------------------

TEST(DatasetTest, LoadsResizesAndParsesAProblem) {
  const auto root = testing::write_synthetic_dataset("load", {ConfigId::kOutInGrid}, 1);
  const auto files = list_split(root, Split::kTrain, {});
  const auto expect = testing::synthetic_problem(ConfigId::kOutInGrid, mix64(6 * 1000 + 0));
  const PanelResizer resize(160, 80);
  const LoadedProblem p = load_problem(files[0], resize);
  EXPECT_EQ(p.target, expect.target);
  EXPECT_EQ(p.image.size(), 16u * 80 * 80);
  std::vector<std::uint8_t> panel(80 * 80);
  resize(expect.image.data() + 5 * 160 * 160, panel.data());
  EXPECT_TRUE(std::equal(panel.begin(), panel.end(), p.image.begin() + 5 * 6400));
  EXPECT_EQ(p.drt.indicator, 1.0f);
  EXPECT_EQ(p.meta_structure[3], 1.0f);  // Out_In
  const LoadedProblem blind = load_problem(files[0], resize, /*candidates_only=*/true);
  EXPECT_TRUE(std::all_of(blind.image.begin(), blind.image.begin() + 8 * 6400,
                          [](auto v) { return v == 0; }));
  EXPECT_TRUE(
      std::equal(blind.image.begin() + 8 * 6400, blind.image.end(), p.image.begin() + 8 * 6400));
}

TEST(DatasetTest, BadFilesAreInputErrors) {
  const auto root = testing::write_synthetic_dataset("bad", {ConfigId::kCenterSingle}, 1);
  const auto file = root / "center_single" / "RAVEN_0_train.npz";
  const PanelResizer resize(160, 80);
  const std::string bytes = read_file(file);
  write_file_atomic(file, std::string_view(bytes).substr(0, bytes.size() / 2));  // truncated
  EXPECT_THROW(load_problem({file, ConfigId::kCenterSingle}, resize), InputError);
  write_file_atomic(file, std::string_view("not a zip at all"));
  EXPECT_THROW(load_problem({file, ConfigId::kCenterSingle}, resize), InputError);
  EXPECT_THROW(load_problem({root / "missing.npz", ConfigId::kCenterSingle}, resize), InputError);
  auto contents = testing::synthetic_problem(ConfigId::kCenterSingle, 1);
  contents.target = 9;
  const std::string bad_target = engine::encode_npz(contents, false);
  write_file_atomic(file, std::string_view(bad_target));
  EXPECT_THROW(load_problem({file, ConfigId::kCenterSingle}, resize), InputError);
  contents.target = 1;
  contents.structure = {"Scene", "Singleton", "Center_Single",
                        "/",     "/",         "/"};  // a Layout where a Component belongs
  const std::string bad_structure = engine::encode_npz(contents, false);
  write_file_atomic(file, std::string_view(bad_structure));
  EXPECT_THROW(load_problem({file, ConfigId::kCenterSingle}, resize), InputError);
}

// ---- structure -> tree rows -----------------------------------------------------------------

TEST(StructureInputTest, RowsOfTheSevenConfigurations) {
  // docs/neural-reference.md
  const auto row = [](std::string_view name) {
    return static_cast<std::int64_t>(*label_index(name));
  };
  const DrtInput center = drt_input(engine::structure_tree(ConfigId::kCenterSingle));
  EXPECT_EQ(center.labels, (std::array<std::int64_t, 6>{row("Scene"), row("Singleton"), row("Grid"),
                                                        row("Center_Single"), -1, -1}));
  EXPECT_EQ(center.indicator, 0.0f);
  const DrtInput oig = drt_input(engine::structure_tree(ConfigId::kOutInGrid));
  EXPECT_EQ(oig.labels, (std::array<std::int64_t, 6>{row("Scene"), row("Out_In"), row("Out"),
                                                     row("Out_Center_Single"), row("In"),
                                                     row("In_Distribute_Four")}));
  EXPECT_EQ(oig.indicator, 1.0f);
  for (const auto& c : engine::all_configurations()) {
    const DrtInput from_tree = drt_input(engine::structure_tree(c.id));
    EXPECT_EQ(drt_input_from_tokens(engine::structure_tokens(c.id), "t"), from_tree) << c.folder;
    EXPECT_EQ(from_tree.indicator, c.components.size() == 2 ? 1.0f : 0.0f);
  }
}

TEST(StructureInputTest, MalformedSentencesAreInputErrors) {
  const std::vector<std::string> unbalanced{"Scene",         "Singleton", "Grid",
                                            "Center_Single", "/",         "/"};
  EXPECT_THROW(drt_input_from_tokens(unbalanced, "f.npz"), InputError);
  const std::vector<std::string> unknown{"Scene", "Singleton", "Grid", "Nowhere",
                                         "/",     "/",         "/",    "/"};
  EXPECT_THROW(drt_input_from_tokens(unknown, "f.npz"), InputError);
}

// ---- label table ----------------------------------------------------------------------------

TEST(LabelEmbeddingsTest, CompoundsAreSumsAndTheTableIsFixed) {
  const auto t = random_label_embeddings();
  ASSERT_EQ(t.size(), 22u * 300);
  EXPECT_EQ(t, random_label_embeddings());
  const auto at = [&](std::string_view name, int d) {
    return t[static_cast<std::size_t>(*label_index(name) * 300 + d)];
  };
  for (int d = 0; d < 300; ++d) {
    EXPECT_NEAR(at("Left_Right", d), at("Left", d) + at("Right", d), 1e-5);
    EXPECT_NEAR(at("Out_In", d), at("Out", d) + at("In", d), 1e-5);
    EXPECT_NEAR(at("In_Distribute_Four", d), at("In", d) + at("Distribute_Four", d), 1e-5);
    EXPECT_NEAR(at("Left_Center_Single", d), at("Left", d) + at("Center_Single", d), 1e-5);
  }
  double norm = 0;
  for (int d = 0; d < 300; ++d) norm += at("Scene", d) * at("Scene", d);
  EXPECT_GT(std::sqrt(norm), 4.0);
  EXPECT_LT(std::sqrt(norm), 10.0);
}

// The original's vectors (neural/data/README.md): compounds are sums of their parts to 1e-5, and
// the row norms are the ones listed there.
TEST(LabelEmbeddingsTest, GloveTableIsTheOriginals) {
  const auto t = glove_label_embeddings();
  ASSERT_EQ(t.size(), 22u * 300);
  const auto at = [&](std::string_view name, int d) {
    return t[static_cast<std::size_t>(*label_index(name) * 300 + d)];
  };
  for (int d = 0; d < 300; ++d) {
    EXPECT_NEAR(at("Left_Right", d), at("Left", d) + at("Right", d), 1e-4);
    EXPECT_NEAR(at("Up_Center_Single", d), at("Up", d) + at("Center_Single", d), 1e-4);
    EXPECT_NEAR(at("In_Distribute_Four", d), at("In", d) + at("Distribute_Four", d), 1e-4);
  }
  const std::vector<double> norms{5.8, 5.4,  10.6, 10.6, 9.5,  5.7,  6.1,  5.5,  5.9,  5.5,  5.3,
                                  6.8, 10.3, 9.1,  8.9,  13.7, 14.2, 13.5, 13.4, 13.7, 13.6, 12.2};
  for (int row = 0; row < 22; ++row) {
    double sq = 0;
    for (int d = 0; d < 300; ++d)
      sq += double(t[static_cast<std::size_t>(row * 300 + d)]) *
            t[static_cast<std::size_t>(row * 300 + d)];
    EXPECT_NEAR(std::sqrt(sq), norms[static_cast<std::size_t>(row)], 0.051)
        << kLabelNames[static_cast<std::size_t>(row)];
  }
  EXPECT_EQ(label_table("glove").values, t);
  EXPECT_EQ(label_table("random").values, random_label_embeddings());
  EXPECT_NE(t, random_label_embeddings());
  EXPECT_THROW(label_table("no-such-table.npy"), InputError);
}

TEST(LabelEmbeddingsTest, LoadsA22By300Float32Npy) {
  const auto dir = rave::testing::scratch_dir("labels");
  std::vector<float> table(22 * 300);
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = static_cast<float>(i) * 0.5f;
  const std::vector<std::size_t> shape{22, 300};
  std::string bytes = engine::npy_header("<f4", shape);
  bytes.append(reinterpret_cast<const char*>(table.data()), table.size() * sizeof(float));
  write_file_atomic(dir / "ok.npy", std::string_view(bytes));
  EXPECT_EQ(load_label_embeddings(dir / "ok.npy"), table);
  const std::vector<std::size_t> wrong{21, 300};
  std::string bad = engine::npy_header("<f4", wrong);
  bad.append(reinterpret_cast<const char*>(table.data()), 21 * 300 * sizeof(float));
  write_file_atomic(dir / "bad.npy", std::string_view(bad));
  EXPECT_THROW(load_label_embeddings(dir / "bad.npy"), InputError);
  EXPECT_THROW(load_label_embeddings(dir / "missing.npy"), InputError);
}

// ---- the pipeline ---------------------------------------------------------------------------

TEST(PipelineTest, EpochOrderDependsOnSeedAndEpochOnly) {
  EXPECT_EQ(epoch_order(5, 1, 3, false), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  const auto a = epoch_order(100, 12345, 2, true);
  EXPECT_EQ(a, epoch_order(100, 12345, 2, true));
  EXPECT_NE(a, epoch_order(100, 12345, 3, true));
  EXPECT_NE(a, epoch_order(100, 54321, 2, true));
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, epoch_order(100, 0, 0, false));
  EXPECT_EQ(batch_count(100, 32), 4u);
  EXPECT_EQ(batch_count(96, 32), 3u);
}

std::vector<HostBatch> drain(const std::vector<DataFile>& files, int threads, int epoch,
                             bool shuffle_candidates = false) {
  BatchStream stream(files,
                     {.image_size = 80,
                      .batch_size = 8,
                      .threads = threads,
                      .seed = 99,
                      .shuffle = true,
                      .shuffle_candidates = shuffle_candidates},
                     epoch);
  std::vector<HostBatch> out;
  while (auto b = stream.next()) out.push_back(std::move(*b));
  EXPECT_FALSE(stream.next().has_value());
  return out;
}

TEST(PipelineTest, SameBatchesForOneAndTwoThreads) {
  const auto root = testing::write_synthetic_dataset(
      "threads", {ConfigId::kCenterSingle, ConfigId::kLeftRight}, 20);
  const auto files = list_split(root, Split::kTrain, {});  // 24 problems
  const auto one = drain(files, 1, 4);
  const auto two = drain(files, 2, 4);
  ASSERT_EQ(one.size(), 3u);
  EXPECT_EQ(one, two);
  EXPECT_EQ(one[0].images.size(), 8u * 16 * 80 * 80);
  EXPECT_EQ(one[0].labels.size(), 8u * 6);
  std::vector<std::size_t> seen;
  for (const auto& b : one) seen.insert(seen.end(), b.positions.begin(), b.positions.end());
  EXPECT_EQ(seen, epoch_order(files.size(), 99, 4, true));
  EXPECT_NE(one, drain(files, 2, 5));  // another epoch, another order
  const auto permuted = drain(files, 1, 4, true);
  EXPECT_EQ(permuted, drain(files, 2, 4, true));
  ASSERT_EQ(permuted.size(), one.size());
  EXPECT_EQ(permuted[0].positions, one[0].positions);
  EXPECT_NE(permuted[0].targets, one[0].targets);
  EXPECT_EQ(permuted[0].labels, one[0].labels);
}

TEST(DatasetTest, PermutedCandidatesCarryTheTarget) {
  const auto root = testing::write_synthetic_dataset("permute", {ConfigId::kCenterSingle}, 1);
  const LoadedProblem p =
      load_problem(list_split(root, Split::kTrain, {})[0], PanelResizer(160, 80));
  LoadedProblem q = p;
  const std::array<int, 8> order{3, 7, 0, 5, 1, 6, 2, 4};
  permute_candidates(q, order);
  const auto panel = [](const LoadedProblem& x, int i) {
    return std::vector<std::uint8_t>(x.image.begin() + i * 6400, x.image.begin() + (i + 1) * 6400);
  };
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(panel(q, 8 + i), panel(p, 8 + order[static_cast<std::size_t>(i)]));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(panel(q, i), panel(p, i));
  EXPECT_EQ(order[static_cast<std::size_t>(q.target)], p.target);
}

// Kept problems go to the batch straight from the cache, or as copies when their candidates are
// permuted: the same batches either way.
TEST(PipelineTest, CachedEpochsEqualDecodedOnes) {
  const auto root = testing::write_synthetic_dataset("cache", {ConfigId::kOutInCenter}, 20);
  const auto files = list_split(root, Split::kTrain, {});
  for (bool permuted : {true, false}) {
    const PipelineOptions options{.image_size = 80,
                                  .batch_size = 5,
                                  .threads = 2,
                                  .shuffle = true,
                                  .shuffle_candidates = permuted};
    ProblemCache cache(files.size(), options, std::size_t{1} << 30);
    ProblemCache tiny(files.size(), options, 1000);
    EXPECT_TRUE(cache.enabled());
    EXPECT_FALSE(tiny.enabled());
    for (int epoch : {1, 2}) {
      std::vector<HostBatch> plain, cached;
      BatchStream a(files, options, epoch), b(files, options, epoch, &cache);
      while (auto x = a.next()) plain.push_back(std::move(*x));
      while (auto x = b.next()) cached.push_back(std::move(*x));
      EXPECT_EQ(plain, cached) << epoch << " " << permuted;
      EXPECT_EQ(cache.size(), files.size());
    }
  }
}

// A budget for part of the split keeps the first files and streams the rest: same batches.
TEST(PipelineTest, PartialCacheKeepsWhatFitsAndStreamsTheRest) {
  const auto root =
      testing::write_synthetic_dataset("partial-cache", {ConfigId::kCenterSingle}, 20);
  const auto files = list_split(root, Split::kTrain, {});  // 12
  const PipelineOptions options{.image_size = 80, .batch_size = 5, .threads = 2, .shuffle = true};
  ProblemCache cache(files.size(), options, 5 * ProblemCache::problem_bytes(options) + 10);
  EXPECT_EQ(cache.capacity(), 5u);
  for (int epoch : {1, 2, 3}) {
    std::vector<HostBatch> plain, cached;
    BatchStream a(files, options, epoch), b(files, options, epoch, &cache);
    while (auto x = a.next()) plain.push_back(std::move(*x));
    while (auto x = b.next()) cached.push_back(std::move(*x));
    EXPECT_EQ(plain, cached) << epoch;
    EXPECT_EQ(cache.size(), 5u);
  }
  for (std::size_t i = 0; i < files.size(); ++i)
    EXPECT_EQ(static_cast<bool>(cache.find(i)), i < 5) << i;
}

// The ranks of a data-parallel run keep the training split once, in memory they all map: here two
// caches over one block stand for two ranks. After the first epoch each has decoded only its
// slices, yet each finds every problem, and the second epoch's batches are those decoded from disk.
TEST(PipelineTest, RanksOverSharedCacheMemoryFindWhatTheOthersDecoded) {
  const auto root = testing::write_synthetic_dataset("shared-cache", {ConfigId::kLeftRight}, 20);
  const auto files = list_split(root, Split::kTrain, {});  // 12
  PipelineOptions options{.image_size = 80,
                          .batch_size = 3,
                          .threads = 2,
                          .shuffle = true,
                          .world_size = 2,
                          .split_global_batches = true};
  const std::size_t budget = std::size_t{1} << 30;
  const auto bytes = ProblemCache::memory_bytes(files.size(), options, budget);
  ASSERT_EQ(bytes, files.size() * ProblemCache::problem_bytes(options));
  auto block = std::shared_ptr<std::byte[]>(new std::byte[bytes]());
  const CacheMemory memory{block.get(), bytes, block};
  std::vector<ProblemCache> caches(2, ProblemCache(files.size(), options, budget, memory));
  const auto epoch_of = [&](int rank, int epoch, ProblemCache* cache) {
    PipelineOptions o = options;
    o.rank = rank;
    std::vector<HostBatch> out;
    BatchStream stream(files, o, epoch, cache);
    while (auto x = stream.next()) out.push_back(std::move(*x));
    return out;
  };
  epoch_of(0, 1, &caches[0]);
  EXPECT_EQ(caches[1].size(), files.size() / 2);  // what rank 0 decoded, seen by rank 1
  epoch_of(1, 1, &caches[1]);
  for (const auto& cache : caches) EXPECT_EQ(cache.size(), files.size());
  for (int rank : {0, 1}) {
    EXPECT_EQ(epoch_of(rank, 2, &caches[static_cast<std::size_t>(rank)]),
              epoch_of(rank, 2, nullptr))
        << rank;
    for (std::size_t i = 0; i < files.size(); ++i)
      EXPECT_TRUE(caches[static_cast<std::size_t>(rank)].find(i)) << rank << " " << i;
  }
  // A cache refuses memory smaller than its arguments need.
  EXPECT_THROW(ProblemCache(files.size(), options, budget, {block.get(), bytes - 1, block}),
               std::logic_error);
}

TEST(PipelineTest, LastPartialBatchIsKept) {
  const auto root =
      testing::write_synthetic_dataset("partial", {ConfigId::kCenterSingle}, 30);  // 18 train
  const auto files = list_split(root, Split::kTrain, {});
  const auto batches = drain(files, 2, 0);
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[2].size, 2);
}

TEST(PipelineTest, AStreamRethrowsABadFileAndCanBeAbandoned) {
  const auto root = testing::write_synthetic_dataset("corrupt", {ConfigId::kCenterSingle}, 20);
  auto files = list_split(root, Split::kTrain, {});  // 12 problems
  // With 8 tokens in flight (4 per worker), problem 11 enters the pipeline only after problem 3
  // has left the sink, so the first batch is out before the error.
  write_file_atomic(files[11].path, std::string_view("garbage"));
  BatchStream stream(files, {.image_size = 80, .batch_size = 4, .threads = 2}, 0);
  EXPECT_TRUE(stream.next().has_value());  // problems 0..3
  EXPECT_THROW(while (stream.next()){}, InputError);
  // Abandoning a running stream early must not hang.
  { BatchStream early(files, {.image_size = 80, .batch_size = 1, .threads = 2, .prefetch = 1}, 0); }
}

}  // namespace
}  // namespace rave::neural
