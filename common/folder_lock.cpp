#include "common/folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.hpp"
#include "common/text.hpp"

namespace rave {
namespace {

// What the holder wrote into the lock file. It writes just after it takes the lock, so an empty
// file is read again for up to 200 ms before the holder is reported unnamed.
std::string holder_of(int fd) {
  char buffer[1024];
  std::string text;
  for (int tries = 0; tries < 40 && text.empty(); ++tries) {
    if (tries > 0) ::usleep(5000);
    const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
    text.assign(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  }
  return text.empty() ? "a process that has not said who it is yet" : printable(text);
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown host";
  return name;
}

// Whether `fd` is still the file at `path` (a holder that finished removes the file it locked; a
// lock on the removed file would lock nothing).
bool still_linked(int fd, const std::filesystem::path& path) {
  struct stat open_file {
  }, named{};
  return ::fstat(fd, &open_file) == 0 && ::stat(path.c_str(), &named) == 0 &&
         open_file.st_ino == named.st_ino && open_file.st_dev == named.st_dev;
}

}  // namespace

FolderLock::FolderLock(const std::filesystem::path& folder, const std::string& command,
                       const std::string& name, Mode mode)
    : path_(folder / name), mode_(mode) {
  const int operation = (mode == Mode::kShared ? LOCK_SH : LOCK_EX) | LOCK_NB;
  for (int refused = 0;;) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw InputError(folder.string(), "",
                       std::string("cannot create the lock file: ") + std::strerror(errno));
    if (::flock(fd_, operation) != 0) {
      const int err = errno;
      // The last shared holder takes the lock exclusively for a moment to remove the file: a
      // refusal from a file that goes away is tried again on the new one.
      const bool leaving = err == EWOULDBLOCK && !still_linked(fd_, path_);
      const std::string holder = err == EWOULDBLOCK && !leaving ? holder_of(fd_) : std::string();
      ::close(fd_);
      fd_ = -1;
      if (leaving) continue;
      if (err == EWOULDBLOCK && ++refused < 3) {  // a last holder between its lock and unlink
        ::usleep(20000);
        continue;
      }
      if (err != EWOULDBLOCK)
        throw InputError(folder.string(), "", std::string("cannot lock: ") + std::strerror(err));
      throw InputError(folder.string(), "",
                       "in use by another writer (" + holder +
                           "); wait for it to finish or stop it, or choose another folder");
    }
    if (still_linked(fd_, path_)) break;
    ::close(fd_);  // locked a file its holder removed on the way out: take the new one
  }
  const std::string who =
      "pid " + std::to_string(::getpid()) + " on " + host_name() + ": " + command + "\n";
  if (::ftruncate(fd_, 0) != 0 ||
      ::pwrite(fd_, who.data(), who.size(), 0) != static_cast<ssize_t>(who.size())) {
    // The lock holds without the note; the next writer is told less about us.
  }
}

FolderLock::~FolderLock() {
  if (fd_ < 0) return;
  // Removed while still locked (a waiting process notices, still_linked, and retries); a shared
  // holder removes it only when it is the last (it can take the lock exclusively).
  if (mode_ == Mode::kExclusive || ::flock(fd_, LOCK_EX | LOCK_NB) == 0) ::unlink(path_.c_str());
  ::close(fd_);
}

}  // namespace rave
