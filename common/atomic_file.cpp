#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <utility>

#include "common/atomic_writer.hpp"
#include "common/error.hpp"

namespace rave {
namespace {

std::filesystem::path temp_path_for(const std::filesystem::path& path) {
  static std::atomic<unsigned> counter{0};
  std::string name(
      ".");  // appends, not `"." + std::string`: g++ 12 warns falsely (-Wrestrict) on that
  name.append(path.filename().string()).append(".tmp.").append(std::to_string(::getpid()));
  name.append(".").append(std::to_string(counter.fetch_add(1)));
  return path.parent_path() / name;
}

[[noreturn]] void fail_read(const std::filesystem::path& path, const std::string& what) {
  throw InputError(path.string(), "", what);
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what, int err) {
  throw InputError(path.string(), "", what + ": " + std::strerror(err));
}

// `bytes` in a temporary file beside `path`, whose name it returns.
std::filesystem::path write_temporary(const std::filesystem::path& path,
                                      std::span<const char> bytes) {
  auto temp = temp_path_for(path);
  std::FILE* out = std::fopen(temp.c_str(), "wb");
  if (out == nullptr) fail(path, "cannot create file", errno);
  const bool wrote = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  const int write_err = errno;
  const bool closed = std::fclose(out) == 0;
  const int close_err = errno;
  if (!wrote || !closed) {
    std::remove(temp.c_str());
    fail(path, "cannot write file", wrote ? close_err : write_err);
  }
  return temp;
}

}  // namespace

bool create_file_exclusive(const std::filesystem::path& path, std::string_view text) {
  const auto temp = write_temporary(path, std::span<const char>(text.data(), text.size()));
  const bool linked = ::link(temp.c_str(), path.c_str()) == 0;
  const int err = errno;
  std::remove(temp.c_str());
  if (!linked && err != EEXIST) fail(path, "cannot create file", err);
  return linked;
}

void write_file_atomic(const std::filesystem::path& path, std::span<const char> bytes) {
  const auto temp = write_temporary(path, bytes);
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(temp.c_str());
    fail(path, "cannot rename temporary file into place", err);
  }
}

AtomicFileWriter::AtomicFileWriter(std::filesystem::path path)
    : path_(std::move(path)), temp_(temp_path_for(path_)) {
  out_ = std::fopen(temp_.c_str(), "wb");
  if (out_ == nullptr) fail(path_, "cannot create file", errno);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (out_ == nullptr) return;
  std::fclose(out_);
  std::remove(temp_.c_str());
}

void AtomicFileWriter::write(std::string_view bytes) {
  RAVE_CHECK(out_ != nullptr, "write after commit");
  if (std::fwrite(bytes.data(), 1, bytes.size(), out_) != bytes.size())
    fail(path_, "cannot write file", errno);
}

void AtomicFileWriter::commit() {
  RAVE_CHECK(out_ != nullptr, "commit twice");
  const bool closed = std::fclose(out_) == 0;
  const int err = errno;
  out_ = nullptr;
  if (!closed || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int rename_err = errno;
    std::remove(temp_.c_str());
    fail(path_, closed ? "cannot rename temporary file into place" : "cannot write file",
         closed ? rename_err : err);
  }
}

bool is_temporary_name(std::string_view name) {
  const std::size_t tmp = name.rfind(".tmp.");
  if (name.size() < 2 || name[0] != '.' || tmp == std::string_view::npos || tmp == 0) return false;
  const std::string_view tail = name.substr(tmp + 5);  // <pid>.<n>
  const std::size_t dot = tail.find('.');
  const auto digits = [](std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  return dot != std::string_view::npos && digits(tail.substr(0, dot)) &&
         digits(tail.substr(dot + 1));
}

void write_file_atomic(const std::filesystem::path& path, std::string_view text) {
  write_file_atomic(path, std::span<const char>(text.data(), text.size()));
}

void write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  write_file_atomic(path, std::span<const char>(text.data(), text.size()));
}

namespace {

struct OpenFile {
  int fd = -1;
  std::uint64_t size = 0;
};

// Opens `path` for reading; returns the descriptor and the size. Throws InputError for a file that
// cannot be opened, is not a regular file (a folder, a device such as /dev/zero, a FIFO, a socket)
// or is larger than `max_bytes`; with `absent_ok`, a path that names nothing or no regular file
// gives nullopt instead (one open and fstat, no stat before them). O_NONBLOCK: opening a FIFO must
// not wait for a writer.
std::optional<OpenFile> open_for_read(const std::filesystem::path& path, std::size_t max_bytes,
                                      bool absent_ok = false) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && absent_ok && (errno == ENOENT || errno == ENOTDIR)) return std::nullopt;
  if (fd < 0) fail_read(path, std::string("cannot open file: ") + std::strerror(errno));
  struct stat info {};
  std::string failure;
  if (::fstat(fd, &info) != 0)
    failure = "read failed";
  else if (absent_ok && !S_ISREG(info.st_mode)) {
    ::close(fd);
    return std::nullopt;
  } else if (S_ISDIR(info.st_mode))
    failure = "is a directory";
  else if (!S_ISREG(info.st_mode))
    failure = "is not a regular file (a device, FIFO or socket); rave reads only regular files";
  else if (static_cast<std::uint64_t>(info.st_size) > max_bytes)
    failure = "is " + std::to_string(info.st_size) + " bytes, more than the " +
              std::to_string(max_bytes) + " this reader accepts";
  if (!failure.empty()) {
    ::close(fd);
    fail_read(path, failure);
  }
  return OpenFile{fd, info.st_size > 0 ? static_cast<std::uint64_t>(info.st_size) : 0};
}

// The last `max_bytes` of an open file into `tail`; closes it.
void read_tail(const std::filesystem::path& path, const OpenFile& file, std::size_t max_bytes,
               std::string& tail) {
  const std::uint64_t start = file.size > max_bytes ? file.size - max_bytes : 0;
  tail.resize(static_cast<std::size_t>(file.size - start));
  std::size_t done = 0;
  while (done < tail.size()) {
    const ssize_t n =
        ::pread(file.fd, tail.data() + done, tail.size() - done, static_cast<off_t>(start + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(file.fd);
  if (done != tail.size()) fail_read(path, "read failed");
}

}  // namespace

// One open, fstat (size, and what kind of file it is), read loop, close: no stream buffering and
// no repeated growth of the string.
void read_file_into(const std::filesystem::path& path, std::string& text, std::size_t max_bytes) {
  const auto [fd, file_size] = *open_for_read(path, max_bytes);
  std::string failure;
  std::size_t size = 0;
  text.resize(static_cast<std::size_t>(file_size) + 1);
  while (failure.empty()) {  // +1 above: a short read of a regular file is its end
    const std::size_t wanted = text.size() - size;
    const ssize_t n = ::read(fd, text.data() + size, wanted);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) failure = std::string("read failed: ") + std::strerror(errno);
    if (n <= 0) break;
    size += static_cast<std::size_t>(n);
    // Files that report no size (procfs) may read short before their end: read those to a 0.
    if (file_size > 0 && static_cast<std::size_t>(n) < wanted) break;
    if (size > max_bytes)
      failure = "grew past " + std::to_string(max_bytes) + " bytes while being read";
    if (size == text.size()) text.resize(std::min(2 * size, max_bytes + 1));
  }
  ::close(fd);
  if (!failure.empty()) fail_read(path, failure);
  text.resize(size);
}

std::uint64_t read_file_tail(const std::filesystem::path& path, std::size_t max_bytes,
                             std::string& tail) {
  const OpenFile file = *open_for_read(path, kMaxReadBytes);
  read_tail(path, file, max_bytes, tail);
  return file.size;
}

std::optional<std::uint64_t> read_file_tail_if_present(const std::filesystem::path& path,
                                                       std::size_t max_bytes, std::string& tail) {
  const std::optional<OpenFile> file = open_for_read(path, kMaxReadBytes, true);
  if (!file) return std::nullopt;
  read_tail(path, *file, max_bytes, tail);
  return file->size;
}

std::string read_file(const std::filesystem::path& path, std::size_t max_bytes) {
  std::string text;
  read_file_into(path, text, max_bytes);
  return text;
}

}  // namespace rave
