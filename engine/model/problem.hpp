#pragma once
// The symbolic RPM problem: 8 context panels, 8 candidates, the rule groups and the answer.
// This is the value type every part of rave exchanges (sampler, answer sets, renderer, dataset
// I/O, solver); it holds levels, never pixels. A panel holds one ComponentPanel per component of
// its configuration; each lists its entities in the Layout's Position order (docs/format.md#xml).
//
//   Problem p = read_problem_xml("RAVEN_0_train.xml");   // dataset I/O
//   const Entity& e = p.context[0].components[0].entities[0];
//   int answer_index = *p.target;                          // index into p.candidates
#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/model/attributes.hpp"
#include "engine/model/configuration.hpp"

namespace rave::engine {

/// Panels of a 3x3 matrix shown as context (the ninth is the question).
inline constexpr int kContextPanels = 8;
/// Candidates of an answer set.
inline constexpr int kCandidates = 8;
/// Panels of a problem in file order: the context, then the candidates.
inline constexpr int kPanels = kContextPanels + kCandidates;

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
  int uniformity = 0;             ///< level 0..3 (3 = uniform); fixed within a problem
  std::vector<Entity> entities;   ///< in Position order; Number = entities.size()
  int number_level() const { return static_cast<int>(entities.size()) - 1; }
  friend bool operator==(const ComponentPanel&, const ComponentPanel&) = default;
};

/// One of the 16 panels.
struct Panel {
  std::vector<ComponentPanel> components;  ///< one per component of the configuration
  friend bool operator==(const Panel&, const Panel&) = default;
};

/// Rule names (docs/rules.md#rule-table), spelled as in the XML.
enum class RuleName { kConstant, kProgression, kArithmetic, kDistributeThree };
/// What a rule governs; kNumberPosition only for group-0 Constant.
enum class RuleAttr { kNumberPosition, kNumber, kPosition, kType, kSize, kColor };

std::string_view rule_name_text(RuleName name);       ///< "Distribute_Three", ...
std::string_view rule_attr_text(RuleAttr attr);       ///< "Number/Position", ...
std::optional<RuleName> parse_rule_name(std::string_view text);
std::optional<RuleAttr> parse_rule_attr(std::string_view text);

/// One rule with its parameter. `value` is the progression step (+-1, +-2) or the arithmetic sign
/// (+1 add / union, -1 subtract / difference), 0 for parameterless rules. Files do not store it
/// (docs/format.md#rules-in-the-files): `value_known` is false for rules read from XML.
struct Rule {
  RuleName name = RuleName::kConstant;
  RuleAttr attr = RuleAttr::kNumberPosition;
  int value = 0;
  bool value_known = true;
  friend bool operator==(const Rule&, const Rule&) = default;
};

/// The four rules of one component: [0] Number/Position, [1] Type, [2] Size, [3] Color.
struct RuleGroup {
  std::array<Rule, 4> rules;
  friend bool operator==(const RuleGroup&, const RuleGroup&) = default;
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
  std::array<Panel, kContextPanels> context;   ///< row-major r1c1 .. r3c2
  std::array<Panel, kCandidates> candidates;   ///< in file order
  std::vector<RuleGroup> rules;      ///< one per component; empty when unknown (XML without Rules)
  std::optional<int> target;         ///< index of the answer among candidates, when known
  std::optional<int> predict;        ///< the generator's solver choice (npz `predict`)
  /// I-RAVEN only: per candidate, the modifications on its path (empty for the answer).
  std::optional<std::array<std::vector<Modification>, kCandidates>> modified;
  friend bool operator==(const Problem&, const Problem&) = default;

  /// Panel i of the 16 in file order (0..7 context, 8..15 candidates).
  const Panel& panel(int i) const { return i < kContextPanels ? context[i] : candidates[i - kContextPanels]; }
  Panel& panel(int i) { return i < kContextPanels ? context[i] : candidates[i - kContextPanels]; }
};

/// The npz `meta_matrix` (8x9) and `meta_target` (9) of docs/format.md#npz for these rule groups.
std::array<std::array<std::uint8_t, 9>, 8> meta_matrix(const std::vector<RuleGroup>& rules);
std::array<std::uint8_t, 9> meta_target(const std::vector<RuleGroup>& rules);

}  // namespace rave::engine
