#include "jobs/dataset.hpp"

#include <gtest/gtest.h>

#include <map>

#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/folder_lock.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/zip.hpp"
#include "jobs/dataset_manifest.hpp"
#include "tests/support/test_support.hpp"

namespace rave::jobs {
namespace {

using namespace rave::engine;

using testing::file_tree;

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
  const auto one = rave::testing::scratch_dir("ds1");
  const auto two = rave::testing::scratch_dir("ds2");
  const auto r1 = write_dataset(small_spec(one, 1));
  const auto r2 = write_dataset(small_spec(two, 2));
  EXPECT_EQ(r1.written, 30u);
  EXPECT_EQ(r2.written, 30u);
  const auto a = file_tree(one), b = file_tree(two);
  ASSERT_EQ(a.size(), 61u);  // 30 pairs and rave.json
  EXPECT_TRUE(a == b) << "same seed must give byte-identical files for any thread count";
  EXPECT_TRUE(a.count("distribute_nine/RAVEN_9_test.xml"));
}

TEST(Dataset, ResumeSkipsCompleteProblemsAndRedoesHalfPairs) {
  const auto dir = rave::testing::scratch_dir("resume");
  auto spec = small_spec(dir, 2);
  write_dataset(spec);
  const auto before = file_tree(dir);
  std::filesystem::remove(dir / "center_single" / "RAVEN_3_train.xml");
  spec.resume = true;
  const auto report = write_dataset(spec);
  EXPECT_EQ(report.skipped, 29u);
  EXPECT_EQ(report.written, 1u);
  EXPECT_EQ(report.redone, 1u) << "the npz of the half pair was there";
  EXPECT_TRUE(file_tree(dir) == before);
}

// A truncated npz, an empty XML and a file with one byte changed (same size) are not complete: the
// resume checks each pair against the size and CRC-32 recorded in rave.json and redoes them.
TEST(Dataset, ResumeVerifiesEveryPairAgainstTheManifest) {
  const auto dir = rave::testing::scratch_dir("resume-verify");
  auto spec = small_spec(dir, 2);
  write_dataset(spec);
  const auto before = file_tree(dir);
  std::filesystem::resize_file(dir / "center_single" / "RAVEN_1_train.npz", 1000);
  write_file_atomic(dir / "distribute_nine" / "RAVEN_2_train.xml", std::string());
  std::string xml = read_file(dir / "in_distribute_four_out_center_single" / "RAVEN_7_val.xml");
  xml[xml.size() / 2] ^= 1;
  write_file_atomic(dir / "in_distribute_four_out_center_single" / "RAVEN_7_val.xml", xml);
  spec.resume = true;
  const auto report = write_dataset(spec);
  EXPECT_EQ(report.skipped, 27u);
  EXPECT_EQ(report.written, 3u);
  EXPECT_EQ(report.redone, 3u);
  EXPECT_TRUE(file_tree(dir) == before);
}

TEST(Dataset, WritesItsManifestAndLeavesNoJournalLockOrTemporaryFile) {
  const auto dir = rave::testing::scratch_dir("manifest");
  auto spec = small_spec(dir, 2);
  spec.command = {"rave", "generate", "-n", "10"};
  write_dataset(spec);
  const auto manifest = read_manifest(dir / kManifestName);
  ASSERT_TRUE(manifest);
  EXPECT_TRUE(manifest->complete);
  EXPECT_EQ(manifest->seed, 99u);
  EXPECT_EQ(manifest->command, spec.command);
  EXPECT_EQ(manifest->configurations,
            (std::vector<std::string>{"center_single", "distribute_nine",
                                      "in_distribute_four_out_center_single"}));
  EXPECT_EQ(manifest->counts,
            (ManifestCounts{.problems = 30, .train = 18, .val = 6, .test = 6, .redrawn = 0}));
  ASSERT_EQ(manifest->files.size(), 60u);
  for (const ManifestFile& f : manifest->files) {
    const std::string bytes = read_file(dir / f.path);
    EXPECT_EQ(bytes.size(), f.size) << f.path;
    EXPECT_EQ(crc32(bytes), f.crc32) << f.path;
  }
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"center_single", "distribute_nine",
                                             "in_distribute_four_out_center_single", "rave.json"}));
}

// The identity names the data, not the folder: the same seed regenerated elsewhere gives the same
// one, another seed another, a folder without a complete rave.json none.
TEST(Dataset, IdentityIsTheContentWhereverItLies) {
  const auto a = rave::testing::scratch_dir("identity-a"),
             b = rave::testing::scratch_dir("identity-b");
  auto spec = small_spec(a, 2);
  spec.command = {"rave", "generate", "-n", "10", "--seed", "99"};
  write_dataset(spec);
  spec.dir = b;
  spec.threads = 1;
  write_dataset(spec);
  const auto id = dataset_identity(a);
  ASSERT_TRUE(id);
  EXPECT_EQ(dataset_identity(b), id);
  EXPECT_EQ(id->rfind("rave generate -n 10 --seed 99; 60 files, fnv1a64 ", 0), 0u) << *id;
  const auto c = rave::testing::scratch_dir("identity-c");
  auto other = small_spec(c, 2);
  other.command = spec.command;  // the same words, other files: told apart by the hash
  other.seed = 100;
  write_dataset(other);
  ASSERT_TRUE(dataset_identity(c));
  EXPECT_NE(dataset_identity(c), id);
  EXPECT_FALSE(dataset_identity(rave::testing::scratch_dir("identity-empty")));
  auto manifest = *read_manifest(b / kManifestName);
  manifest.complete = false;
  write_manifest(b / kManifestName, manifest);
  EXPECT_FALSE(dataset_identity(b)) << "a dataset still being written has none";
}

// --resume continues only the dataset the folder holds; a fresh run refuses a folder with another.
TEST(Dataset, ADifferentRunIsRefusedWithTheDifferencesNamed) {
  const auto dir = rave::testing::scratch_dir("mix");
  auto spec = small_spec(dir, 2);
  write_dataset(spec);
  const auto before = file_tree(dir);
  for (bool resume : {true, false}) {
    auto other = spec;
    other.resume = resume;
    other.seed = 100;
    other.answers = AnswerStrategy::kFair;
    try {
      write_dataset(other);
      FAIL() << "a different dataset was mixed in";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("seed: 99 in rave.json, 100 in this run"), std::string::npos) << what;
      EXPECT_NE(what.find("answers: raven in rave.json, fair in this run"), std::string::npos)
          << what;
    }
  }
  auto fewer = spec;
  fewer.resume = true;
  fewer.configs = {ConfigId::kCenterSingle};
  EXPECT_THROW(write_dataset(fewer), InputError);
  EXPECT_TRUE(file_tree(dir) == before) << "nothing was touched";
  const auto foreign = rave::testing::scratch_dir("foreign");
  std::filesystem::create_directories(foreign / "center_single");
  write_file_atomic(foreign / "center_single" / "RAVEN_0_train.xml", std::string("<Data/>"));
  auto into_foreign = small_spec(foreign, 1);
  EXPECT_THROW(write_dataset(into_foreign), InputError) << "RAVEN files without rave.json";
}

// A dataset an older rave made resumes where no later change of the generator touches it (the 3 x 3
// originals after rave 0.7.0's change to the exchangeable sets), and is refused where one does.
TEST(Dataset, AnOlderRavesDatasetResumesOnlyWhereTheGeneratorIsUnchanged) {
  for (const AnswerStrategy answers : {AnswerStrategy::kRaven, AnswerStrategy::kBalanced}) {
    const auto dir = rave::testing::scratch_dir("older-" + std::string(strategy_name(answers)));
    auto spec = small_spec(dir, 1);
    spec.answers = answers;
    write_dataset(spec);
    auto manifest = read_manifest(dir / kManifestName);
    ASSERT_TRUE(manifest.has_value());
    manifest->rave_version = "0.6.0";
    write_manifest(dir / kManifestName, *manifest);
    spec.resume = true;
    if (answers == AnswerStrategy::kRaven) {
      EXPECT_EQ(write_dataset(spec).skipped, 30u) << "every problem kept";
    } else {
      try {
        write_dataset(spec);
        FAIL() << "balanced sets of rave 0.6.0 were resumed by a rave that draws them otherwise";
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("rave version: 0.6.0 in rave.json"), std::string::npos)
            << e.what();
      }
    }
  }
}

TEST(Dataset, StrayTemporaryFilesAreRemovedAndCounted) {
  const auto dir = rave::testing::scratch_dir("temps");
  auto spec = small_spec(dir, 2);
  write_dataset(spec);
  const auto before = file_tree(dir);
  write_file_atomic(dir / "center_single" / ".RAVEN_4_train.npz.tmp.12345.7", std::string("half"));
  write_file_atomic(dir / "distribute_nine" / ".RAVEN_8_test.xml.tmp.99.0", std::string("half"));
  write_file_atomic(dir / "center_single" / ".keep.tmp.me", std::string("not ours"));
  spec.resume = true;
  const auto report = write_dataset(spec);
  EXPECT_EQ(report.removed_temporary, 2u);
  EXPECT_EQ(report.skipped, 30u);
  auto after = file_tree(dir);
  EXPECT_EQ(after.erase("center_single/.keep.tmp.me"), 1u);
  EXPECT_TRUE(after == before);
}

TEST(Dataset, ASecondWriterIsRefusedNamingTheFirst) {
  const auto dir = rave::testing::scratch_dir("locked");
  std::filesystem::create_directories(dir);
  const FolderLock holder(dir, "rave generate -n 5 -o somewhere");
  try {
    write_dataset(small_spec(dir, 1));
    FAIL() << "two writers in one folder";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("in use by another writer (pid " + std::to_string(::getpid())),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("rave generate -n 5 -o somewhere"), std::string::npos) << what;
  }
}

// A stop request (a signal) ends the run after the problems in flight; resuming completes it with
// the bytes of an uninterrupted run.
TEST(Dataset, AStoppedRunResumesToTheSameBytes) {
  const auto whole = rave::testing::scratch_dir("whole");
  write_dataset(small_spec(whole, 2));
  const auto dir = rave::testing::scratch_dir("stopped");
  auto spec = small_spec(dir, 2);
  std::atomic<int> stop{0};
  spec.stop = &stop;
  const auto report = write_dataset(spec, [&](const DatasetProgress& p) {
    if (p.done == 7) stop = 15;
  });
  EXPECT_TRUE(report.interrupted);
  EXPECT_GE(report.written, 7u);
  EXPECT_LT(report.written, 30u);
  EXPECT_TRUE(std::filesystem::exists(dir / ".rave-journal"));
  EXPECT_FALSE(read_manifest(dir / kManifestName)->complete);
  stop = 0;
  spec.resume = true;
  const auto resumed = write_dataset(spec);
  EXPECT_FALSE(resumed.interrupted);
  EXPECT_EQ(resumed.skipped, report.written)
      << "the journal recorded every problem the stopped run finished";
  EXPECT_TRUE(file_tree(dir) == file_tree(whole));
}

// An acceptance test redraws problem k from its own further streams: deterministic for any thread
// count, recorded in the manifest, and kept by a resume.
TEST(Dataset, RedrawsAreDeterministicAndRecorded) {
  auto refuse_first_draws_of_even_targets = [](const Problem& p) {
    return *p.target % 2 == 1 || *p.target == 0;
  };
  std::map<std::string, std::string> trees[2];
  std::filesystem::path dirs[2];
  for (int threads : {1, 2}) {
    const auto dir = dirs[threads - 1] = rave::testing::scratch_dir("redraw");
    auto spec = small_spec(dir, threads);
    spec.accept = refuse_first_draws_of_even_targets;
    spec.accept_name = "odd-or-zero target";
    const auto report = write_dataset(spec);
    EXPECT_GT(report.redrawn, 3u);
    EXPECT_GT(report.draws, 30u);
    const auto manifest = read_manifest(dir / kManifestName);
    EXPECT_EQ(manifest->accept, "odd-or-zero target");
    EXPECT_EQ(manifest->counts.redrawn, report.redrawn);
    EXPECT_EQ(manifest->redraws.size(), report.redrawn);
    trees[threads - 1] = file_tree(dir);
    spec.resume = true;
    const auto resumed = write_dataset(spec);
    EXPECT_EQ(resumed.skipped, 30u);
    EXPECT_EQ(resumed.redrawn, report.redrawn);
  }
  EXPECT_TRUE(trees[0] == trees[1]);
  // A problem kept at its first draw is the plain dataset's; a redrawn one is not.
  auto plain = small_spec(rave::testing::scratch_dir("plain"), 2);
  write_dataset(plain);
  const auto first = file_tree(plain.dir);
  const auto redraws = read_manifest(dirs[0] / kManifestName)->redraws;
  for (const auto& [name, bytes] : first) {
    if (!name.ends_with(".xml")) continue;
    const bool redrawn = redraws.count(name.substr(0, name.size() - 4)) == 1;
    EXPECT_EQ(bytes == trees[0].at(name), !redrawn) << name;
  }
}

TEST(Dataset, FairDatasetsWritePredictAsTheOriginalDoes) {
  auto spec = small_spec(rave::testing::scratch_dir("fair"), 1);
  spec.answers = AnswerStrategy::kFair;
  spec.num_samples = 1;
  write_dataset(spec);
  const NpzFile f = read_npz(spec.dir / "center_single" / "RAVEN_0_train.npz");
  EXPECT_EQ(f.array("predict").shape, std::vector<std::size_t>{1})
      << "RAVEN-FAIR's predict has shape (1,)";
  EXPECT_TRUE(f.array("target").shape.empty());
}

TEST(Dataset, BadSpecsAreUsageErrors) {
  auto spec = small_spec(rave::testing::scratch_dir("bad"), 1);
  spec.num_samples = 0;
  EXPECT_THROW(write_dataset(spec), UsageError);
  spec.num_samples = 1;
  spec.val = 6;
  spec.test = 6;
  EXPECT_THROW(write_dataset(spec), UsageError);
  spec.val = spec.test = 2;
  spec.configs = {ConfigId::kCenterSingle, ConfigId::kCenterSingle};
  EXPECT_THROW(write_dataset(spec), UsageError) << "two workers on the same files";
  spec.configs = {};
  spec.num_samples = 2635249153387078803ULL;  // x 7 overflows 64 bits
  EXPECT_THROW(write_dataset(spec), UsageError);
  spec.num_samples = kMaxDatasetProblems;
  EXPECT_THROW(write_dataset(spec), UsageError);
}

TEST(Dataset, UnwritableSaveDirIsAnInputErrorAndLeavesNothing) {
  auto spec = small_spec("/proc/rave-cannot-write-here", 1);
  EXPECT_THROW(write_dataset(spec), InputError);
}

}  // namespace
}  // namespace rave::jobs
