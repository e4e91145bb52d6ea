#include "engine/dataset.hpp"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <mutex>
#include <system_error>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/generate.hpp"
#include "engine/npz.hpp"
#include "engine/render.hpp"
#include "engine/xml_io.hpp"

namespace rave::engine {
namespace {

std::vector<ConfigId> chosen_configs(const DatasetSpec& spec) {
  if (!spec.configs.empty()) return spec.configs;
  std::vector<ConfigId> all;
  for (const auto& c : all_configurations()) all.push_back(c.id);
  return all;
}

void check_spec(const DatasetSpec& spec) {
  if (spec.num_samples == 0) throw UsageError("--num-samples must be a positive number of problems");
  if (spec.val < 0 || spec.test < 0 || spec.val + spec.test > 10)
    throw UsageError("--val and --test are tenths of the problems: each >= 0 and val + test <= 10");
  if (spec.threads < 1) throw UsageError("-j must be at least 1");
  if (spec.dir.empty()) throw UsageError("--save-dir must not be empty");
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

std::string_view split_name(Split split) {
  switch (split) {
    case Split::kTrain: return "train";
    case Split::kVal: return "val";
    case Split::kTest: return "test";
  }
  return "train";
}

Split split_of(std::uint64_t k, int val, int test) {
  const auto digit = static_cast<int>(k % 10);
  if (digit < 10 - val - test) return Split::kTrain;
  if (digit < 10 - test) return Split::kVal;
  return Split::kTest;
}

std::string problem_stem(std::uint64_t k, Split split) {
  return "RAVEN_" + std::to_string(k) + "_" + std::string(split_name(split));
}

void prepare_dataset_dir(const DatasetSpec& spec) {
  check_spec(spec);
  make_dir(spec.dir);
  for (ConfigId id : chosen_configs(spec)) make_dir(spec.dir / configuration(id).folder);
}

ProblemFiles encode_problem_files(const Problem& problem, bool compress) {
  const std::array<Image, 16> images = render_problem(problem);
  return {encode_problem_npz(problem, images, compress), write_problem_xml(problem)};
}

void write_problem_files(const std::filesystem::path& dir, const std::string& stem, const ProblemFiles& files) {
  const auto npz = dir / (stem + ".npz");
  write_file_atomic(npz, std::span<const char>(files.npz.data(), files.npz.size()));
  try {
    write_file_atomic(dir / (stem + ".xml"), files.xml);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(npz, ec);  // a problem is its two files: keep neither on failure
    throw;
  }
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
  tbb::task_arena arena(spec.threads);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, total, 1), [&](const auto& range) {
      for (auto i = range.begin(); i != range.end(); ++i) one(i);
    });
  });
  return {written.load(), skipped.load(), bytes.load()};
}

}  // namespace rave::engine
