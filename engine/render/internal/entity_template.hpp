#pragma once
// Per-entity rendering templates: everything about an entity's pixels that does not depend on
// its Color, computed once per (configuration slot, Type, Size, Angle) and shared process-wide.
//
// Why this is exact: an entity layer before rotation holds only three values, 0 outside, the fill
// value f inside and 255 on the outline; cv::warpAffine's bilinear step is, per destination pixel,
// (sum of 4 int16 weights x source values + 2^14) >> 15. Grouping the weights by source class gives
// fill_weight and line_weight, and the warped layer of any colour is (f * fill_weight + 255 *
// line_weight + 2^14) >> 15, bit for bit. The XML mask is the same formula with f = 255 compared
// with 255 (docs/format.md#mask). Runs whose value is f (interior) or 255 (solid outline) for
// all ten fills are stored as bare segments (a memset when compositing), the rest as int16 weight
// pairs biased by -2^14.
//
//   const EntityTemplate& t = entity_template(ConfigId::kDistributeFour, 0, entity);
//   for (const auto& s : t.segments) ...          // s.y, s.x, s.length, s.kind, s.offset
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine::internal {

/// Bias subtracted from both weights so each fits int16 (weights lie in [0, 2^15]).
inline constexpr int kWeightBias = 1 << 14;

/// How a segment's pixels come out for every fill value a Color level can give.
enum class SegmentKind : std::uint8_t {
  kWeighted,  ///< per-pixel weights: value = (f * fill_weight + 255 * line_weight + 2^14) >> 15
  kFill,      ///< value is the fill f itself (interior; transparent when f is 0)
  kLine,      ///< value is 255 whatever the fill (solid outline)
};

/// A run of destination pixels on one row.
struct TemplateSegment {
  std::int16_t y = 0, x = 0, length = 0;
  SegmentKind kind = SegmentKind::kWeighted;
  std::int32_t offset =
      0;  ///< kWeighted: index of the first pixel's pair in EntityTemplate::weights / 2
};

/// The colour-independent part of one entity's rendering.
struct EntityTemplate {
  std::vector<TemplateSegment>
      segments;                       ///< raster order; pixels whose value is always 0 are left out
  std::vector<std::int16_t> weights;  ///< kWeighted pixels: fill_weight - 2^14, line_weight - 2^14
  std::string mask_rle;               ///< XML `mask`: "[s1,l1,...]", 1-based starts
  std::string real_bbox_json;         ///< XML `real_bbox`, e.g. "[0.5, 0.5, 0.4312, 0.4312]"
};

/// The template of `entity` in component `component` of `config` (built on first use; the
/// reference stays valid for the life of the process). Thread-safe.
const EntityTemplate& entity_template(ConfigId config, int component, const Entity& entity);
/// Builds a template without the cache (for tests and benchmarks of the cold path).
EntityTemplate build_entity_template(const Slot& slot, const Entity& entity);
/// Every template of `config`'s slots (each Type, Size and Angle), built where missing, as the
/// payload of a cache file (common/cache_file.hpp): an index of `checked` bytes, then the
/// templates, each with its own checksum in the index.
struct TemplateBytes {
  std::string bytes;
  std::size_t checked = 0;
};
TemplateBytes config_templates_bytes(ConfigId config);
/// Lets the cache read the templates of such a payload on first use (each checked then; one that
/// fails is built instead). `file` keeps the memory `payload` views alive. CacheError when the
/// index is not such.
void attach_config_templates(ConfigId config, std::string_view payload,
                             std::shared_ptr<const void> file);

}  // namespace rave::engine::internal
