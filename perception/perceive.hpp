#pragma once
// A whole problem read from its panel images (the npz `image` array), nothing else: the
// configuration is the one whose slots read every panel, each panel is parsed exactly
// (perception/panel_parse.hpp) and, where that fails (noisy pixels), by least absolute difference
// (perception/robust_parse.hpp). The result keeps every reading that renders identically, grouped
// per panel for a solver to marginalise over, and says how well the parse explains the pixels.
// An N x N problem's N*N+7 panels are read alike (N from the panel count). Panels of another
// render style (engine/model/style.hpp) are read by that style's renderer
// (perception/styled_parse.hpp): the options name the style and the variant's level and
// confounder counts, what the picture's legend would say; the configuration, the matrix side and
// every entity's levels come from the pixels.
//
//   PerceivedProblem p = perceive(npz.image());          // 16 x 160 x 160 bytes
//   if (!p.recognised) fail(p.failure);
//   engine::Problem symbols = p.problem();                // first readings, no rules, no target
//   for (const engine::Panel& reading : p.alternatives[8]) ...   // candidate 0's readings
//   PerceivedProblem q = perceive(pixels, 224, {.style = parse_style("clean"), .variant = v});
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"
#include "engine/model/style.hpp"
#include "perception/panel_parse.hpp"

namespace rave::perception {

/// At most this many whole-panel readings per panel are handed to a solver.
inline constexpr int kMaxPanelReadings = 16;
/// Mean absolute difference per pixel above which an image is not taken for a RAVEN panel.
inline constexpr double kMaxResidual = 24.0;

/// How the pictures were drawn: the style, and the variant's `values` and `confounders` (its
/// grid comes from the panel count; regimes change no drawing).
struct PerceiveOptions {
  engine::RenderStyle style{};
  engine::Variant variant{};
};

/// What perception makes of one problem's images.
struct PerceivedProblem {
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  engine::Variant variant{};    ///< the options' values and confounders, the grid read
  engine::RenderStyle style{};  ///< the style read with
  bool recognised = false;  ///< a configuration reads every panel (exactly, or within kMaxResidual)
  bool exact = false;       ///< every panel's parse re-renders to its image byte for byte
  std::string failure;      ///< why not recognised (one line)
  std::vector<PanelParse> panels;  ///< one per panel, file order
  /// Per panel, its readings as whole panels: every combination of the entities' readings, at
  /// most kMaxPanelReadings. [0] is panels[i].panel.
  std::vector<std::vector<engine::Panel>> alternatives;
  /// Per panel, the mean absolute difference per pixel between the image and its parse's render.
  std::vector<double> residual;
  /// Pairs (i < j) of candidates whose images are identical, byte for byte.
  std::vector<std::pair<int, int>> identical_candidates;

  /// The largest residual of any panel.
  double max_residual() const;
  /// The first readings as a problem of `config`: no rules, no target.
  engine::Problem problem() const;
  /// Panels: the context's N*N-1, then the 8 candidates.
  int panel_count() const { return static_cast<int>(panels.size()); }
  int context_panels() const { return panel_count() - engine::kCandidates; }
};

/// Reads the original style's panels in `images` (P x kPanelPixels bytes, file order; P = 16 or
/// an N x N problem's N*N+7).
PerceivedProblem perceive(std::span<const std::uint8_t> images);
/// Reads panels of `side` pixels drawn as `options` say.
PerceivedProblem perceive(std::span<const std::uint8_t> images, int side,
                          const PerceiveOptions& options);

/// The 16 panels as one buffer in file order, the layout perceive() reads (e.g. from
/// engine::render_problem).
std::vector<std::uint8_t> panel_bytes(std::span<const engine::Image> panels);

/// The whole-panel readings of a parse (see PerceivedProblem::alternatives).
std::vector<engine::Panel> panel_readings(const PanelParse& parse);

}  // namespace rave::perception
