#include "perception/styled_parse.hpp"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "engine/render/styled.hpp"

namespace rave::perception {

StyledParser::StyledParser(const engine::RenderStyle& style, const engine::Variant& variant)
    : style_(style),
      variant_(variant),
      looks_(style, variant),
      reader_(looks_, variant.confounders) {}

const StyledLayout& StyledParser::layout(engine::ConfigId config) const {
  const auto i = static_cast<std::size_t>(engine::config_index(config));
  std::call_once(once_[i],
                 [&] { layouts_[i] = std::make_unique<StyledLayout>(style_, variant_, config); });
  return *layouts_[i];
}

bool StyledParser::separator(const std::uint8_t* image, bool column) const {
  const int side = style_.size, mid = side / 2;
  for (int i = 0; i < side; ++i)
    if (image[column ? i * side + mid : mid * side + i] != style_.line) return false;
  return true;
}

namespace {

// The mean absolute difference per pixel between two panels of `pixels` bytes.
double mean_difference(const std::uint8_t* a, const std::uint8_t* b, std::size_t pixels) {
  long sum = 0;
  for (std::size_t p = 0; p < pixels; ++p) sum += std::abs(a[p] - b[p]);
  return static_cast<double>(sum) / static_cast<double>(pixels);
}

}  // namespace

PanelParse StyledParser::parse(engine::ConfigId config, const std::uint8_t* image, double& residual,
                               bool give_up) const {
  const StyledLayout& lay = layout(config);
  const int side = style_.size;
  const std::size_t pixels = static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
  std::vector<std::uint8_t> canvas(pixels, static_cast<std::uint8_t>(style_.background));
  PanelParse parse;
  parse.panel.components.resize(static_cast<std::size_t>(lay.components()));
  parse.readings.resize(parse.panel.components.size());
  const engine::PixelBox all{0, 0, side, side};
  for (int k = 0; k < lay.components(); ++k) {
    const StyledComponent& part = lay.component(k);
    engine::ComponentPanel& comp = parse.panel.components[static_cast<std::size_t>(k)];
    for (int s = 0; s < static_cast<int>(part.places.size()); ++s) {
      const auto r = reader_.read(lay, k, s, image, canvas.data());
      if (!r) continue;
      if (r->sad == LONG_MAX || (give_up && r->sad != 0)) {
        residual = 255;
        return parse;
      }
      comp.entities.push_back(r->entity);
      comp.confounders.insert(comp.confounders.end(), r->confounders.begin(), r->confounders.end());
      parse.readings[static_cast<std::size_t>(k)].push_back({r->entity});
      engine::draw_entity(canvas.data(), side, part.places[static_cast<std::size_t>(s)],
                          reader_.look(*r, part.outer), style_, all);
    }
    if (!part.layout->number.contains(static_cast<int>(comp.entities.size()) - 1)) {
      residual = 255;
      return parse;
    }
  }
  engine::draw_separators(canvas.data(), style_, engine::configuration(config).structure);
  parse.exact = std::memcmp(canvas.data(), image, pixels) == 0;
  residual = parse.exact ? 0.0 : mean_difference(canvas.data(), image, pixels);
  return parse;
}

const StyledParser& styled_parser(const engine::RenderStyle& style,
                                  const engine::Variant& variant) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<StyledParser>> parsers;
  const std::string key = engine::style_text(style) + "/" + std::to_string(variant.values) + "/" +
                          std::to_string(variant.confounders);
  std::lock_guard lock(mutex);
  auto& parser = parsers[key];
  if (!parser) parser = std::make_unique<StyledParser>(style, variant);
  return *parser;
}

}  // namespace rave::perception
