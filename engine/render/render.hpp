#pragma once
// Panel renderer (docs/rendering.md): 160x160 uint8 gray panels, byte-identical to the original's
// OpenCV drawing (8-connected thick lines, filled convex polygons and circles, bilinear rotation,
// replace-not-blend compositing, structure separators), and the XML `mask` of one entity
// (docs/format.md#mask). Thread-safe. The only state is a process-wide cache of per-entity
// templates (engine/render/internal/entity_template.hpp), filled on first use: at most 6000 of
// them, 29 MB and 0.5 s of CPU if every slot, Type, Size and Angle of every configuration occurs.
//
//   Image img = render_panel(ConfigId::kDistributeFour, problem.context[0]);
//   std::uint8_t pixel = img[y * kPanelSize + x];   // 255 white background, 0 black ink
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// Throws UsageError when `problem`'s style cannot draw its levels or confounders
/// (engine/model/style_limits.hpp: the original style draws at most 5 levels).
void check_drawable(const Problem& problem);
/// Renders every panel of a problem in its style (engine/model/style.hpp) into `out`: 160 x 160
/// byte for byte as the original for the original style, else rave's own renderer
/// (engine/render/styled.hpp) at the style's size. Throws as check_drawable.
void render_problem(const Problem& problem, PanelStack& out);
/// Renders one panel of a problem of configuration `config`.
Image render_panel(ConfigId config, const Panel& panel);
/// Renders every panel of a problem of the original style in file order (its context panels, then
/// the candidates). Throws as check_drawable.
std::vector<Image> render_problem(const Problem& problem);
/// The same into `images` (resized; its storage is reused across calls).
void render_problem(const Problem& problem, std::vector<Image>& images);
/// Lets the template cache of `config` read its templates from the disk cache of this build
/// (common/cache_file.hpp; each on first use), or builds every template (each slot, Type, Size and
/// Angle) and writes that cache: what a reader of many panels calls once (perception's tables)
/// instead of building templates one by one. Thread-safe; a second call returns at once.
void warm_templates(ConfigId config);
/// The XML `real_bbox` and `mask` of an entity of component `component` (docs/format.md#real_bbox,
/// #mask), from its rendering template; what engine/formats' XML writer takes as its EntityMarksFn.
EntityMarks entity_marks(ConfigId config, int component, const Entity& entity);

}  // namespace rave::engine
