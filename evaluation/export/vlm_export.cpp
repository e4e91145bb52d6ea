// export_vlm (evaluation/export/vlm.hpp): every problem of a set into a benchmark folder built under a
// temporary name beside its destination and renamed into place whole.
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/formats/problem_files.hpp"
#include "evaluation/export/internal/staged_folder.hpp"
#include "evaluation/export/vlm.hpp"
#include "evaluation/items.hpp"

namespace rave::evaluation {
namespace fs = std::filesystem;
namespace {

using internal::folder_path;
using internal::StagedFolder;
using internal::write_entry;

struct Slot {
  std::string id;
  std::string line;
  std::size_t images = 0;
  std::optional<InputError> error;
};

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
  return internal::replaceable_folder(out, kVlmIndex);
}

VlmCounts export_vlm(const fs::path& root, const fs::path& out, const VlmOptions& options,
                     int threads) {
  if (!vlm_output_replaceable(out))
    throw UsageError(out.string() + " exists and is not a benchmark folder (no " +
                     std::string(kVlmIndex) + "): name a new or empty folder");
  const auto files = problem_files_under(root);
  StagedFolder staged(folder_path(out));
  std::vector<Slot> slots(std::min(files.size(), kChunk));
  UniqueIds ids(files);
  std::string lines;
  VlmCounts counts;
  run_ordered(
      files.size(), threads,
      [&](std::size_t i) { export_one(root, files[i], staged.path(), options, slots[i % kChunk]); },
      [&](std::size_t i) {
        const Slot& slot = slots[i % kChunk];
        if (slot.error) throw *slot.error;
        ids.take(slot.id, i);
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
