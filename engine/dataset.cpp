#include "engine/dataset.hpp"

#include <atomic>
#include <mutex>
#include <system_error>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/encode.hpp"
#include "engine/generate.hpp"

namespace rave::engine {
namespace {

std::vector<ConfigId> chosen_configs(const DatasetSpec& spec) {
  if (!spec.configs.empty()) return spec.configs;
  std::vector<ConfigId> all;
  for (const auto& c : all_configurations()) all.push_back(c.id);
  return all;
}

void check_spec(const DatasetSpec& spec) {
  if (spec.num_samples == 0) throw UsageError("a dataset needs a positive number of problems per configuration");
  if (spec.val < 0 || spec.test < 0 || spec.val + spec.test > 10)
    throw UsageError("the val and test splits are tenths of the problems: each >= 0, together <= 10");
  if (spec.threads < 1) throw UsageError("a dataset is written by at least one worker thread");
  if (spec.dir.empty()) throw UsageError("the dataset folder must not be empty");
}

void make_dir(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir.string(), "", "cannot create folder: " + ec.message());
  if (!std::filesystem::is_directory(dir, ec)) throw InputError(dir.string(), "", "is not a folder");
}

bool pair_exists(const std::filesystem::path& dir, const std::string& stem) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / (stem + ".npz"), ec) &&
         std::filesystem::is_regular_file(dir / (stem + ".xml"), ec);
}

}  // namespace

void prepare_dataset_dir(const DatasetSpec& spec) {
  check_spec(spec);
  make_dir(spec.dir);
  for (ConfigId id : chosen_configs(spec)) make_dir(spec.dir / configuration(id).folder);
}

DatasetReport write_dataset(const DatasetSpec& spec, const ProgressFn& progress) {
  prepare_dataset_dir(spec);
  const auto configs = chosen_configs(spec);
  const std::uint64_t total = spec.num_samples * configs.size();
  std::atomic<std::uint64_t> written{0}, skipped{0}, bytes{0}, done{0};
  std::mutex progress_mutex;
  auto one = [&](std::uint64_t index) {
    const ConfigId id = configs[index / spec.num_samples];
    const std::uint64_t k = index % spec.num_samples;
    const auto dir = spec.dir / configuration(id).folder;
    const std::string stem = problem_stem(k, split_of(k, spec.val, spec.test));
    if (spec.resume && pair_exists(dir, stem)) {
      ++skipped;
    } else {
      const ProblemFiles files =
          encode_problem_files(generate_problem(id, spec.answers, spec.seed, k), spec.compress);
      write_problem_files(dir, stem, files);
      bytes += files.npz.size() + files.xml.size();
      ++written;
    }
    const std::uint64_t now = ++done;
    if (progress) {
      std::lock_guard lock(progress_mutex);
      progress({now, total, skipped.load()});
    }
  };
  parallel_for_index(total, spec.threads, [&](std::size_t i) { one(i); });
  return {written.load(), skipped.load(), bytes.load()};
}

}  // namespace rave::engine
