#pragma once
// The symbolic RPM problem: the context panels (8 of a 3x3 matrix, N*N-1 of an N x N one), 8
// candidates, the rule groups and the answer. This is the value type every part of rave exchanges
// (sampler, answer sets, renderer, dataset I/O, solver); it holds levels, never pixels. A panel
// holds one ComponentPanel per component of its configuration; each lists its entities in the
// Layout's Position order (spec/raven.md 11.3). `variant` says how the problem differs from the
// original's (docs/variants.md); its default is the original. `style` says how its panels are
// drawn (engine/model/style.hpp), not what they show.
//
//   Problem p = read_problem_xml("RAVEN_0_train.xml");   // dataset I/O
//   const Entity& e = p.context[0].components[0].entities[0];
//   int answer_index = *p.target;                          // index into p.candidates
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/model/attributes.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/rule.hpp"
#include "engine/model/style.hpp"
#include "engine/model/variant.hpp"

namespace rave::engine {

/// Panels of a 3x3 matrix shown as context (the ninth is the question); an N x N matrix shows
/// Variant::context_panels() = N*N-1.
inline constexpr int kContextPanels = 8;
/// Candidates of an answer set.
inline constexpr int kCandidates = 8;
/// Panels of a 3x3 problem in file order: the context, then the candidates.
inline constexpr int kPanels = kContextPanels + kCandidates;
/// Panels of a problem on an N x N matrix.
constexpr int panel_count(int grid) { return grid * grid - 1 + kCandidates; }

/// A leaf of the parse graph: a shape in one slot of its layout.
struct Entity {
  int slot = 0;   ///< index into the layout's slot table (the XML `bbox`)
  int type = 1;   ///< level, kTypeNames
  int size = 0;   ///< level, kSizeValues
  int color = 0;  ///< level, kColorValues
  int angle = 3;  ///< level, kAngleValues
  friend bool operator==(const Entity&, const Entity&) = default;
};

/// One component of one panel: its layout's state.
struct ComponentPanel {
  int uniformity = 0;            ///< level 0..3 (3 = uniform); fixed within a problem
  std::vector<Entity> entities;  ///< in Position order; Number = entities.size()
  /// Variant::confounders random levels per entity, entity-major (entity i's at [i*K, i*K+K));
  /// empty without confounders. They follow no rule.
  std::vector<int> confounders{};
  int number_level() const { return static_cast<int>(entities.size()) - 1; }
  friend bool operator==(const ComponentPanel&, const ComponentPanel&) = default;
};

/// One panel of a problem.
struct Panel {
  std::vector<ComponentPanel> components;  ///< one per component of the configuration
  friend bool operator==(const Panel&, const Panel&) = default;
};

/// One modification on an I-RAVEN candidate's path (XML `Modified_attributes`).
struct Modification {
  int component = 0;
  Attr attr = Attr::kType;
  friend bool operator==(const Modification&, const Modification&) = default;
};

/// A whole problem.
struct Problem {
  ConfigId config = ConfigId::kCenterSingle;
  Variant variant{};             ///< the original unless made otherwise
  RenderStyle style{};           ///< how its panels are drawn: the original's unless chosen
  std::optional<Split> split{};  ///< the problem's split, when a regime needs it
  std::vector<Panel> context = std::vector<Panel>(kContextPanels);  ///< row-major; grid()^2 - 1
  std::array<Panel, kCandidates> candidates;                        ///< in file order
  std::vector<RuleGroup> rules;  ///< one per component; empty when unknown (XML without Rules)
  std::optional<int> target;     ///< index of the answer among candidates, when known
  std::optional<int> predict;    ///< the generator's solver choice (npz `predict`)
  /// I-RAVEN only: per candidate, the modifications on its path (empty for the answer).
  std::optional<std::array<std::vector<Modification>, kCandidates>> modified;
  friend bool operator==(const Problem&, const Problem&) = default;

  int grid() const { return variant.grid; }
  /// Panels in file order: the context, then the candidates.
  int panel_count() const { return static_cast<int>(context.size()) + kCandidates; }
  /// Panel i in file order (context first, then candidates).
  const Panel& panel(int i) const {
    const int n = static_cast<int>(context.size());
    return i < n ? context[static_cast<std::size_t>(i)]
                 : candidates[static_cast<std::size_t>(i - n)];
  }
  Panel& panel(int i) { return const_cast<Panel&>(std::as_const(*this).panel(i)); }
};

/// The npz `meta_matrix` (8x9) and `meta_target` (9) of docs/format.md#npz for these rule groups.
std::array<std::array<std::uint8_t, 9>, 8> meta_matrix(const std::vector<RuleGroup>& rules);
std::array<std::uint8_t, 9> meta_target(const std::vector<RuleGroup>& rules);

}  // namespace rave::engine
