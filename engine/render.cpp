// The fast renderer: each entity's colour-independent template (engine/internal/entity_template.hpp)
// is composited over its own pixels only; the full-frame reference in render_opencv.cpp and the
// conformance tests hold it to the original byte for byte.
#include "engine/render.hpp"

#include <cstring>

#include "common/error.hpp"
#include "engine/attributes.hpp"
#include "engine/internal/entity_template.hpp"

namespace rave::engine {
namespace {

using internal::EntityTemplate;
using internal::kWeightBias;

// Warps the template's pixels with fill value `fill` and lets every nonzero result v replace
// the layer below (layer_add of rendering.py). The panel is kept in output form, 255 - ink, so
// "replace the ink by v" is "write 255 - v". Weighted pixels: v = (fill*wf + 255*wl + 2^14) >> 15,
// computed from the stored biased weights wf - 2^14 and wl - 2^14.
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
      case internal::SegmentKind::kWeighted: {
        const std::int16_t* w = weights + 2 * static_cast<std::ptrdiff_t>(s.offset);
        for (int i = 0; i < s.length; ++i) {
          const int v = (fill * w[2 * i] + 255 * w[2 * i + 1] + bias) >> 15;
          dst[i] = v != 0 ? static_cast<std::uint8_t>(255 - v) : dst[i];
        }
        break;
      }
    }
  }
}

// The structure layer goes on top: 1-pixel black separators (spec 10).
void draw_structure(std::uint8_t* panel, std::string_view structure) {
  if (structure == "Left_Right")
    for (int y = 0; y < kPanelSize; ++y) panel[y * kPanelSize + kPanelSize / 2] = 0;
  if (structure == "Up_Down") std::memset(panel + (kPanelSize / 2) * kPanelSize, 0, kPanelSize);
}

}  // namespace

Image render_panel(ConfigId config, const Panel& panel) {
  const Configuration& c = configuration(config);
  RAVE_CHECK(panel.components.size() == c.components.size(), "panel does not fit its configuration");
  Image image;
  image.fill(255);
  for (std::size_t k = 0; k < c.components.size(); ++k)
    for (const Entity& e : panel.components[k].entities) {
      RAVE_CHECK(e.color >= 0 && e.color < static_cast<int>(kColorValues.size()), "Color level out of range");
      const int fill = 255 - kColorValues[static_cast<std::size_t>(e.color)];
      composite(image.data(), internal::entity_template(config, static_cast<int>(k), e), fill);
    }
  draw_structure(image.data(), c.structure);
  return image;
}

std::array<Image, 16> render_problem(const Problem& problem) {
  std::array<Image, 16> images;
  for (int i = 0; i < 16; ++i) images[static_cast<std::size_t>(i)] = render_panel(problem.config, problem.panel(i));
  return images;
}

std::string_view entity_mask_rle(ConfigId config, int component, const Entity& entity) {
  return internal::entity_template(config, component, entity).mask_rle;
}

}  // namespace rave::engine
