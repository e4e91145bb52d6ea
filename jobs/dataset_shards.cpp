#include "jobs/internal/dataset_shards.hpp"

#include <optional>
#include <system_error>
#include <vector>

#include "common/folder_lock.hpp"
#include "engine/formats/layout.hpp"
#include "jobs/internal/dataset_state.hpp"

namespace rave::jobs::internal {
using namespace rave::engine;  // jobs work on their values
namespace fs = std::filesystem;
namespace {

std::string suffix(const Shard& shard) {
  return "shard-" + std::to_string(shard.index) + "-of-" + std::to_string(shard.count);
}

// k of a temporary problem file ".RAVEN_<k>_<split>.npz.tmp.<pid>.<n>", or nullopt.
std::optional<std::uint64_t> problem_number(std::string_view name) {
  if (!name.starts_with('.')) return std::nullopt;
  const ProblemName parsed = parse_problem_stem(name.substr(1, name.find('.', 1) - 1));
  return parsed.prefix == "RAVEN" ? parsed.k : std::nullopt;
}

// The manifests of all shards of `count` in `dir`, in shard order; nullopt when one is missing.
std::optional<std::vector<DatasetManifest>> shard_manifests(const fs::path& dir, int count) {
  std::vector<DatasetManifest> out;
  for (int index = 1; index <= count; ++index) {
    std::optional<DatasetManifest> m =
        read_manifest(dir / state_names(Shard{index, count}).manifest);
    if (!m) return std::nullopt;
    out.push_back(std::move(*m));
  }
  return out;
}

// `other` is a manifest of the same dataset as `mine`, from another shard of it.
bool same_dataset(const DatasetManifest& mine, DatasetManifest other) {
  other.shard = mine.shard;
  return manifest_differences(other, mine).empty() && other.command == mine.command;
}

void add_counts(ManifestCounts& to, const ManifestCounts& from) {
  to.problems += from.problems;
  to.train += from.train;
  to.val += from.val;
  to.test += from.test;
  to.redrawn += from.redrawn;
}

// The union: shard K's j-th problem is global problem j*N + K-1, two files each.
DatasetManifest union_of(const std::vector<DatasetManifest>& shards) {
  DatasetManifest whole = shards.front();
  whole.shard.clear();
  whole.counts = {};
  whole.files.clear();
  whole.redraws.clear();
  std::size_t total = 0;
  for (const DatasetManifest& m : shards) {
    add_counts(whole.counts, m.counts);
    whole.redraws.insert(m.redraws.begin(), m.redraws.end());
    total += m.files.size();
  }
  whole.files.reserve(total);
  for (std::size_t j = 0; whole.files.size() < total; ++j)
    for (const DatasetManifest& m : shards)
      if (2 * j + 1 < m.files.size())
        whole.files.insert(whole.files.end(), m.files.begin() + 2 * j, m.files.begin() + 2 * j + 2);
  return whole;
}

}  // namespace

StateNames state_names(const Shard& shard) {
  if (shard.count == 1) return {kManifestName, kJournalName, FolderLock::kFileName};
  const std::string s = suffix(shard);
  return {"rave." + s + ".json", std::string(kJournalName) + "." + s, ".rave." + s + ".lock"};
}

std::string shard_text(const Shard& shard) {
  return shard.count == 1 ? "" : std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

bool temporary_of_shard(std::string_view name, std::uint64_t position, std::uint64_t num_samples,
                        const Shard& shard) {
  const std::optional<std::uint64_t> k = problem_number(name);
  return k && *k < num_samples && shard.holds(position * num_samples + *k);
}

bool sibling_shard_agrees(const fs::path& dir, const DatasetManifest& manifest,
                          const Shard& shard) {
  for (int index = 1; index <= shard.count; ++index) {
    if (index == shard.index) continue;
    const std::optional<DatasetManifest> other =
        read_manifest(dir / state_names(Shard{index, shard.count}).manifest);
    if (other && same_dataset(manifest, *other)) return true;
  }
  return false;
}

std::optional<DatasetManifest> merged_manifest(const fs::path& dir, const Shard& shard) {
  std::optional<DatasetManifest> whole = read_manifest(dir / kManifestName);
  if (whole) whole->shard = shard_text(shard);
  return whole;
}

bool merge_shards(const fs::path& dir, const DatasetManifest& mine, const Shard& shard) {
  const std::optional<std::vector<DatasetManifest>> all = shard_manifests(dir, shard.count);
  if (!all) return false;
  for (const DatasetManifest& m : *all)
    if (!m.complete || !same_dataset(mine, m)) return false;
  write_manifest(dir / kManifestName, union_of(*all));
  std::error_code ec;  // rave.json now says it all: the folder is the one a single machine makes
  for (int index = 1; index <= shard.count; ++index)
    fs::remove(dir / state_names(Shard{index, shard.count}).manifest, ec);
  return true;
}

}  // namespace rave::jobs::internal
