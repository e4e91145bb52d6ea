#include "engine/model/variant.hpp"

#include <array>
#include <cmath>

#include "common/error.hpp"

namespace rave::engine {
namespace {

constexpr std::array<std::string_view, 3> kSplitNames{"train", "val", "test"};
constexpr std::array<std::string_view, 5> kRegimeNames{"neutral", "interpolation", "extrapolation",
                                                       "held-out-pairs", "held-out-attribute"};

template <class Enum, std::size_t N>
std::optional<Enum> find_name(const std::array<std::string_view, N>& names, std::string_view text) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == text) return static_cast<Enum>(i);
  return std::nullopt;
}

std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> out;
  while (true) {
    const std::size_t comma = text.find(',');
    out.push_back(text.substr(0, comma));
    if (comma == std::string_view::npos) return out;
    text.remove_prefix(comma + 1);
  }
}

// Whether (attr, name) is a row of the rule table of spec 4.1.
bool is_table_row(RuleAttr attr, RuleName name) {
  switch (attr) {
    case RuleAttr::kNumberPosition: return name == RuleName::kConstant;
    case RuleAttr::kNumber:
    case RuleAttr::kPosition: return name != RuleName::kConstant;
    case RuleAttr::kType: return name != RuleName::kArithmetic;
    case RuleAttr::kSize:
    case RuleAttr::kColor: return true;
  }
  return false;
}

RulePair parse_pair(std::string_view word) {
  const std::size_t colon = word.find(':');
  if (colon == std::string_view::npos)
    throw ParameterError(
        "hold_out", ": '" + std::string(word) + "' is not ATTRIBUTE:RULE (e.g. Color:Progression)");
  const std::string_view attr_text = word.substr(0, colon);
  std::string_view name_text = word.substr(colon + 1);
  if (name_text == "Distribute_N") name_text = "Distribute_Three";
  const auto attr = parse_rule_attr(attr_text);
  if (!attr)
    throw ParameterError("hold_out",
                         ": unknown attribute '" + std::string(attr_text) +
                             "' (Number, Position, Number/Position, Type, Size, Color)");
  const auto name = parse_rule_name(name_text);
  if (!name)
    throw ParameterError("hold_out", ": unknown rule '" + std::string(word.substr(colon + 1)) +
                                         "' (Constant, Progression, Arithmetic, Distribute_Three)");
  if (!is_table_row(*attr, *name))
    throw ParameterError("hold_out", ": " + std::string(word) + " is not a rule of the rule table");
  return RulePair{*attr, *name};
}

void check_range(int value, int lo, int hi, const char* parameter) {
  if (value < lo || value > hi)
    throw ParameterError(parameter, " " + std::to_string(value) + " is out of range: it takes " +
                                        std::to_string(lo) + ".." + std::to_string(hi));
}

}  // namespace

std::string_view split_name(Split split) { return kSplitNames[static_cast<std::size_t>(split)]; }
std::optional<Split> parse_split(std::string_view text) {
  return find_name<Split>(kSplitNames, text);
}

std::string_view regime_name(Regime regime) {
  return kRegimeNames[static_cast<std::size_t>(regime)];
}
std::optional<Regime> parse_regime(std::string_view text) {
  return find_name<Regime>(kRegimeNames, text);
}

std::string regime_names() {
  std::string out;
  for (std::string_view name : kRegimeNames) out.append(out.empty() ? "" : ", ").append(name);
  return out;
}

bool is_value_regime(Regime regime) {
  return regime == Regime::kInterpolation || regime == Regime::kExtrapolation;
}

std::string rule_pair_text(const RulePair& pair) {
  return std::string(rule_attr_text(pair.attr)) + ":" + std::string(rule_name_text(pair.name));
}

void check_variant(const Variant& v) {
  check_range(v.grid, kMinGrid, kMaxGrid, "grid");
  if (v.values != 0) check_range(v.values, kMinValues, kMaxValues, "values");
  check_range(v.confounders, 0, kMaxConfounders, "confounders");
  if (v.ibm_levels && v.values == 0)
    throw UsageError("IBM's level conventions need a level count (values, IBM's maxval)");
  const bool pairs = v.regime == Regime::kHeldOutPairs,
             attr = v.regime == Regime::kHeldOutAttribute;
  if (pairs && v.held_out_pairs.empty())
    throw ParameterError("regime", " held-out-pairs needs a hold-out list ATTRIBUTE:RULE[,...]");
  if (attr && !v.held_out_attr)
    throw ParameterError("regime",
                         " held-out-attribute needs a hold-out attribute: Type, Size or Color");
  if ((!pairs && !v.held_out_pairs.empty()) || (!attr && v.held_out_attr))
    throw ParameterError("hold_out",
                         " applies to the regimes held-out-pairs and held-out-attribute only");
}

void parse_hold_out(std::string_view text, Regime regime, Variant& variant) {
  variant.held_out_pairs.clear();
  variant.held_out_attr.reset();
  if (regime == Regime::kHeldOutAttribute) {
    const auto attr = parse_rule_attr(text);
    if (!attr ||
        (*attr != RuleAttr::kType && *attr != RuleAttr::kSize && *attr != RuleAttr::kColor))
      throw ParameterError("hold_out", ": unknown attribute '" + std::string(text) +
                                           "' for held-out-attribute (Type, Size or Color)");
    variant.held_out_attr = *attr;
    return;
  }
  if (regime != Regime::kHeldOutPairs)
    throw ParameterError("hold_out",
                         " applies to the regimes held-out-pairs and held-out-attribute only");
  for (std::string_view word : split_commas(text)) {
    const RulePair pair = parse_pair(word);
    bool seen = false;
    for (const RulePair& p : variant.held_out_pairs) seen = seen || p == pair;
    if (!seen) variant.held_out_pairs.push_back(pair);
  }
}

std::string hold_out_text(const Variant& variant) {
  if (variant.held_out_attr) return std::string(rule_attr_text(*variant.held_out_attr));
  std::string out;
  for (const RulePair& pair : variant.held_out_pairs)
    out.append(out.empty() ? "" : ",").append(rule_pair_text(pair));
  return out;
}

Variant variant_from_options(int grid, std::optional<int> values, int confounders,
                             std::string_view regime, std::string_view hold_out) {
  Variant v{.grid = grid, .values = 0, .confounders = confounders};
  if (values) {
    if (*values < kMinValues)
      throw ParameterError("values", " " + std::to_string(*values) + " is out of range: it takes " +
                                         std::to_string(kMinValues) + ".." +
                                         std::to_string(kMaxValues));
    v.values = *values;
  }
  const auto parsed = parse_regime(regime);
  if (!parsed)
    throw ParameterError("regime",
                         " '" + std::string(regime) + "': expected one of " + regime_names());
  v.regime = *parsed;
  if (!hold_out.empty()) parse_hold_out(hold_out, v.regime, v);
  check_variant(v);
  return v;
}

}  // namespace rave::engine
