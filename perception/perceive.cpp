#include "perception/perceive.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "perception/robust_parse.hpp"

namespace rave::perception {
namespace {

using engine::ConfigId;
using engine::Entity;

const std::uint8_t* panel_at(std::span<const std::uint8_t> images, int i) {
  return images.data() + static_cast<std::size_t>(i) * engine::kPanelPixels;
}

// Whether row (or column) 80 is a structure separator: every pixel of it dark. No entity spans a
// panel's whole height or width (Size <= 0.9), so nothing else draws one.
bool separator(const std::uint8_t* image, bool column) {
  constexpr int kMid = engine::kPanelSize / 2;
  constexpr int kDark = 100;
  for (int i = 0; i < engine::kPanelSize; ++i)
    if (image[column ? i * engine::kPanelSize + kMid : kMid * engine::kPanelSize + i] >= kDark)
      return false;
  return true;
}

// The configurations worth trying for a panel: the separators decide L-R and U-D.
std::vector<ConfigId> candidate_configs(const std::uint8_t* image) {
  if (separator(image, true)) return {ConfigId::kLeftRight};
  if (separator(image, false)) return {ConfigId::kUpDown};
  return {ConfigId::kOutInCenter, ConfigId::kOutInGrid, ConfigId::kCenterSingle,
          ConfigId::kDistributeFour, ConfigId::kDistributeNine};
}

// Reads every panel as `config`: exactly where possible, else by least difference. False when the
// parse of some panel leaves more than kMaxResidual.
bool read_all(ConfigId config, std::span<const std::uint8_t> images, PerceivedProblem& out) {
  out.config = config;
  out.exact = true;
  for (int i = 0; i < engine::kPanels; ++i) {
    out.panels[i] = parse_panel(config, panel_at(images, i));
    out.residual[i] = 0;
    if (!out.panels[i].exact)
      out.panels[i] = parse_panel_robust(config, panel_at(images, i), out.residual[i]);
    out.exact = out.exact && out.panels[i].exact;
    if (out.residual[i] > kMaxResidual) return false;
  }
  return true;
}

// The configuration whose robust parse of the first panel leaves the least residual.
ConfigId nearest_config(const std::uint8_t* image, double& residual) {
  ConfigId best = ConfigId::kCenterSingle;
  residual = 1e9;
  for (ConfigId config : candidate_configs(image)) {
    double r = 0;
    parse_panel_robust(config, image, r);
    if (r < residual) residual = r, best = config;
  }
  return best;
}

}  // namespace

double PerceivedProblem::max_residual() const {
  return *std::max_element(residual.begin(), residual.end());
}

engine::Problem PerceivedProblem::problem() const {
  engine::Problem p;
  p.config = config;
  for (int i = 0; i < engine::kPanels; ++i) p.panel(i) = panels[i].panel;
  return p;
}

// Every combination of the entities' readings, counted in mixed radix (the first entity with
// several readings the fastest digit), at most kMaxPanelReadings. Entities choose independently:
// under copies (Size Constant, non-uniform) an ambiguous square's level travels to entities that
// show theirs, so equal-looking entities of one panel may differ.
std::vector<engine::Panel> panel_readings(const PanelParse& parse) {
  std::vector<std::pair<std::size_t, std::size_t>> ambiguous;  // (component, entity)
  int combinations = 1;
  for (std::size_t c = 0; c < parse.readings.size(); ++c)
    for (std::size_t j = 0; j < parse.readings[c].size(); ++j) {
      const int size = static_cast<int>(parse.readings[c][j].size());
      if (size < 2) continue;
      ambiguous.emplace_back(c, j);
      combinations = std::min(kMaxPanelReadings, combinations * size);
    }
  std::vector<engine::Panel> out;
  for (int n = 0; n < combinations; ++n) {
    engine::Panel panel = parse.panel;
    int rest = n;
    for (const auto& [c, j] : ambiguous) {
      const auto& list = parse.readings[c][j];
      const int size = static_cast<int>(list.size());
      panel.components[c].entities[j] = list[static_cast<std::size_t>(rest % size)];
      rest /= size;
    }
    out.push_back(std::move(panel));
  }
  return out;
}

std::vector<std::uint8_t> panel_bytes(std::span<const engine::Image> panels) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(panels.size() * engine::kPanelPixels);
  for (const engine::Image& image : panels) bytes.insert(bytes.end(), image.begin(), image.end());
  return bytes;
}

PerceivedProblem perceive(std::span<const std::uint8_t> images) {
  PerceivedProblem out;
  if (images.size() != static_cast<std::size_t>(engine::kPanels) * engine::kPanelPixels) {
    out.failure =
        "expected 16 panels of 160 x 160 pixels, got " + std::to_string(images.size()) + " bytes";
    return out;
  }
  bool read = false;
  for (ConfigId config : candidate_configs(panel_at(images, 0)))
    if (parse_panel(config, panel_at(images, 0)).exact && (read = read_all(config, images, out)))
      break;
  if (!read) {
    double first = 0;
    const ConfigId config = nearest_config(panel_at(images, 0), first);
    if (first > kMaxResidual || !read_all(config, images, out)) {
      char line[160];
      std::snprintf(line, sizeof line,
                    "not RAVEN panels: the nearest reading (%s) leaves %.1f gray levels per pixel "
                    "(at most %.0f)",
                    std::string(engine::configuration(config).paper_name).c_str(),
                    std::max(first, out.max_residual()), kMaxResidual);
      out.failure = line;
      return out;
    }
  }
  out.recognised = true;
  for (int i = 0; i < engine::kPanels; ++i) out.alternatives[i] = panel_readings(out.panels[i]);
  for (int i = 0; i < engine::kCandidates; ++i)
    for (int j = i + 1; j < engine::kCandidates; ++j)
      if (std::memcmp(panel_at(images, engine::kContextPanels + i),
                      panel_at(images, engine::kContextPanels + j), engine::kPanelPixels) == 0)
        out.identical_candidates.emplace_back(i, j);
  return out;
}

}  // namespace rave::perception
