#include "common/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "common/error.hpp"

namespace rave {
namespace {

std::filesystem::path temp_path_for(const std::filesystem::path& path) {
  static std::atomic<unsigned> counter{0};
  std::string name = "." + path.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                     std::to_string(counter.fetch_add(1));
  return path.parent_path() / name;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what, int err) {
  throw InputError(path.string(), "", what + ": " + std::strerror(err));
}

}  // namespace

void write_file_atomic(const std::filesystem::path& path, std::span<const char> bytes) {
  const auto temp = temp_path_for(path);
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
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(temp.c_str());
    fail(path, "cannot rename temporary file into place", err);
  }
}

void write_file_atomic(const std::filesystem::path& path, std::string_view text) {
  write_file_atomic(path, std::span<const char>(text.data(), text.size()));
}

void write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  write_file_atomic(path, std::span<const char>(text.data(), text.size()));
}

std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path.string(), "", "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "", std::string("cannot open file: ") + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InputError(path.string(), "", "read failed");
  return std::move(buffer).str();
}

}  // namespace rave
