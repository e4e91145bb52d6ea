#include "perception/perceive.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "perception/robust_parse.hpp"
#include "perception/styled_parse.hpp"

namespace rave::perception {
namespace {

using engine::ConfigId;
using engine::Entity;

// How one style's panels are read: exactly, else by least difference (with the residual).
class PanelReader {
 public:
  virtual ~PanelReader() = default;
  virtual PanelParse exact(ConfigId config, const std::uint8_t* image) const = 0;
  virtual PanelParse nearest(ConfigId config, const std::uint8_t* image,
                             double& residual) const = 0;
  /// Whether the middle column (or row) is a structure separator.
  virtual bool separator(const std::uint8_t* image, bool column) const = 0;
};

// The original style: tables of the original renderer (perception/panel_parse.hpp).
class OriginalReader final : public PanelReader {
 public:
  PanelParse exact(ConfigId config, const std::uint8_t* image) const override {
    return parse_panel(config, image);
  }
  PanelParse nearest(ConfigId config, const std::uint8_t* image, double& residual) const override {
    return parse_panel_robust(config, image, residual);
  }
  // Every pixel of row (column) 80 dark: no entity spans a panel's whole height or width (Size
  // <= 0.9), so nothing else draws one.
  bool separator(const std::uint8_t* image, bool column) const override {
    constexpr int kMid = engine::kPanelSize / 2;
    constexpr int kDark = 100;
    for (int i = 0; i < engine::kPanelSize; ++i)
      if (image[column ? i * engine::kPanelSize + kMid : kMid * engine::kPanelSize + i] >= kDark)
        return false;
    return true;
  }
};

// Any other style: analysis by synthesis with its renderer (perception/styled_parse.hpp).
class StyleReader final : public PanelReader {
 public:
  explicit StyleReader(const PerceiveOptions& o) : parser_(styled_parser(o.style, o.variant)) {}
  PanelParse exact(ConfigId config, const std::uint8_t* image) const override {
    double residual = 0;
    return parser_.parse(config, image, residual, /*give_up=*/true);
  }
  PanelParse nearest(ConfigId config, const std::uint8_t* image, double& residual) const override {
    return parser_.parse(config, image, residual);
  }
  bool separator(const std::uint8_t* image, bool column) const override {
    return parser_.separator(image, column);
  }

 private:
  const StyledParser& parser_;
};

// The configurations worth trying for a panel: the separators decide L-R and U-D.
std::vector<ConfigId> candidate_configs(const PanelReader& reader, const std::uint8_t* image) {
  if (reader.separator(image, true)) return {ConfigId::kLeftRight};
  if (reader.separator(image, false)) return {ConfigId::kUpDown};
  return {ConfigId::kOutInCenter, ConfigId::kOutInGrid, ConfigId::kCenterSingle,
          ConfigId::kDistributeFour, ConfigId::kDistributeNine};
}

struct Images {
  std::span<const std::uint8_t> bytes;
  std::size_t panel_bytes;
  int count;
  const std::uint8_t* at(int i) const {
    return bytes.data() + static_cast<std::size_t>(i) * panel_bytes;
  }
};

// Reads every panel as `config`: exactly where possible, else by least difference. False when the
// parse of some panel leaves more than kMaxResidual.
bool read_all(const PanelReader& reader, ConfigId config, const Images& images,
              PerceivedProblem& out) {
  out.config = config;
  out.exact = true;
  for (int i = 0; i < images.count; ++i) {
    const auto k = static_cast<std::size_t>(i);
    out.panels[k] = reader.exact(config, images.at(i));
    out.residual[k] = 0;
    if (!out.panels[k].exact) out.panels[k] = reader.nearest(config, images.at(i), out.residual[k]);
    out.exact = out.exact && out.panels[k].exact;
    if (out.residual[k] > kMaxResidual) return false;
  }
  return true;
}

// The configuration whose least-difference parse of the first panel leaves the least residual.
ConfigId nearest_config(const PanelReader& reader, const std::uint8_t* image, double& residual) {
  ConfigId best = ConfigId::kCenterSingle;
  residual = 1e9;
  for (ConfigId config : candidate_configs(reader, image)) {
    double r = 0;
    reader.nearest(config, image, r);
    if (r < residual) residual = r, best = config;
  }
  return best;
}

// The grid whose N*N+7 panels `count` is (0 when none).
int grid_of(int count) {
  for (int n = engine::kMinGrid; n <= engine::kMaxGrid; ++n)
    if (engine::panel_count(n) == count) return n;
  return 0;
}

std::string not_raven(ConfigId config, double residual) {
  char line[160];
  std::snprintf(line, sizeof line,
                "not RAVEN panels: the nearest reading (%s) leaves %.1f gray levels per pixel "
                "(at most %.0f)",
                std::string(engine::configuration(config).paper_name).c_str(), residual,
                kMaxResidual);
  return line;
}

void find_identical(const Images& images, PerceivedProblem& out) {
  const int first = images.count - engine::kCandidates;
  for (int i = 0; i < engine::kCandidates; ++i)
    for (int j = i + 1; j < engine::kCandidates; ++j)
      if (std::memcmp(images.at(first + i), images.at(first + j), images.panel_bytes) == 0)
        out.identical_candidates.emplace_back(i, j);
}

PerceivedProblem read_problem(const PanelReader& reader, const Images& images,
                              PerceivedProblem out) {
  const auto n = static_cast<std::size_t>(images.count);
  out.panels.resize(n);
  out.residual.assign(n, 0);
  bool read = false;
  for (ConfigId config : candidate_configs(reader, images.at(0)))
    if (reader.exact(config, images.at(0)).exact && (read = read_all(reader, config, images, out)))
      break;
  if (!read) {
    double first = 0;
    const ConfigId config = nearest_config(reader, images.at(0), first);
    if (first > kMaxResidual || !read_all(reader, config, images, out)) {
      out.failure = not_raven(config, std::max(first, out.max_residual()));
      return out;
    }
  }
  out.recognised = true;
  out.alternatives.resize(n);
  for (std::size_t i = 0; i < n; ++i) out.alternatives[i] = panel_readings(out.panels[i]);
  find_identical(images, out);
  return out;
}

}  // namespace

double PerceivedProblem::max_residual() const {
  return residual.empty() ? 0.0 : *std::max_element(residual.begin(), residual.end());
}

engine::Problem PerceivedProblem::problem() const {
  engine::Problem p;
  p.config = config;
  p.variant = variant;
  p.style = style;
  p.context.resize(static_cast<std::size_t>(context_panels()));
  for (int i = 0; i < panel_count(); ++i) p.panel(i) = panels[static_cast<std::size_t>(i)].panel;
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
  return perceive(images, engine::kPanelSize, PerceiveOptions{});
}

PerceivedProblem perceive(std::span<const std::uint8_t> images, int side,
                          const PerceiveOptions& options) {
  PerceivedProblem out;
  out.style = options.style;
  out.variant = options.variant;
  const auto panel = static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
  const int count = panel == 0 ? 0 : static_cast<int>(images.size() / panel);
  const int grid = images.size() % std::max<std::size_t>(panel, 1) == 0 ? grid_of(count) : 0;
  if (grid == 0 || side != options.style.size) {
    out.failure = "expected 16 panels (or N*N+7, N in 3..10) of " +
                  std::to_string(options.style.size) + " x " + std::to_string(options.style.size) +
                  " pixels, got " + std::to_string(images.size()) + " bytes";
    return out;
  }
  out.variant.grid = grid;
  const Images view{images, panel, count};
  if (options.style.is_original()) return read_problem(OriginalReader(), view, std::move(out));
  return read_problem(StyleReader(options), view, std::move(out));
}

}  // namespace rave::perception
