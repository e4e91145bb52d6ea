#pragma once
// Shards of a dataset (`rave generate --shard K/N`, docs/variants.md), for jobs/dataset.cpp.
// Shard K of N keeps its own state beside the others in the one dataset folder: manifest
// `rave.shard-K-of-N.json`, journal `.rave-journal.shard-K-of-N` and lock
// `.rave.shard-K-of-N.lock`, so N machines may write into a shared folder at once. When a shard
// finishes and every shard's manifest is complete and agrees with it, it writes `rave.json`: their
// union, the manifest a one-machine run writes (the shards' command lines carry no --shard), and
// removes the shards' manifests; a shard run later (--resume) reads its records from rave.json.
//
//   const StateNames names = state_names(Shard{2, 3});  // names.manifest: rave.shard-2-of-3.json
//   if (merge_shards(dir, manifest, Shard{2, 3})) ...   // rave.json written
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "jobs/dataset.hpp"
#include "jobs/dataset_manifest.hpp"

namespace rave::jobs::internal {

/// The state files of a run: rave.json, .rave-journal and .rave.lock for a whole dataset.
struct StateNames {
  std::string manifest, journal, lock;
};
StateNames state_names(const Shard& shard);
/// "2/3" for a shard, "" for the whole dataset (count 1).
std::string shard_text(const Shard& shard);

/// Whether the temporary file `name` (of write_file_atomic) in the folder of the configuration at
/// `position` belongs to a problem of `shard`, whose configurations hold `num_samples` each.
bool temporary_of_shard(std::string_view name, std::uint64_t position, std::uint64_t num_samples,
                        const Shard& shard);
/// Whether another shard of the same count left a manifest in `dir` that agrees with `manifest`
/// (then the problem files in the folder are theirs, not a foreign dataset's).
bool sibling_shard_agrees(const std::filesystem::path& dir, const DatasetManifest& manifest,
                          const Shard& shard);
/// rave.json of a dataset whose shards have been merged, as the manifest of `shard` (its records
/// are every problem's; the shard checks its own); nullopt when there is none.
std::optional<DatasetManifest> merged_manifest(const std::filesystem::path& dir,
                                               const Shard& shard);
/// When every shard of `shard.count` has a complete manifest in `dir` that agrees with `mine`,
/// writes rave.json with all their files in generation order and returns true.
bool merge_shards(const std::filesystem::path& dir, const DatasetManifest& mine,
                  const Shard& shard);

}  // namespace rave::jobs::internal
