#pragma once
// A benchmark folder (`rave show --vlm`, `rave probes`) built beside its destination under a
// temporary name and renamed into place whole, so an error leaves the destination as it was.
//
//   StagedFolder staged(folder_path(out));
//   write_entry(staged.path(), vlm_entry(...));     // the files of one problem
//   staged.commit();                                // out is replaced by the new folder
#include <filesystem>
#include <string_view>

#include "evaluation/export/vlm.hpp"

namespace rave::evaluation::internal {

/// `out` as a folder path with a name: "bench/" and "bench/." are "bench".
std::filesystem::path folder_path(const std::filesystem::path& out);

/// A folder beside `out` under a temporary name, removed unless committed: rename(2) then puts the
/// whole benchmark in place at once (a previous one is moved aside first and removed after).
class StagedFolder {
 public:
  explicit StagedFolder(const std::filesystem::path& out);
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;
  ~StagedFolder();
  const std::filesystem::path& path() const { return path_; }
  void commit();

 private:
  std::filesystem::path out_, path_;
  bool committed_ = false;
};

/// Whether `out` may receive a benchmark: it does not exist, is an empty folder, or is a folder
/// holding a previous benchmark's `index` file (the new one then replaces it whole).
bool replaceable_folder(const std::filesystem::path& out, std::string_view index);

/// Writes the files of one problem's entry below `folder`, making their folders.
void write_entry(const std::filesystem::path& folder, const VlmEntry& entry);

}  // namespace rave::evaluation::internal
