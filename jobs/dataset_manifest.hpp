#pragma once
// The manifest of a generated dataset, `rave.json` at its root (docs/dataset.md): what made it
// (rave version, command line, seed, answer strategy, configurations, splits, compression,
// acceptance test), its counts, and every file with its size and CRC-32. `rave generate` writes it
// before the first problem (complete: false) and again, with the files, when the run ends; --resume
// refuses to continue a folder whose manifest differs from the run and verifies each pair against
// it. Python reads it with json.load and checks a file with zlib.crc32.
//
// Fields are read and written by name (nlohmann-json); a reader ignores fields it does not know, so
// a new field is a member here, a line in to_json and from_json (dataset_manifest.cpp) and, when a
// resumed run must agree on it, a line in manifest_differences.
//
//   DatasetManifest m{.seed = 7, .answers = "raven", .configurations = {"center_single"},
//                     .num_samples = 10};
//   write_manifest(dir / kManifestName, m);
//   std::optional<DatasetManifest> old = read_manifest(dir / kManifestName);  // nullopt: no file
//   for (const std::string& d : manifest_differences(*old, m)) ...  // "seed: 7 in rave.json, 8 ..."
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rave::jobs {

/// The manifest's file name at the dataset root.
inline constexpr const char* kManifestName = "rave.json";

/// One file of the dataset.
struct ManifestFile {
  std::string
      path{};  ///< relative to the dataset root, '/'-separated: "center_single/RAVEN_0_train.npz"
  std::uint64_t size = 0;   ///< bytes
  std::uint32_t crc32 = 0;  ///< zlib.crc32 of the whole file (written as 8 hex digits)
  friend bool operator==(const ManifestFile&, const ManifestFile&) = default;
};

/// Counts of a dataset.
struct ManifestCounts {
  std::uint64_t problems = 0, train = 0, val = 0, test = 0;
  std::uint64_t redrawn = 0;  ///< problems drawn more than once (an acceptance test refused a draw)
  friend bool operator==(const ManifestCounts&, const ManifestCounts&) = default;
};

/// The variant of the problems (docs/variants.md); the defaults are the original generator's.
struct ManifestVariant {
  int grid = 3;         ///< N of an N x N matrix
  int values = 0;       ///< levels of Type, Size and Color; 0: the original tables
  int confounders = 0;  ///< random attributes per entity
  std::string regime = "neutral";
  std::string hold_out{};      ///< --hold-out as given ("" when none)
  bool symbolic_only = false;  ///< npz without images, XML without masks
  /// The render style's text (engine/model/style.hpp); "" for the original (absent from the file)
  std::string style{};
  friend bool operator==(const ManifestVariant&, const ManifestVariant&) = default;
};

/// Everything rave.json holds.
struct DatasetManifest {
  int manifest_version = 1;
  std::string rave_version{};
  std::vector<std::string>
      command{};  ///< the command that makes the dataset (no folder, -j or --resume)
  std::uint64_t seed = 0;
  std::string answers{};                      ///< raven | iraven | fair
  std::vector<std::string> configurations{};  ///< folder names, in the order generated
  std::uint64_t num_samples = 0;              ///< problems per configuration
  int val = 0, test = 0;  ///< tenths of each configuration's problems (k mod 10)
  bool compress = false;
  std::string
      accept{};  ///< the acceptance test problems were redrawn until they passed ("unique"), or ""
  ManifestVariant variant{};
  std::string
      shard{};  ///< "K/N": the manifest of shard K of N (rave.shard-K-of-N.json); "" for the whole
  bool complete = false;  ///< every problem written and listed in files
  ManifestCounts counts{};
  std::vector<ManifestFile> files{};  ///< npz and xml of every problem, in generation order
  std::map<std::string, std::uint64_t>
      redraws{};  ///< problem path without extension -> the attempt kept (> 0)
  friend bool operator==(const DatasetManifest&, const DatasetManifest&) = default;
};

/// The JSON text of a manifest (two-space indent, fields in a fixed order, a final newline).
std::string manifest_json(const DatasetManifest& manifest);
/// Parses manifest JSON; InputError naming `file` when it is not one.
DatasetManifest parse_manifest(const std::string& text, const std::string& file);
/// Writes a manifest atomically.
void write_manifest(const std::filesystem::path& path, const DatasetManifest& manifest);
/// Reads a manifest; nullopt when there is no file at `path`.
std::optional<DatasetManifest> read_manifest(const std::filesystem::path& path);
/// The parameters on which `existing` (read from the file `source` of a folder) and `wanted` (this
/// run) differ, one phrase each ("seed: 7 in rave.json, 8 in this run"); empty when a run may
/// continue the dataset. Compared: rave version, seed, answers, configurations, num_samples, val,
/// test, compress, accept, the variant's fields and the shard.
std::vector<std::string> manifest_differences(const DatasetManifest& existing,
                                              const DatasetManifest& wanted,
                                              const std::string& source = kManifestName);
/// The files `manifest` lists that are missing under `root` or differ in size or CRC-32, one phrase
/// each ("center_single/RAVEN_3_train.npz: 412402 bytes listed, 1200 found"), in listing order,
/// read on `threads` workers. Without `crc` the files are not read: only their presence, kind and
/// size are checked (a caller that reads every file anyway compares the CRC-32 itself).
std::vector<std::string> manifest_mismatches(const std::filesystem::path& root,
                                             const DatasetManifest& manifest, int threads = 1,
                                             bool crc = true);

/// What a dataset is, independent of where it lies: the command that makes it and a 64-bit FNV-1a
/// hash of its files' paths, sizes and CRC-32s as rave.json lists them ("rave generate -n 10000
/// --answers raven --seed 1234 --compress; 140000 files, fnv1a64 5c1e..."). Equal on any machine
/// that regenerates the dataset from its seed, so a training run can move with it. nullopt where
/// `root` has no rave.json, or one that is not complete (a dataset still being written).
std::optional<std::string> dataset_identity(const std::filesystem::path& root);

}  // namespace rave::jobs
