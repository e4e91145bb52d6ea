// `rave probes` (evaluation/export/probes.hpp): the questions of every problem of a set, an answer-balanced
// draw among them, their JSON lines and the images they refer to, in a folder written whole.
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"
#include "common/random.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/model/configuration.hpp"
#include "evaluation/export/internal/staged_folder.hpp"
#include "evaluation/export/probes.hpp"
#include "evaluation/export/vlm.hpp"
#include "evaluation/internal/json_writer.hpp"
#include "evaluation/items.hpp"
#include "evaluation/shuffle.hpp"

namespace rave::evaluation {
namespace fs = std::filesystem;
namespace {

using Candidates = std::array<std::vector<Probe>, kProbeTypes>;

// One problem as the workers leave it for the ordered pass.
struct Slot {
  std::string id, split;
  engine::Problem problem;
  VlmEntry images;  ///< files written; `line` unused
  Candidates candidates;
  std::optional<InputError> error;
};

// How often each answer of each type has been asked so far, in file order.
class AnswerBalance {
 public:
  // Up to `k` of `pool` (removed from it): each time the answer least used so far among those the
  // pool holds, ties drawn from `rng`, then one of its questions drawn from `rng`.
  std::vector<Probe> draw(ProbeType type, std::vector<Probe> pool, int k, Rng& rng) {
    std::vector<Probe> out;
    auto& used = used_[static_cast<std::size_t>(type)];
    while (static_cast<int>(out.size()) < k && !pool.empty()) {
      std::map<std::string, std::vector<std::size_t>> by_answer;
      for (std::size_t i = 0; i < pool.size(); ++i) by_answer[pool[i].answer].push_back(i);
      std::vector<const std::string*> least;
      std::size_t fewest = SIZE_MAX;
      for (const auto& [answer, at] : by_answer) {
        const std::size_t n = used[answer];
        if (n < fewest) least.clear(), fewest = n;
        if (n == fewest) least.push_back(&answer);
      }
      const std::string chosen =
          *least[static_cast<std::size_t>(rng.below(static_cast<int>(least.size())))];
      const auto& at = by_answer[chosen];
      const std::size_t pick = at[static_cast<std::size_t>(rng.below(static_cast<int>(at.size())))];
      out.push_back(pool[pick]);
      pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(pick));
      ++used[chosen];
    }
    return out;
  }

 private:
  std::array<std::unordered_map<std::string, std::size_t>, kProbeTypes> used_;
};

void write_asks(internal::JsonWriter& w, const Probe& q) {
  w.key("asks").begin_object().key("panels").begin_array();
  for (int i : q.panels) w.value(i);
  w.end_array();
  if (q.component >= 0) w.key("component").value(q.component);
  if (q.attribute) w.key("attribute").value(probe_attr_name(*q.attribute));
  if (q.row > 0) w.key("row").value(q.row);
  if (q.type == ProbeType::kRowChange) {
    w.key("attributes").begin_array();
    for (ProbeAttr a : q.attributes) w.value(probe_attr_name(a));
    w.end_array();
  }
  w.end_object();
}

std::string probe_line(const Slot& s, const Probe& q, const std::string& id, bool panels) {
  std::string line;
  internal::JsonWriter w(line);
  const engine::Problem& p = s.problem;
  w.begin_object().key("id").value(id).key("problem").value(s.id);
  w.key("configuration").value(engine::configuration(p.config).folder);
  w.key("split").value(s.split).key("grid").value(p.grid());
  w.key("type").value(probe_type_name(q.type));
  write_asks(w, q);
  w.key("choices").begin_array();
  for (const std::string& c : q.choices) w.value(c);
  w.end_array().key("answer").value(q.answer);
  w.key("sheet").value(s.images.files.front().path);
  w.key("sheet_prompt")
      .value(sheet_description(p.grid()) + " " + probe_question(p, q, ProbeForm::kSheet));
  if (panels) {
    w.key("panels").begin_array();
    for (std::size_t i = 1; i < s.images.files.size(); ++i) w.value(s.images.files[i].path);
    w.end_array()
        .key("panels_prompt")
        .value(panels_description(p.grid()) + " " + probe_question(p, q, ProbeForm::kPanels));
  }
  w.end_object();
  return line;
}

bool wanted(const ProbeOptions& o, ProbeType t) {
  return o.types.empty() || std::find(o.types.begin(), o.types.end(), t) != o.types.end();
}

void prepare(const fs::path& root, const fs::path& file, const fs::path& folder,
             const ProbeOptions& options, Slot& slot) {
  slot.error.reset();
  try {
    slot.problem = engine::read_problem(file, engine::TargetSource::kSibling);
    slot.id = item_id(root, file);
    slot.split = named_split(file);
    slot.images = vlm_entry({.id = slot.id, .split = slot.split, .file = file.string()},
                            slot.problem, {.panels = options.panels});
    slot.candidates = probe_candidates(slot.problem);
    internal::write_entry(folder, slot.images);
  } catch (const InputError& e) {
    slot.error = e;
  } catch (const fs::filesystem_error& e) {
    slot.error = InputError(e.path1().string(), "", e.code().message());
  }
}

// The probes of one problem, in type order; their lines appended to `lines`.
void emit(const Slot& s, const ProbeOptions& o, AnswerBalance& balance, std::string& lines,
          ProbeCounts& counts) {
  Rng rng(item_seed(o.seed, s.id));
  std::size_t before = counts.probes;
  for (int t = 0; t < kProbeTypes; ++t) {
    const auto type = static_cast<ProbeType>(t);
    if (!wanted(o, type)) continue;
    const auto drawn =
        balance.draw(type, s.candidates[static_cast<std::size_t>(t)], o.per_type, rng);
    for (std::size_t j = 0; j < drawn.size(); ++j) {
      std::string id = s.id;  // appends: GCC 12 warns wrongly on "-" + std::to_string(...)
      id.append("/").append(probe_type_name(type));
      if (j > 0) id.append("-").append(std::to_string(j + 1));
      lines += probe_line(s, drawn[j], id, o.panels);
      lines += '\n';
    }
    counts.per_type[static_cast<std::size_t>(t)] += drawn.size();
    counts.probes += drawn.size();
  }
  ++counts.problems;
  if (counts.probes == before) ++counts.without_probes;
}

}  // namespace

std::string_view probe_type_name(ProbeType type) {
  static constexpr std::array<std::string_view, kProbeTypes> kNames{
      "count", "empty_position", "shape", "color", "same", "row_change", "one_difference"};
  return kNames.at(static_cast<std::size_t>(type));
}

std::optional<ProbeType> parse_probe_type(std::string_view name) {
  for (int t = 0; t < kProbeTypes; ++t)
    if (probe_type_name(static_cast<ProbeType>(t)) == name) return static_cast<ProbeType>(t);
  return std::nullopt;
}

std::string_view probe_attr_name(ProbeAttr attr) {
  static constexpr std::array<std::string_view, kProbeAttrs> kNames{"number", "position", "shape",
                                                                    "size", "color"};
  return kNames.at(static_cast<std::size_t>(attr));
}

ProbeCounts export_probes(const fs::path& root, const fs::path& out, const ProbeOptions& options,
                          int threads) {
  if (!internal::replaceable_folder(out, kProbeIndex))
    throw UsageError(out.string() + " exists and is not a probe folder (no " +
                     std::string(kProbeIndex) + "): name a new or empty folder");
  if (options.per_type < 1) throw UsageError("--per-type must be at least 1");
  const auto files = problem_files_under(root);
  internal::StagedFolder staged(internal::folder_path(out));
  std::vector<Slot> slots(std::min(files.size(), kChunk));
  UniqueIds ids(files);
  AnswerBalance balance;
  std::string lines;
  ProbeCounts counts;
  run_ordered(
      files.size(), threads,
      [&](std::size_t i) { prepare(root, files[i], staged.path(), options, slots[i % kChunk]); },
      [&](std::size_t i) {
        const Slot& slot = slots[i % kChunk];
        if (slot.error) throw *slot.error;
        ids.take(slot.id, i);
        emit(slot, options, balance, lines, counts);
      });
  write_file_atomic(staged.path() / kProbeIndex, lines);
  staged.commit();
  return counts;
}

}  // namespace rave::evaluation
