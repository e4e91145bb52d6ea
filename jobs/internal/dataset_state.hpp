#pragma once
// What a dataset folder already holds, for jobs/dataset.cpp: the records of finished problems
// (from rave.json and from the journal a run appends to as it goes), checking a pair of files
// against its record, and the temporary files a killed run left behind.
//
//   Journal journal(dir / kJournalName);               // appends, one line per finished problem
//   journal.append("center_single/RAVEN_0_train", record);
//   auto known = read_journal(dir / kJournalName);      // problem path -> record
//   if (pair_matches(dir, "center_single/RAVEN_0_train", known.at(...))) ...   // sizes and CRC-32s
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/dataset_manifest.hpp"

namespace rave::jobs::internal {

/// The journal's file name at the dataset root (removed when a run completes).
inline constexpr const char* kJournalName = ".rave-journal";
/// The dataset's parameters, recorded by the first writer of a folder (any kind) and kept until the
/// dataset is complete (then rave.json, complete, says them).
inline constexpr const char* kParametersName = ".rave-parameters.json";

/// Records `manifest`'s parameters as the folder's (created at once, so that of writers started
/// together exactly one does it), or checks them against the record there: InputError naming every
/// parameter that differs. Every writer calls it before it writes a problem, so one folder never
/// holds problems made with two sets of parameters.
void claim_parameters(const std::filesystem::path& dir, const DatasetManifest& manifest);
/// The check alone, when there is a record (a run checks first, so that the differing parameter is
/// named before anything else is said of the folder, and claims once the folder is found fit).
void check_parameters(const std::filesystem::path& dir, const DatasetManifest& manifest);
/// Removes the record: the complete rave.json, written before, speaks for the dataset now.
void release_parameters(const std::filesystem::path& dir);

/// One finished problem: its two files and the draw kept.
struct PairRecord {
  std::uint64_t attempt =
      0;  ///< 0: the first draw; > 0: redrawn (an acceptance test refused the others)
  std::uint64_t npz_size = 0, xml_size = 0;
  std::uint32_t npz_crc = 0, xml_crc = 0;
  friend bool operator==(const PairRecord&, const PairRecord&) = default;
};

/// "center_single/RAVEN_0_train 0 412402 1a2b3c4d 51697 5e6f7a8b\n".
std::string journal_line(const std::string& problem, const PairRecord& record);
/// The records of a journal (a later line for a problem wins); lines that do not parse, such as one
/// cut short by a kill, are skipped. Empty when there is no file.
std::map<std::string, PairRecord> read_journal(const std::filesystem::path& path);
/// The records listed in a manifest's files and redraws (problems with both files listed).
std::map<std::string, PairRecord> records_of(const DatasetManifest& manifest);
/// The manifest's files and redraws for records in generation order.
void list_records(const std::vector<std::pair<std::string, PairRecord>>& records,
                  DatasetManifest& manifest);

/// Appends journal lines from any thread, one write per line.
class Journal {
 public:
  /// Starts `path` afresh with `records` (written atomically), then opens it for appending.
  Journal(const std::filesystem::path& path, const std::map<std::string, PairRecord>& records);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;
  void append(const std::string& problem, const PairRecord& record);
  /// Closes and removes the journal (the run is complete and rave.json lists everything).
  void remove();

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::mutex mutex_;
};

/// Whether `<root>/<problem>.npz` and `.xml` exist with the record's sizes and CRC-32s.
bool pair_matches(const std::filesystem::path& root, const std::string& problem,
                  const PairRecord& record);
/// Whether `<root>/<problem>.npz` or `.xml` exists.
bool pair_partly_exists(const std::filesystem::path& root, const std::string& problem);
/// Removes write_file_atomic's temporary files (left by a killed run) from `folders`, those whose
/// name `ours` accepts when it is given; returns how many.
std::uint64_t remove_temporary_files(const std::vector<std::filesystem::path>& folders,
                                     const std::function<bool(std::string_view name)>& ours = {});
/// Whether `folder` holds a RAVEN problem file (RAVEN_<k>[_<split>].npz or .xml).
bool holds_problem_files(const std::filesystem::path& folder);

}  // namespace rave::jobs::internal
