// export_vlm (evaluation/vlm.hpp): every problem of a set into a benchmark folder built under a
// temporary name beside its destination and renamed into place whole.
#include <unistd.h>

#include <optional>
#include <string>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/formats/problem_files.hpp"
#include "evaluation/items.hpp"
#include "evaluation/vlm.hpp"

namespace rave::evaluation {
namespace fs = std::filesystem;
namespace {

// `out` as a folder path with a name: "bench/" and "bench/." are "bench".
fs::path folder_path(const fs::path& out) {
  fs::path p = fs::absolute(out).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p;
}

// A folder beside `out` under a temporary name, removed unless committed: rename(2) then puts the
// whole benchmark in place at once (a previous one is moved aside first and removed after).
class StagedFolder {
 public:
  explicit StagedFolder(const fs::path& out) : out_(out), path_(beside(out, "tmp")) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;
  ~StagedFolder() {
    std::error_code ec;
    if (!committed_) fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  void commit() {
    std::error_code ec;
    const fs::path old = beside(out_, "old");
    if (fs::exists(out_)) fs::rename(out_, old);
    fs::rename(path_, out_);
    committed_ = true;
    fs::remove_all(old, ec);
  }

 private:
  static fs::path beside(const fs::path& out, const char* kind) {
    std::string name = out.filename().string();  // appends: GCC 12 warns wrongly on "." + name
    name.insert(0, 1, '.');
    name.append(".").append(kind).append(".").append(std::to_string(::getpid()));
    return out.parent_path() / name;
  }
  fs::path out_, path_;
  bool committed_ = false;
};

struct Slot {
  std::string id;
  std::string line;
  std::size_t images = 0;
  std::optional<InputError> error;
};

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

void export_one(const fs::path& root, const fs::path& file, const fs::path& folder,
                const VlmOptions& options, Slot& slot) {
  slot.error.reset();
  try {
    const engine::Problem problem = engine::read_problem(file, engine::TargetSource::kSibling);
    slot.id = item_id(root, file);
    const VlmEntry entry = vlm_entry(
        {.id = slot.id, .split = named_split(file), .file = file.string()}, problem, options);
    write_entry(folder, entry);
    slot.line = entry.line;
    slot.images = entry.files.size();
  } catch (const InputError& e) {
    slot.error = e;
  } catch (const fs::filesystem_error& e) {
    slot.error = InputError(e.path1().string(), "", e.code().message());
  }
}

}  // namespace

bool vlm_output_replaceable(const fs::path& out) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(out, ec);
  if (!fs::exists(status)) return true;
  if (!fs::is_directory(status)) return false;
  return fs::is_empty(out, ec) || fs::is_regular_file(out / kVlmIndex, ec);
}

VlmCounts export_vlm(const fs::path& root, const fs::path& out, const VlmOptions& options,
                     int threads) {
  if (!vlm_output_replaceable(out))
    throw UsageError(out.string() + " exists and is not a benchmark folder (no " +
                     std::string(kVlmIndex) + "): name a new or empty folder");
  const auto files = engine::collect_problem_files({root});
  if (files.empty())
    throw InputError(root.string(), "", "no problems here (no .xml or .asig files)");
  StagedFolder staged(folder_path(out));
  std::vector<Slot> slots(std::min(files.size(), kChunk));
  std::unordered_map<std::string, std::size_t> seen;
  std::string lines;
  VlmCounts counts;
  run_ordered(
      files.size(), threads,
      [&](std::size_t i) { export_one(root, files[i], staged.path(), options, slots[i % kChunk]); },
      [&](std::size_t i) {
        const Slot& slot = slots[i % kChunk];
        if (slot.error) throw *slot.error;
        if (const auto [at, fresh] = seen.emplace(slot.id, i); !fresh)
          throw InputError(files[i].string(), "",
                           "has the id " + slot.id + " of " + files[at->second].string());
        lines += slot.line;
        lines += '\n';
        ++counts.problems;
        counts.images += slot.images;
      });
  write_file_atomic(staged.path() / kVlmIndex, lines);
  staged.commit();
  return counts;
}

}  // namespace rave::evaluation
