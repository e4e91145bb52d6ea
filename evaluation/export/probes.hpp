#pragma once
// Perception probes (docs/probes.md): per problem, questions about what its pictures show (how
// many shapes a panel holds, which place is empty, a shape's kind and colour, whether two panels
// agree in an attribute, which attributes change along a row, which candidate differs from the
// answer in one attribute alone), each with the exact answer computed from the symbols. A question
// is asked only where the pictures determine its answer: every panel it names is read back from
// its pixels by perception (perception/panel_parse.hpp) to the problem's own entities, and no
// entity it depends on has two readings that differ in an attribute the answer uses (the O-IG
// squares of Size 2 and 3 draw the same pixels, for instance).
//
//   auto candidates = probe_candidates(problem);          // every determined question, per type
//   std::string q = probe_question(problem, candidates[0][0], ProbeForm::kSheet);
//   ProbeCounts n = export_probes("set", "probes", {.panels = true}, 2);   // probes/probes.jsonl
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::evaluation {

/// The question types of docs/probes.md, in the order the JSON lines list them.
enum class ProbeType { kCount, kEmptyPosition, kShape, kColor, kSame, kRowChange, kOneDifference };
inline constexpr int kProbeTypes = 7;

/// "count", "empty_position", "shape", "color", "same", "row_change", "one_difference".
std::string_view probe_type_name(ProbeType type);
std::optional<ProbeType> parse_probe_type(std::string_view name);

/// The attributes questions name: "number", "position", "shape", "size", "color".
enum class ProbeAttr { kNumber, kPosition, kShape, kSize, kColor };
inline constexpr int kProbeAttrs = 5;
std::string_view probe_attr_name(ProbeAttr attr);

/// One question and its answer.
struct Probe {
  ProbeType type = ProbeType::kCount;
  std::vector<int> panels;  ///< the panels it names, file order (0-based); a row's, left to right
  int component = -1;       ///< the component it asks about; -1: the whole panel
  std::optional<ProbeAttr> attribute = {};  ///< same, one_difference: the attribute compared
  int row = 0;                              ///< row_change: the row, 1-based
  std::vector<ProbeAttr> attributes = {};   ///< row_change: the attributes the question lists
  std::vector<std::string> choices = {};    ///< every answer the question allows, fixed order
  std::string answer = {};                  ///< one of choices
};

/// Per type, every question the pictures of `problem` determine, with its answer, in a fixed
/// order. Empty for a problem rave does not draw (more than 5 levels per attribute).
std::array<std::vector<Probe>, kProbeTypes> probe_candidates(const engine::Problem& problem);

/// The two ways a benchmark shows a problem (as `rave show --vlm`): one sheet, or every panel.
enum class ProbeForm { kSheet, kPanels };

/// The question as the model reads it in `form` (panels named by their place on the sheet, or by
/// image number), with its answer instruction.
std::string probe_question(const engine::Problem& problem, const Probe& probe, ProbeForm form);

/// What `rave probes` writes.
struct ProbeOptions {
  bool panels = false;     ///< each panel as its own PNG, and the panels form's prompt
  std::uint64_t seed = 0;  ///< the draw among a problem's questions (ties of the balance)
  int per_type = 1;        ///< questions of each type per problem (fewer where it has fewer)
  std::vector<ProbeType> types = {};  ///< the types asked; empty: all
};

/// Problems read and probes written, in all and per type; problems with no probe at all.
struct ProbeCounts {
  std::size_t problems = 0;
  std::size_t probes = 0;
  std::size_t without_probes = 0;
  std::array<std::size_t, kProbeTypes> per_type{};
};

/// The JSON Lines file of a probe folder.
inline constexpr std::string_view kProbeIndex = "probes.jsonl";

/// Writes the probes of every problem under `root` (as `rave show --vlm` reads it) into the folder
/// `out`: the images as `rave show --vlm` writes them and kProbeIndex, one line per probe. Per
/// problem and type, the answer least used so far by that type is asked (in file order), so the
/// answers balance where the problems allow; the bytes do not depend on `threads`. Built under a
/// temporary name and renamed into place. Throws as export_vlm.
ProbeCounts export_probes(const std::filesystem::path& root, const std::filesystem::path& out,
                          const ProbeOptions& options, int threads);

}  // namespace rave::evaluation
