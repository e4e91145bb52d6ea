#pragma once
// Internals shared by the three answer-set builders (docs/answer-sets.md,
// docs/answer-sets.md#i-raven-attribute-bisection-tree,
// docs/answer-sets.md#raven-fair-a-random-tree): the modifiable-attribute list of
// docs/answer-sets.md#modifiable-attributes, slot sets as bit masks, the per-layout memory the
// originals keep while drawing distractors (the per-Number-level combination table, earlier
// Position sets, earlier entity levels), RAVEN's copy-and-modify step and the final shuffle. Not
// part of the public API; tests include it to check the pieces one by one.
//
//   auto list = modifiable_entries(configuration(m.config), m.rules, m.answer());
//   ModifiableEntry e = take_entry(list, rng);           // RAVEN's uniform entry draw
//   raven_modify(config, m.narrowed[c], e, memory[c], panel.components[c], rng);
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/math.hpp"
#include "common/random.hpp"
#include "engine/answers/answer_set.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/constraints.hpp"
#include "engine/model/problem.hpp"
#include "engine/rules/matrix.hpp"

namespace rave::engine::internal {

/// A set of slot indices of one layout: bit i is slot i (layouts have at most 9 slots).
using SlotMask = std::uint32_t;

/// The slot set of a component panel (entity order ignored).
SlotMask slot_mask(const ComponentPanel& panel);
/// The slot set of a slot list.
SlotMask slot_mask(std::span<const int> slots);

/// The level of Type, Size or Color of an entity (RAVE_CHECK on any other attribute).
int entity_level(const Entity& entity, Attr attr);
int& entity_level(Entity& entity, Attr attr);

/// One entry of the modifiable-attribute list (docs/answer-sets.md#modifiable-attributes;
/// docs/answer-sets.md#modifiable-attributes).
struct ModifiableEntry {
  int component = 0;
  Attr attr = Attr::kNumber;   ///< kNumber, kPosition, kType, kSize or kColor
  int uses = 0;                ///< remaining uses (RAVEN and RAVEN-FAIR; I-RAVEN ignores them)
  Range range;                 ///< original level range; empty for Position
  bool uniform_value = false;  ///< I-RAVEN `attr_uni`: one shared new value (Type/Size/Color)
  friend bool operator==(const ModifiableEntry&, const ModifiableEntry&) = default;
};

/// The modifiable attributes of `panel` as docs/answer-sets.md#modifiable-attributes builds them
/// from row 3 col 3, using the configuration's original ranges: per component Number, Position,
/// Type, Size, Color, in that order.
std::vector<ModifiableEntry> modifiable_entries(const Configuration& config,
                                                const std::vector<RuleGroup>& rules,
                                                const Panel& panel);

/// RAVEN's entry draw (docs/answer-sets.md#raven-a-star): a uniformly random entry (not
/// weighted by uses); its uses are decremented and it is dropped at 0. The list must not be empty.
ModifiableEntry take_entry(std::vector<ModifiableEntry>& list, Rng& rng);

/// What one layout remembers while distractors are drawn from it (docs/answer-sets.md#raven-a-star,
/// docs/answer-sets.md#i-raven-attribute-bisection-tree).
struct LayoutMemory {
  static constexpr int kLevels = kMaxNumberLevel + 1;
  std::array<int, kLevels> remaining{};  ///< slot combinations left per Number level
  std::array<std::vector<SlotMask>, kLevels> used_sets;  ///< slot sets used per Number level
  std::array<bool, kLevels> round_open{};                ///< I-RAVEN: level still free this round
  std::vector<SlotMask> earlier_positions;               ///< sets given by Position changes
  /// Per entity index, the levels earlier changes gave it: [0] Type, [1] Size, [2] Color.
  std::vector<std::array<std::vector<int>, 3>> earlier_levels;
};

/// Fresh memory for every component of `config`: each original Number level k has
/// C(slots, k + 1) combinations left and is open (levels outside the original range have none).
std::vector<LayoutMemory> fresh_memory(const Configuration& config);

/// A uniformly random level of `range` that is not in `excluded`; nullopt when none is left.
std::optional<int> draw_level(Range range, std::span<const int> excluded, Rng& rng);

/// The Type, Size and Color levels the context panels show, per component (sorted, distinct), for
/// Matrix::balanced_answers.
class SeenLevels {
 public:
  explicit SeenLevels(const Matrix& matrix);
  bool shown(int component, Attr attr, int level) const;

 private:
  std::vector<std::array<std::vector<int>, 3>> levels_;
};
/// The matrix's SeenLevels when it asks for matching levels, else nullopt.
std::optional<SeenLevels> seen_levels(const Matrix& matrix);

/// Where a new level of one attribute is drawn, and what it stands in for.
struct LevelDraw {
  Range range;
  int component = 0;
  Attr attr = Attr::kType;
  int like = 0;                      ///< the answer's level it replaces (or, new, copies)
  const SeenLevels* seen = nullptr;  ///< null: draw_level's uniform draw
};
/// draw_level when `d.seen` is null; else a uniform level among the allowed ones that the context
/// shows when it shows `d.like` and among those it does not otherwise (all allowed when that part
/// is empty).
std::optional<int> draw_level_like(const LevelDraw& d, std::span<const int> excluded, Rng& rng);

/// A uniformly random ordered list of `count` distinct slots of `slot_count` whose *set* is not in
/// `excluded`; nullopt when every set is excluded. Same law as the original's redraw loop (uniform
/// allowed set, uniform order), but computed by enumeration so it always ends.
std::optional<std::vector<int>> draw_slot_list(int slot_count, int count,
                                               std::span<const SlotMask> excluded, Rng& rng);

/// A Number change drawn by RAVEN's loop (docs/answer-sets.md#raven-a-star): level != `current` in
/// `range` with combinations left, then a slot set never used at that level; the pair is recorded
/// in `memory`.
struct NumberDraw {
  int level = 0;
  std::vector<int> slots;  ///< in draw order (the new Position order)
};
std::optional<NumberDraw> draw_raven_number(int slot_count, Range range, int current,
                                            LayoutMemory& memory, Rng& rng);

/// RAVEN's modifier (docs/answer-sets.md#raven-a-star): changes `entry.attr` of `panel` (one
/// component of a copy of the candidate that owns `memory`), drawing against `memory` and recording
/// the new values in it. Number rebuilds every entity with uniformly random Type/Size/Color/Angle
/// in `narrowed`. Returns false when no new value is left (the original then raised or looped until
/// its alarm; callers count it as a failed attempt).
bool raven_modify(const LayoutSpec& layout, const LayoutConstraints& narrowed,
                  const ModifiableEntry& entry, LayoutMemory& memory, ComponentPanel& panel,
                  Rng& rng, const SeenLevels* seen = nullptr);

/// Shuffles the candidates (and the I-RAVEN modification lists with them) with one permutation and
/// returns the answer set; `candidates[0]` must be the answer.
AnswerSet shuffle_candidates(
    std::array<Panel, kCandidates> candidates,
    std::optional<std::array<std::vector<Modification>, kCandidates>> modified, Rng& rng);

/// The three strategies (answers_raven.cpp, answers_iraven.cpp, answers_fair.cpp).
AnswerSet build_raven_answers(const Matrix& matrix, Rng& rng);
AnswerSet build_iraven_answers(const Matrix& matrix, Rng& rng);
AnswerSet build_fair_answers(const Matrix& matrix, Rng& rng, PanelImageFn draw);

}  // namespace rave::engine::internal
