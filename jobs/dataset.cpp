#include "jobs/dataset.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <system_error>

#include "common/error.hpp"
#include "common/folder_lock.hpp"
#include "common/parallel.hpp"
#include "common/parameter_remedies.hpp"
#include "common/version.hpp"
#include "engine/encode.hpp"
#include "engine/formats/zip.hpp"
#include "engine/generate.hpp"
#include "engine/model/style_limits.hpp"
#include "engine/rules/variant_rules.hpp"
#include "jobs/dataset_manifest.hpp"
#include "jobs/generator_history.hpp"
#include "jobs/internal/dataset_shards.hpp"
#include "jobs/internal/dataset_state.hpp"

namespace rave::jobs {
using namespace rave::engine;  // jobs work on their values
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

// The splits a dataset holds (k mod 10 decides, docs/format.md#split-and-file-names).
std::vector<Split> splits_present(const DatasetSpec& spec) {
  std::vector<Split> out;
  for (std::uint64_t k = 0; k < std::min<std::uint64_t>(spec.num_samples, 10); ++k) {
    const Split s = split_of(k, spec.val, spec.test);
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

void check_variant_spec(const DatasetSpec& spec) {
  const Variant& v = spec.variant;
  check_variant(v);
  if (!v.drawable() && !spec.symbolic_only && spec.style.is_original())
    throw ParameterErrorWithRemedies(
        "values",
        " " + std::to_string(v.values) + " cannot be drawn in the original style: Type has " +
            std::to_string(kMaxDrawableValues) + " shapes, so images need at most " +
            std::to_string(kMaxDrawableValues) +
            " values; draw them in another style (docs/rendering.md) or write "
            "symbols only",
        {"style", "symbolic_only"});
  if (!spec.symbolic_only)
    for (ConfigId id : chosen_configs(spec))
      if (std::string why = style_defect(spec.style, v, id); !why.empty()) throw UsageError(why);
  for (ConfigId id : chosen_configs(spec))
    for (Split split : splits_present(spec))
      if (std::string why = variant_rules_defect(id, v, split); !why.empty()) throw UsageError(why);
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
  return std::string(configuration(id).folder) + "/" +
         problem_stem(k, split_of(k, spec.val, spec.test));
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
  m.variant = {
      .grid = spec.variant.grid,
      .values = spec.variant.values,
      .confounders = spec.variant.confounders,
      .regime = std::string(regime_name(spec.variant.regime)),
      .hold_out = hold_out_text(spec.variant),
      .symbolic_only = spec.symbolic_only,
      .style = spec.symbolic_only || spec.style.is_original() ? "" : style_text(spec.style)};
  m.shard = internal::shard_text(spec.shard);
  return m;
}

// The records a resumed run may trust. A manifest that differs from the run, or RAVEN files without
// any manifest, stop the run: it would mix two datasets. `manifest` takes over the command line of
// the run that started the dataset.
Records existing_records(const DatasetSpec& spec, DatasetManifest& manifest,
                         const std::vector<fs::path>& folders) {
  const internal::StateNames names = internal::state_names(spec.shard);
  const fs::path path = spec.dir / names.manifest;
  std::optional<DatasetManifest> existing = read_manifest(path);
  if (!existing && spec.shard.count > 1) existing = internal::merged_manifest(spec.dir, spec.shard);
  if (!existing) {
    if (spec.shard.count > 1 && internal::sibling_shard_agrees(spec.dir, manifest, spec.shard))
      return {};
    for (const fs::path& folder : folders)
      if (internal::holds_problem_files(folder))
        throw InputError(folder.string(), "",
                         "holds RAVEN problem files but the save dir has no " + names.manifest +
                             ": rave cannot "
                             "tell what made them; choose an empty folder");
    return {};
  }
  auto differences = manifest_differences(*existing, manifest);
  // A dataset an older rave made resumes where no later change of the generator touches it (the
  // 3 x 3 originals after a change to the exchangeable sets): the same seed gives the same bytes.
  if (generates_alike(existing->rave_version, manifest.rave_version, spec.variant, spec.answers))
    std::erase_if(differences, [](const std::string& d) { return d.starts_with("rave version:"); });
  if (!differences.empty())
    throw InputError(path.string(), "",
                     "holds another dataset (" + joined(differences, "; ") +
                         "); choose another folder, or remove this one to start afresh");
  manifest.command = existing->command;
  if (!spec.resume) return {};
  Records records = internal::records_of(*existing);
  for (auto& [problem, record] : internal::read_journal(spec.dir / names.journal))
    records[problem] = record;
  return records;
}

// Problem k drawn until spec.accept passes it (at once when there is no test).
std::pair<Problem, std::uint64_t> draw(const DatasetSpec& spec, ConfigId id, std::uint64_t k) {
  for (std::uint64_t attempt = 0; attempt < kMaxDraws; ++attempt) {
    Problem problem = dataset_problem(spec, id, k, attempt);
    if (!spec.accept || spec.accept(problem)) return {std::move(problem), attempt};
  }
  throw Error("problem " + std::to_string(k) + " of " + std::string(configuration(id).folder) +
              ": none of " + std::to_string(kMaxDraws) + " draws passed the acceptance test (" +
              spec.accept_name + ")");
}

// The counts of the problems this run (its shard) holds.
ManifestCounts counts_of(const DatasetSpec& spec,
                         const std::vector<std::optional<PairRecord>>& records) {
  ManifestCounts c;
  for (std::size_t index = 0; index < records.size(); ++index) {
    if (!spec.shard.holds(index)) continue;
    const Split s = split_of(index % spec.num_samples, spec.val, spec.test);
    ++(s == Split::kTrain ? c.train : s == Split::kVal ? c.val : c.test);
    ++c.problems;
    c.redrawn += records[index] && records[index]->attempt > 0;
  }
  return c;
}

// The problems of `shard` among `all`: local i is global problem i*N + K-1.
std::uint64_t shard_size(std::uint64_t all, const Shard& shard) {
  const auto n = static_cast<std::uint64_t>(shard.count),
             first = static_cast<std::uint64_t>(shard.index - 1);
  return all > first ? (all - first + n - 1) / n : 0;
}

// The state of one run, shared by its workers.
class Run {
 public:
  Run(const DatasetSpec& spec, const ProgressFn& progress)
      : spec_(spec),
        progress_(progress),
        configs_(chosen_configs(spec)),
        records_(spec.num_samples * configs_.size()) {}
  DatasetReport execute();

 private:
  void one(std::size_t local);
  void tick();
  void finish(DatasetManifest& manifest, internal::Journal& journal);
  std::uint64_t remove_temporary(const std::vector<fs::path>& folders) const;

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
  progress_({now, shard_size(records_.size(), spec_.shard), skipped_.load()});
}

void Run::one(std::size_t local) {
  const std::size_t index = local * static_cast<std::size_t>(spec_.shard.count) +
                            static_cast<std::size_t>(spec_.shard.index - 1);
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
  const ProblemFiles files =
      encode_problem_files(drawn, {.compress = spec_.compress,
                                   .predict_as_vector = spec_.answers == AnswerStrategy::kFair,
                                   .symbolic_only = spec_.symbolic_only});
  const fs::path where = spec_.dir / problem;
  write_problem_files(where.parent_path(), where.filename().string(), files);
  const PairRecord record{attempt, files.npz.size(), files.xml.size(), crc32(files.npz),
                          crc32(files.xml)};
  journal_->append(problem, record);
  records_[index] = record;
  bytes_ += files.npz.size() + files.xml.size();
  draws_ += attempt + 1;
  ++written_;
  tick();
}

// Everything is written: the manifest lists it all and the journal goes; the last shard to finish
// writes rave.json for them all.
void Run::finish(DatasetManifest& manifest, internal::Journal& journal) {
  std::vector<std::pair<std::string, PairRecord>> listed;
  listed.reserve(records_.size());
  for (std::size_t index = 0; index < records_.size(); ++index)
    if (spec_.shard.holds(index))
      listed.emplace_back(
          problem_path(spec_, configs_[index / spec_.num_samples], index % spec_.num_samples),
          *records_[index]);
  internal::list_records(listed, manifest);
  manifest.counts = counts_of(spec_, records_);
  manifest.complete = true;
  write_manifest(spec_.dir / internal::state_names(spec_.shard).manifest, manifest);
  journal.remove();
  if (spec_.shard.count == 1 || internal::merge_shards(spec_.dir, manifest, spec_.shard))
    internal::release_parameters(spec_.dir);
}

// Temporary files of a killed run; a shard removes only its own (the others may be writing).
std::uint64_t Run::remove_temporary(const std::vector<fs::path>& folders) const {
  if (spec_.shard.count == 1) return internal::remove_temporary_files(folders);
  std::uint64_t removed = 0;
  for (std::size_t position = 0; position < configs_.size(); ++position)
    removed +=
        internal::remove_temporary_files({folders[position + 1]}, [&](std::string_view name) {
          return internal::temporary_of_shard(name, position, spec_.num_samples, spec_.shard);
        });
  const internal::StateNames names = internal::state_names(spec_.shard);
  return removed + internal::remove_temporary_files({spec_.dir}, [&](std::string_view name) {
           return name.starts_with("." + names.manifest + ".") ||
                  name.starts_with("." + names.journal + ".");
         });
}

DatasetReport Run::execute() {
  // The shards of a dataset share the folder's lock and each holds its own; a whole-dataset writer
  // holds the folder's alone. So the two kinds never write at once.
  const internal::StateNames names = internal::state_names(spec_.shard);
  const std::string command = joined(spec_.command, " ");
  const bool sharded = spec_.shard.count > 1;
  FolderLock folder_lock(spec_.dir, command, FolderLock::kFileName,
                         sharded ? FolderLock::Mode::kShared : FolderLock::Mode::kExclusive);
  std::optional<FolderLock> shard_lock;
  if (sharded) shard_lock.emplace(spec_.dir, command, names.lock);
  std::vector<fs::path> folders{spec_.dir};
  for (ConfigId id : configs_) folders.push_back(spec_.dir / configuration(id).folder);
  DatasetReport report;
  report.removed_temporary = remove_temporary(folders);
  DatasetManifest manifest = manifest_for(spec_, configs_);
  internal::check_parameters(spec_.dir, manifest);
  known_ = existing_records(spec_, manifest, folders);
  internal::claim_parameters(spec_.dir, manifest);
  internal::Journal journal(spec_.dir / names.journal,
                            known_);  // before rave.json drops its file list
  journal_ = &journal;
  write_manifest(spec_.dir / names.manifest, manifest);
  parallel_for_index(shard_size(records_.size(), spec_.shard), spec_.threads,
                     [&](std::size_t i) { one(i); });
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
  if (spec.num_samples == 0)
    throw UsageError("a dataset needs a positive number of problems per configuration");
  if (spec.val < 0 || spec.test < 0 || spec.val + spec.test > 10)
    throw UsageError(
        "the val and test splits are tenths of the problems: each >= 0, together <= 10");
  if (spec.threads < 1) throw UsageError("a dataset is written by at least one worker thread");
  if (spec.dir.empty()) throw UsageError("the dataset folder must not be empty");
  for (std::size_t i = 0; i < spec.configs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (spec.configs[i] == spec.configs[j])
        throw UsageError("the configuration " + std::string(configuration(spec.configs[i]).folder) +
                         " is named twice");
  std::uint64_t total = 0;
  const std::uint64_t configs = spec.configs.empty() ? kNumConfigs : spec.configs.size();
  if (__builtin_mul_overflow(spec.num_samples, configs, &total) || total > kMaxDatasetProblems)
    throw UsageError(std::to_string(spec.num_samples) + " problems for each of " +
                     std::to_string(configs) + " configurations are more than the " +
                     std::to_string(kMaxDatasetProblems) + " problems one dataset may hold");
  if (spec.shard.count < 1 || spec.shard.index < 1 || spec.shard.index > spec.shard.count)
    throw ParameterError("shard", " K/N takes 1 <= K <= N");
  check_variant_spec(spec);
}

void prepare_dataset_dir(const DatasetSpec& spec) {
  check_dataset_spec(spec);
  make_dir(spec.dir);
  for (ConfigId id : chosen_configs(spec)) make_dir(spec.dir / configuration(id).folder);
}

Problem dataset_problem(const DatasetSpec& spec, ConfigId id, std::uint64_t k,
                        std::uint64_t attempt) {
  Problem problem = generate_problem(id, spec.answers, spec.seed, k, spec.variant,
                                     split_of(k, spec.val, spec.test), attempt);
  if (!spec.symbolic_only) problem.style = spec.style;
  return problem;
}

Problem checked_dataset_problem(const DatasetSpec& spec, ConfigId id, std::uint64_t k,
                                std::uint64_t attempt) {
  const Split split = split_of(k, spec.val, spec.test);
  check_variant(spec.variant);
  if (std::string why = variant_rules_defect(id, spec.variant, split); !why.empty())
    throw UsageError(why);
  return dataset_problem(spec, id, k, attempt);
}

DatasetReport write_dataset(const DatasetSpec& spec, const ProgressFn& progress) {
  prepare_dataset_dir(spec);
  return Run(spec, progress).execute();
}

}  // namespace rave::jobs
