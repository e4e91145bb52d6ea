#pragma once
// `rave check`'s gate on a dataset folder as a whole (docs/dataset.md#checking-a-dataset):
// rave.json against itself (its fields against one another, every path inside the dataset's own
// layout, one entry per file, every problem listed, the counts those entries give), against the
// folder (every listed file there with its size and CRC-32, every other file and folder reported).
// The generator's replay of every problem is jobs/dataset_replay.hpp's, in the same pass as the
// problems' own checks (jobs/problem_check.hpp). A path that leaves the layout is never opened.
//
//   FolderAudit a = audit_folder("out/raven", *read_manifest("out/raven/rave.json"));
//   for (const std::string& d : a.defects) puts(d.c_str());    // "seed ...", "... missing"
//   for (const std::string& u : a.unlisted) puts(u.c_str());   // "notes.txt"
#include <filesystem>
#include <string>
#include <vector>

#include "jobs/dataset_manifest.hpp"

namespace rave::jobs {

/// What the gate found.
struct FolderAudit {
  std::vector<std::string> defects;   ///< one phrase each, naming the field or file
  std::vector<std::string> unlisted;  ///< files and folders under the root rave.json leaves out
  std::size_t listed = 0;             ///< files listed
};

/// Audits the folder `root` against its manifest `manifest` (read from root/rave.json), reading the
/// files on `threads` workers. Without `crc` the files are not read (their CRC-32s are the
/// caller's to compare: `rave check` does it in its one pass over the problems).
FolderAudit audit_folder(const std::filesystem::path& root, const DatasetManifest& manifest,
                         int threads = 1, bool crc = true);

}  // namespace rave::jobs
