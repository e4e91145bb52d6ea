#pragma once
// Harder and held-out variants of the RAVEN problems (docs/variants.md): an N x N matrix, wider
// Type/Size/Color level ranges, confounding attributes, and PGM-style
// generalization regimes over the train/val/test splits. The default Variant is the original
// generator (3x3, the value tables of spec/raven.md 3, no confounders, neutral regime): with it
// every file rave writes is byte-identical to what it wrote before variants existed.
//
//   Variant v{.grid = 5, .values = 100, .confounders = 2};
//   check_variant(v);                         // UsageError naming the option when out of range
//   v.context_panels() == 24;  v.drawable() == false;   // Type has 5 shapes, so images need <= 5
//   parse_hold_out("Color:Progression,Size:Arithmetic", Regime::kHeldOutPairs, v);
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/attributes.hpp"
#include "engine/model/rule.hpp"

namespace rave::engine {

/// Matrix sides `--grid` accepts; 3 is the original.
inline constexpr int kDefaultGrid = 3;
inline constexpr int kMinGrid = 3;
inline constexpr int kMaxGrid = 10;
/// Levels per entity attribute `--values` accepts (symbolic); 0 in a Variant means the spec's
/// tables.
inline constexpr int kMinValues = 3;
inline constexpr int kMaxValues = 1000;
/// The most levels at which every Type, Size and Color level still has its own drawing value in
/// the tables of spec 3 (Type has five shapes): images need values <= this.
inline constexpr int kMaxDrawableValues = 5;
/// Confounding attributes per entity `--confounders` accepts.
inline constexpr int kMaxConfounders = 64;
/// Levels of a confounding attribute when `values` is 0 (Color's count).
inline constexpr int kDefaultConfounderLevels = 10;

/// The dataset splits (spec/raven.md 9): problem k's split is given by k mod 10.
enum class Split { kTrain, kVal, kTest };
/// "train", "val", "test".
std::string_view split_name(Split split);
std::optional<Split> parse_split(std::string_view text);

/// Generalization regimes (docs/variants.md): how train/val differ from test.
enum class Regime {
  kNeutral,           ///< every split alike
  kInterpolation,     ///< train/val on odd Type/Size/Color levels, test on even
  kExtrapolation,     ///< train/val on the lower half of each level range, test on the upper half
  kHeldOutPairs,      ///< chosen (attribute, rule) pairs never in train/val, in every test problem
  kHeldOutAttribute,  ///< one attribute Constant in train/val, ruled by a non-Constant rule in test
};
/// "neutral", "interpolation", "extrapolation", "held-out-pairs", "held-out-attribute".
std::string_view regime_name(Regime regime);
std::optional<Regime> parse_regime(std::string_view text);
/// Comma-separated regime names, for messages.
std::string regime_names();
/// Whether the regime changes the level ranges of Type, Size and Color per split.
bool is_value_regime(Regime regime);

/// An (attribute, rule) pair of held-out-pairs: a row of the rule table (spec 4.1), e.g. Color
/// Progression, Number Arithmetic, Number/Position Constant.
struct RulePair {
  RuleAttr attr = RuleAttr::kColor;
  RuleName name = RuleName::kProgression;
  friend bool operator==(const RulePair&, const RulePair&) = default;
};
/// Whether `rule` is an instance of the pair (any parameter).
inline bool matches(const RulePair& pair, const Rule& rule) {
  return rule.attr == pair.attr && rule.name == pair.name;
}
/// "Color:Progression".
std::string rule_pair_text(const RulePair& pair);

/// What makes problems differ from the original's.
struct Variant {
  int grid = kDefaultGrid;  ///< N: an N x N matrix, N*N-1 context panels
  int values = 0;           ///< levels of Type, Size and Color; 0: the spec's tables
  int confounders = 0;      ///< random attributes per entity that follow no rule
  Regime regime = Regime::kNeutral;
  std::vector<RulePair> held_out_pairs{};   ///< kHeldOutPairs
  std::optional<RuleAttr> held_out_attr{};  ///< kHeldOutAttribute: Type, Size or Color
  /// IBM's I-RAVEN-X conventions (problems read from its JSON, evaluation/ibm_json.hpp): Type,
  /// Size and Color take levels 0..values, both ends included, and Arithmetic adds Size levels
  /// as they are (RAVEN's adds 1). Needs `values`; rave never generates it.
  bool ibm_levels = false;
  friend bool operator==(const Variant&, const Variant&) = default;

  int context_panels() const { return grid * grid - 1; }
  /// Whether every level can be drawn (values 0 or <= kMaxDrawableValues).
  bool drawable() const { return values == 0 || (values <= kMaxDrawableValues && !ibm_levels); }
  /// Levels of one confounding attribute.
  int confounder_levels() const { return values == 0 ? kDefaultConfounderLevels : values; }
  bool is_original() const { return *this == Variant{}; }
};

/// Throws UsageError naming the option (`--grid`, `--values`, ...) when a field is out of range or
/// the regime lacks (or does not take) its hold-out list.
void check_variant(const Variant& variant);
/// Parses `--hold-out` for `regime` into `variant`: "Color:Progression,Size:Arithmetic" for
/// held-out pairs (rows of the rule table: attributes Number, Position, Number/Position, Type,
/// Size, Color; rules Constant, Progression, Arithmetic, Distribute_Three, also spelled
/// Distribute_N), "Color" (Type, Size or Color) for a held-out attribute. Throws UsageError naming
/// the word.
void parse_hold_out(std::string_view text, Regime regime, Variant& variant);
/// The variant the options `--grid --values --confounders --regime --hold-out` name (`values`
/// nullopt: the original tables); UsageError naming the option when one is out of range or unknown.
Variant variant_from_options(int grid, std::optional<int> values, int confounders,
                             std::string_view regime, std::string_view hold_out);
/// The hold-out list as parse_hold_out reads it back ("" when none).
std::string hold_out_text(const Variant& variant);

}  // namespace rave::engine
