#include "engine/dataset.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <system_error>

#include "common/error.hpp"
#include "common/folder_lock.hpp"
#include "common/parallel.hpp"
#include "common/version.hpp"
#include "engine/dataset_manifest.hpp"
#include "engine/encode.hpp"
#include "engine/formats/zip.hpp"
#include "engine/generate.hpp"
#include "engine/internal/dataset_state.hpp"

namespace rave::engine {
namespace {

namespace fs = std::filesystem;
using internal::PairRecord;
using Records = std::map<std::string, PairRecord>;

std::vector<ConfigId> chosen_configs(const DatasetSpec& spec) {
  if (!spec.configs.empty()) return spec.configs;
  std::vector<ConfigId> all;
  for (const auto& c : all_configurations()) all.push_back(c.id);
  return all;
}

void make_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(dir.string(), "", "cannot create folder: " + ec.message());
  if (!fs::is_directory(dir, ec)) throw InputError(dir.string(), "", "is not a folder");
}

std::string joined(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += separator;
    out += w;
  }
  return out;
}

// "center_single/RAVEN_7_val": where problem k of a configuration lives, relative to the root.
std::string problem_path(const DatasetSpec& spec, ConfigId id, std::uint64_t k) {
  return std::string(configuration(id).folder) + "/" + problem_stem(k, split_of(k, spec.val, spec.test));
}

DatasetManifest manifest_for(const DatasetSpec& spec, const std::vector<ConfigId>& configs) {
  DatasetManifest m;
  m.rave_version = std::string(version());
  m.command = spec.command;
  m.seed = spec.seed;
  m.answers = std::string(strategy_name(spec.answers));
  for (ConfigId id : configs) m.configurations.emplace_back(configuration(id).folder);
  m.num_samples = spec.num_samples;
  m.val = spec.val;
  m.test = spec.test;
  m.compress = spec.compress;
  if (spec.accept) m.accept = spec.accept_name;
  return m;
}

// The records a resumed run may trust. A manifest that differs from the run, or RAVEN files without
// any manifest, stop the run: it would mix two datasets. `manifest` takes over the command line of
// the run that started the dataset.
Records existing_records(const DatasetSpec& spec, DatasetManifest& manifest, const std::vector<fs::path>& folders) {
  const fs::path path = spec.dir / kManifestName;
  const std::optional<DatasetManifest> existing = read_manifest(path);
  if (!existing) {
    for (const fs::path& folder : folders)
      if (internal::holds_problem_files(folder))
        throw InputError(folder.string(), "", "holds RAVEN problem files but the save dir has no rave.json: rave cannot "
                                              "tell what made them; choose an empty folder");
    return {};
  }
  const auto differences = manifest_differences(*existing, manifest);
  if (!differences.empty())
    throw InputError(path.string(), "", "holds another dataset (" + joined(differences, "; ") +
                                            "); choose another folder, or remove this one to start afresh");
  manifest.command = existing->command;
  if (!spec.resume) return {};
  Records records = internal::records_of(*existing);
  for (auto& [problem, record] : internal::read_journal(spec.dir / internal::kJournalName)) records[problem] = record;
  return records;
}

// Problem k drawn until spec.accept passes it (at once when there is no test).
std::pair<Problem, std::uint64_t> draw(const DatasetSpec& spec, ConfigId id, std::uint64_t k) {
  for (std::uint64_t attempt = 0; attempt < kMaxDraws; ++attempt) {
    Problem problem = generate_problem(id, spec.answers, spec.seed, k, attempt);
    if (!spec.accept || spec.accept(problem)) return {std::move(problem), attempt};
  }
  throw Error("problem " + std::to_string(k) + " of " + std::string(configuration(id).folder) + ": none of " +
              std::to_string(kMaxDraws) + " draws passed the acceptance test (" + spec.accept_name + ")");
}

ManifestCounts counts_of(const DatasetSpec& spec, std::size_t configs, const std::vector<std::optional<PairRecord>>& records) {
  ManifestCounts c;
  c.problems = records.size();
  for (std::uint64_t k = 0; k < spec.num_samples; ++k) {
    const Split s = split_of(k, spec.val, spec.test);
    (s == Split::kTrain ? c.train : s == Split::kVal ? c.val : c.test) += configs;
  }
  for (const auto& r : records) c.redrawn += r && r->attempt > 0;
  return c;
}

// The state of one run, shared by its workers.
class Run {
 public:
  Run(const DatasetSpec& spec, const ProgressFn& progress)
      : spec_(spec), progress_(progress), configs_(chosen_configs(spec)), records_(spec.num_samples * configs_.size()) {}
  DatasetReport execute();

 private:
  void one(std::size_t index);
  void tick();
  void finish(DatasetManifest& manifest, internal::Journal& journal);

  const DatasetSpec& spec_;
  const ProgressFn& progress_;
  std::vector<ConfigId> configs_;
  std::vector<std::optional<PairRecord>> records_;  // by problem index, as problems finish
  Records known_;
  internal::Journal* journal_ = nullptr;
  std::atomic<std::uint64_t> written_{0}, skipped_{0}, redone_{0}, draws_{0}, bytes_{0}, done_{0};
  std::atomic<bool> interrupted_{false};
  std::mutex progress_mutex_;
};

void Run::tick() {
  const std::uint64_t now = ++done_;
  if (!progress_) return;
  std::lock_guard lock(progress_mutex_);
  progress_({now, records_.size(), skipped_.load()});
}

void Run::one(std::size_t index) {
  if (spec_.stop != nullptr && spec_.stop->load() != 0) {
    interrupted_ = true;
    return;
  }
  const ConfigId id = configs_[index / spec_.num_samples];
  const std::uint64_t k = index % spec_.num_samples;
  const std::string problem = problem_path(spec_, id, k);
  if (spec_.resume) {
    const auto known = known_.find(problem);
    if (known != known_.end() && internal::pair_matches(spec_.dir, problem, known->second)) {
      records_[index] = known->second;
      ++skipped_;
      return tick();
    }
    if (internal::pair_partly_exists(spec_.dir, problem)) ++redone_;
  }
  auto [drawn, attempt] = draw(spec_, id, k);
  const ProblemFiles files = encode_problem_files(drawn, spec_.compress, spec_.answers == AnswerStrategy::kFair);
  const fs::path where = spec_.dir / problem;
  write_problem_files(where.parent_path(), where.filename().string(), files);
  const PairRecord record{attempt, files.npz.size(), files.xml.size(), crc32(files.npz), crc32(files.xml)};
  journal_->append(problem, record);
  records_[index] = record;
  bytes_ += files.npz.size() + files.xml.size();
  draws_ += attempt + 1;
  ++written_;
  tick();
}

// Everything is written: rave.json lists it all and the journal goes.
void Run::finish(DatasetManifest& manifest, internal::Journal& journal) {
  std::vector<std::pair<std::string, PairRecord>> listed;
  listed.reserve(records_.size());
  for (std::size_t index = 0; index < records_.size(); ++index)
    listed.emplace_back(problem_path(spec_, configs_[index / spec_.num_samples], index % spec_.num_samples),
                        *records_[index]);
  internal::list_records(listed, manifest);
  manifest.counts = counts_of(spec_, configs_.size(), records_);
  manifest.complete = true;
  write_manifest(spec_.dir / kManifestName, manifest);
  journal.remove();
}

DatasetReport Run::execute() {
  FolderLock lock(spec_.dir, joined(spec_.command, " "));
  std::vector<fs::path> folders{spec_.dir};
  for (ConfigId id : configs_) folders.push_back(spec_.dir / configuration(id).folder);
  DatasetReport report;
  report.removed_temporary = internal::remove_temporary_files(folders);
  DatasetManifest manifest = manifest_for(spec_, configs_);
  known_ = existing_records(spec_, manifest, folders);
  internal::Journal journal(spec_.dir / internal::kJournalName, known_);  // before rave.json drops its file list
  journal_ = &journal;
  write_manifest(spec_.dir / kManifestName, manifest);
  parallel_for_index(records_.size(), spec_.threads, [&](std::size_t i) { one(i); });
  report.interrupted = interrupted_.load();
  if (!report.interrupted) finish(manifest, journal);
  for (const auto& r : records_) report.redrawn += r && r->attempt > 0;
  report.written = written_;
  report.skipped = skipped_;
  report.redone = redone_;
  report.draws = draws_;
  report.bytes = bytes_;
  return report;
}

}  // namespace

void check_dataset_spec(const DatasetSpec& spec) {
  if (spec.num_samples == 0) throw UsageError("a dataset needs a positive number of problems per configuration");
  if (spec.val < 0 || spec.test < 0 || spec.val + spec.test > 10)
    throw UsageError("the val and test splits are tenths of the problems: each >= 0, together <= 10");
  if (spec.threads < 1) throw UsageError("a dataset is written by at least one worker thread");
  if (spec.dir.empty()) throw UsageError("the dataset folder must not be empty");
  for (std::size_t i = 0; i < spec.configs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (spec.configs[i] == spec.configs[j])
        throw UsageError("the configuration " + std::string(configuration(spec.configs[i]).folder) + " is named twice");
  std::uint64_t total = 0;
  const std::uint64_t configs = spec.configs.empty() ? kNumConfigs : spec.configs.size();
  if (__builtin_mul_overflow(spec.num_samples, configs, &total) || total > kMaxDatasetProblems)
    throw UsageError(std::to_string(spec.num_samples) + " problems for each of " + std::to_string(configs) +
                     " configurations are more than the " + std::to_string(kMaxDatasetProblems) +
                     " problems one dataset may hold");
}

void prepare_dataset_dir(const DatasetSpec& spec) {
  check_dataset_spec(spec);
  make_dir(spec.dir);
  for (ConfigId id : chosen_configs(spec)) make_dir(spec.dir / configuration(id).folder);
}

DatasetReport write_dataset(const DatasetSpec& spec, const ProgressFn& progress) {
  prepare_dataset_dir(spec);
  return Run(spec, progress).execute();
}

}  // namespace rave::engine
