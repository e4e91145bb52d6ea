#pragma once
// One writer per folder: an exclusive lock (flock) on `<folder>/.rave.lock`, held for the life of a
// FolderLock. A second process that asks for the same folder gets an InputError naming the holder
// (pid, host and command, which the holder writes into the lock file). The kernel drops the lock
// when its holder dies, even by SIGKILL, so a stale lock file never blocks anyone. A shared lock
// lets writers that coordinate among themselves (the shards of one dataset) in together while it
// keeps an exclusive holder out, and the other way round.
//
//   FolderLock lock(dataset_dir, "rave generate -n 100 -o out");   // throws if another holds it
//   ... write into dataset_dir ...
//   // ~FolderLock removes the lock file and releases the lock
#include <filesystem>
#include <string>

namespace rave {

class FolderLock {
 public:
  /// The name of the lock file inside the folder.
  static constexpr const char* kFileName = ".rave.lock";
  enum class Mode { kExclusive, kShared };

  /// Takes the lock of `folder` (which must exist) for `command` (recorded for whoever asks next).
  /// Throws InputError naming the holder when another process has it (exclusively, or at all when
  /// `mode` is exclusive). `name` is the lock file's (another name: a separate lock, e.g. one per
  /// dataset shard).
  FolderLock(const std::filesystem::path& folder, const std::string& command,
             const std::string& name = kFileName, Mode mode = Mode::kExclusive);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  Mode mode_ = Mode::kExclusive;
};

}  // namespace rave
