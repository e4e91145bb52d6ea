#pragma once
// A whole problem read from its 16 panel images (the npz `image` array), nothing else: the
// configuration is the one whose slots read every panel, each panel is parsed exactly
// (perception/panel_parse.hpp) and, where that fails (noisy pixels), by least absolute difference
// (perception/robust_parse.hpp). The result keeps every reading that renders identically, grouped
// per panel for a solver to marginalise over, and says how well the parse explains the pixels.
//
//   PerceivedProblem p = perceive(npz.image());          // 16 x 160 x 160 bytes
//   if (!p.recognised) fail(p.failure);
//   engine::Problem symbols = p.problem();                // first readings, no rules, no target
//   for (const engine::Panel& reading : p.alternatives[8]) ...   // candidate 0's readings
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"
#include "perception/panel_parse.hpp"

namespace rave::perception {

/// At most this many whole-panel readings per panel are handed to a solver.
inline constexpr int kMaxPanelReadings = 16;
/// Mean absolute difference per pixel above which an image is not taken for a RAVEN panel.
inline constexpr double kMaxResidual = 24.0;

/// What perception makes of one problem's images.
struct PerceivedProblem {
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  bool recognised = false;  ///< a configuration reads every panel (exactly, or within kMaxResidual)
  bool exact = false;       ///< every panel's parse re-renders to its image byte for byte
  std::string failure;      ///< why not recognised (one line)
  std::array<PanelParse, engine::kPanels> panels;
  /// Per panel, its readings as whole panels: every combination of the entities' readings, at
  /// most kMaxPanelReadings. [0] is panels[i].panel.
  std::array<std::vector<engine::Panel>, engine::kPanels> alternatives;
  /// Per panel, the mean absolute difference per pixel between the image and its parse's render.
  std::array<double, engine::kPanels> residual{};
  /// Pairs (i < j) of candidates whose images are identical, byte for byte.
  std::vector<std::pair<int, int>> identical_candidates;

  /// The largest residual of any panel.
  double max_residual() const;
  /// The first readings as a problem of `config`: no rules, no target.
  engine::Problem problem() const;
};

/// Reads the 16 panels in `images` (kPanels x kPanelPixels bytes, file order).
PerceivedProblem perceive(std::span<const std::uint8_t> images);

/// The 16 panels as one buffer in file order, the layout perceive() reads (e.g. from
/// engine::render_problem).
std::vector<std::uint8_t> panel_bytes(std::span<const engine::Image> panels);

/// The whole-panel readings of a parse (see PerceivedProblem::alternatives).
std::vector<engine::Panel> panel_readings(const PanelParse& parse);

}  // namespace rave::perception
