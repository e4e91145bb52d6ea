// The fast renderer: each entity's colour-independent template
// (engine/render/internal/entity_template.hpp) is composited over its own pixels only; the
// full-frame reference in render_opencv.cpp and the conformance tests hold it to the original byte
// for byte.
#include "engine/render/render.hpp"

#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "common/cache_file.hpp"
#include "common/error.hpp"
#include "engine/model/attributes.hpp"
#include "engine/model/style_limits.hpp"
#include "engine/render/internal/entity_template.hpp"
#include "engine/render/styled.hpp"

namespace rave::engine {
namespace {

using internal::EntityTemplate;
using internal::kWeightBias;

// One weighted pixel: v = (fill*wf + 255*wl + 2^14) >> 15 from the biased weights; a nonzero v
// replaces the ink, i.e. the output becomes 255 - v (= ~v in 8 bits).
inline void blend_pixel(std::uint8_t& dst, const std::int16_t* w, int fill, int bias) {
  const int v = (fill * w[0] + 255 * w[1] + bias) >> 15;
  const std::uint8_t keep = v == 0 ? 0xFF : 0x00;
  dst = static_cast<std::uint8_t>((dst & keep) | (~v & ~keep));
}

// A weighted run, four pixels per step on SSE2: pmaddwd forms fill*wf + 255*wl for each
// interleaved (wf, wl) pair, then the same shift and the same replace-if-nonzero as blend_pixel.
void blend_run(std::uint8_t* dst, const std::int16_t* w, int length, int fill, int bias) {
  int i = 0;
#ifdef __SSE2__
  const __m128i coefficients = _mm_set1_epi32((255 << 16) | fill);
  const __m128i round = _mm_set1_epi32(bias), zero = _mm_setzero_si128();
  for (; i + 4 <= length; i += 4) {
    const __m128i weights = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 2 * i));
    const __m128i v32 =
        _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(weights, coefficients), round), 15);
    const __m128i v8 = _mm_packus_epi16(_mm_packs_epi32(v32, zero), zero);
    std::int32_t old_bits;
    std::memcpy(&old_bits, dst + i, 4);
    const __m128i old = _mm_cvtsi32_si128(old_bits), keep = _mm_cmpeq_epi8(v8, zero);
    const __m128i out = _mm_or_si128(_mm_and_si128(keep, old),
                                     _mm_andnot_si128(keep, _mm_xor_si128(v8, _mm_set1_epi8(-1))));
    const std::int32_t out_bits = _mm_cvtsi128_si32(out);
    std::memcpy(dst + i, &out_bits, 4);
  }
#endif
  for (; i < length; ++i) blend_pixel(dst[i], w + 2 * i, fill, bias);
}

// Warps the template's pixels with fill value `fill` and lets every nonzero result v replace
// the layer below (layer_add of rendering.py). The panel is kept in output form, 255 - ink, so
// "replace the ink by v" is "write 255 - v".
void composite(std::uint8_t* panel, const EntityTemplate& t, int fill) {
  const int bias = kWeightBias * (fill + 255) + (1 << 14);
  const std::int16_t* weights = t.weights.data();
  for (const internal::TemplateSegment& s : t.segments) {
    std::uint8_t* dst = panel + s.y * kPanelSize + s.x;
    switch (s.kind) {
      case internal::SegmentKind::kFill:
        if (fill != 0) std::memset(dst, 255 - fill, static_cast<std::size_t>(s.length));
        break;
      case internal::SegmentKind::kLine:
        std::memset(dst, 0, static_cast<std::size_t>(s.length));
        break;
      case internal::SegmentKind::kWeighted:
        blend_run(dst, weights + 2 * static_cast<std::ptrdiff_t>(s.offset), s.length, fill, bias);
        break;
    }
  }
}

// The structure layer goes on top: 1-pixel black separators (docs/rendering.md).
void draw_structure(std::uint8_t* panel, std::string_view structure) {
  if (structure == "Left_Right")
    for (int y = 0; y < kPanelSize; ++y) panel[y * kPanelSize + kPanelSize / 2] = 0;
  if (structure == "Up_Down") std::memset(panel + (kPanelSize / 2) * kPanelSize, 0, kPanelSize);
}

}  // namespace

Image render_panel(ConfigId config, const Panel& panel) {
  const Configuration& c = configuration(config);
  RAVE_CHECK(panel.components.size() == c.components.size(),
             "panel does not fit its configuration");
  Image image;
  image.fill(255);
  for (std::size_t k = 0; k < c.components.size(); ++k)
    for (const Entity& e : panel.components[k].entities) {
      RAVE_CHECK(e.color >= 0 && e.color < static_cast<int>(kColorValues.size()),
                 "Color level out of range");
      const int fill = 255 - kColorValues[static_cast<std::size_t>(e.color)];
      composite(image.data(), internal::entity_template(config, static_cast<int>(k), e), fill);
    }
  draw_structure(image.data(), c.structure);
  return image;
}

void check_drawable(const Problem& problem) {
  if (std::string why = style_defect(problem.style, problem.variant, problem.config); !why.empty())
    throw UsageError(why);
}

void render_problem(const Problem& problem, std::vector<Image>& images) {
  RAVE_CHECK(problem.style.is_original(), "Image panels are the original style's");
  check_drawable(problem);
  images.resize(static_cast<std::size_t>(problem.panel_count()));
  for (int i = 0; i < problem.panel_count(); ++i)
    images[static_cast<std::size_t>(i)] = render_panel(problem.config, problem.panel(i));
}

void render_problem(const Problem& problem, PanelStack& out) {
  check_drawable(problem);
  const int panels = problem.panel_count();
  out.side = problem.style.size;
  out.pixels.resize(out.panel_bytes() * static_cast<std::size_t>(panels));
  if (problem.style.is_original()) {
    for (int i = 0; i < panels; ++i) {
      const Image image = render_panel(problem.config, problem.panel(i));
      std::memcpy(out.panel(i), image.data(), image.size());
    }
    return;
  }
  const LevelLooks looks(problem.style, problem.variant);
  for (int i = 0; i < panels; ++i)
    render_styled_panel(problem.config, problem.panel(i), looks, out.panel(i));
}

std::vector<Image> render_problem(const Problem& problem) {
  std::vector<Image> images;
  render_problem(problem, images);
  return images;
}

void warm_templates(ConfigId config) {
  static std::array<std::once_flag, kNumConfigs> once;
  std::call_once(once[static_cast<std::size_t>(config_index(config))], [config] {
    const std::string name = "render-templates-" + std::string(configuration(config).folder);
    const auto path = cache_path(name);
    if (path) {
      auto file = std::make_shared<CacheMapping>();
      if (const auto bytes = read_cache(*path, name, *file)) try {
          internal::attach_config_templates(config, *bytes, file);
          return;
        } catch (const CacheError&) {  // a file of another layout: rebuilt below
        }
    }
    const internal::TemplateBytes made = internal::config_templates_bytes(config);
    if (path) write_cache(*path, name, made.bytes, made.checked);
  });
}

EntityMarks entity_marks(ConfigId config, int component, const Entity& entity) {
  const internal::EntityTemplate& t = internal::entity_template(config, component, entity);
  return {t.real_bbox_json, t.mask_rle};
}

}  // namespace rave::engine
