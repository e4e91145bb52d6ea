// Benchmark folders written whole (evaluation/export/internal/staged_folder.hpp).
#include "evaluation/export/internal/staged_folder.hpp"

#include <unistd.h>

#include <string>
#include <system_error>

#include "common/atomic_file.hpp"

namespace rave::evaluation::internal {
namespace fs = std::filesystem;
namespace {

fs::path beside(const fs::path& out, const char* kind) {
  std::string name = out.filename().string();  // appends: GCC 12 warns wrongly on "." + name
  name.insert(0, 1, '.');
  name.append(".").append(kind).append(".").append(std::to_string(::getpid()));
  return out.parent_path() / name;
}

}  // namespace

fs::path folder_path(const fs::path& out) {
  fs::path p = fs::absolute(out).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p;
}

StagedFolder::StagedFolder(const fs::path& out) : out_(out), path_(beside(out, "tmp")) {
  fs::remove_all(path_);
  fs::create_directories(path_);
}

StagedFolder::~StagedFolder() {
  std::error_code ec;
  if (!committed_) fs::remove_all(path_, ec);
}

void StagedFolder::commit() {
  std::error_code ec;
  const fs::path old = beside(out_, "old");
  if (fs::exists(out_)) fs::rename(out_, old);
  fs::rename(path_, out_);
  committed_ = true;
  fs::remove_all(old, ec);
}

bool replaceable_folder(const fs::path& out, std::string_view index) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(out, ec);
  if (!fs::exists(status)) return true;
  if (!fs::is_directory(status)) return false;
  return fs::is_empty(out, ec) || fs::is_regular_file(out / index, ec);
}

void write_entry(const fs::path& folder, const VlmEntry& entry) {
  fs::path made;  // the last folder made: a problem's files share one or two
  for (const VlmFile& f : entry.files) {
    const fs::path path = folder / f.path;
    if (path.parent_path() != made) {
      fs::create_directories(path.parent_path());
      made = path.parent_path();
    }
    write_file_atomic(path, f.bytes);
  }
}

}  // namespace rave::evaluation::internal
