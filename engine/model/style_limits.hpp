#pragma once
// When a render style can draw a variant (docs/rendering.md#when-two-levels-look-alike): two
// levels are told apart when, in the smallest slot and at the smallest Size a configuration
// allows, their drawings differ by at least the style's `step` pixels (circumradius for Size,
// inradius for neighbouring Types, outline width, dot radius, inner-outline inradius) or, for
// grays, by `gray_step` (fills against each other and against the background, outline grays).
// The marks must also fit: neighbouring entities never touch, the dot, the inner outline and the
// outline never meet. Generation refuses a style, variant and configuration that fail, with one
// line naming the attribute, the two levels and the largest level count that would pass.
//
//   std::string why = style_defect(parse_style("clean"), Variant{.values = 40}, ConfigId::kOutInGrid);
//   if (!why.empty()) throw UsageError(why);
#include <string>

#include "engine/model/configuration.hpp"
#include "engine/model/style.hpp"
#include "engine/model/variant.hpp"

namespace rave::engine {

/// Why `style` cannot draw problems of `variant` in `config` ("" when it can). The original style
/// draws the original's levels only (values <= 5; confounders are not drawn).
std::string style_defect(const RenderStyle& style, const Variant& variant, ConfigId config);

/// The file levels of `attr` (Type, Size or Color) a layout's range allows under `variant`: the
/// range itself with the original tables, widened with `values` (Type from 1: none is not drawn).
Range drawn_range(Range layout_range, Attr attr, const Variant& variant);
/// The widest outline a style draws for `variant` (its confounder 1's last level, else its stroke).
double widest_stroke(const RenderStyle& style, const Variant& variant);

/// The most levels per attribute (`--values`) the style draws in `config` with the variant's other
/// fields; 0 when none (the defect is not about levels).
int max_drawable_values(const RenderStyle& style, const Variant& variant, ConfigId config);

}  // namespace rave::engine
