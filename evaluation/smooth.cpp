#include "evaluation/smooth.hpp"

#include <cmath>

#include "common/error.hpp"
#include "engine/model/variant_space.hpp"

namespace rave::evaluation {

void check_smoothing(double p) {
  if (!(p > 0.0 && p <= 1.0))
    throw UsageError("--smooth takes the probability of the true value, in (0, 1]");
}

std::vector<LevelProbability> smoothed_level(const engine::Problem& problem, int component,
                                             int attr, int level, double p) {
  const engine::VariantSpace& space =
      engine::variant_space(problem.config, problem.variant, problem.split);
  const auto c = static_cast<std::size_t>(component);
  const engine::LayoutSpec& layout = space.config.components.at(c).layout;
  const engine::Range range = attr == 0 ? layout.type : attr == 1 ? layout.size : layout.color;
  const engine::LevelMap& map = space.maps.at(c)[static_cast<std::size_t>(attr)];
  const std::optional<int> index = map.index(level);
  std::vector<LevelProbability> out{{level, p}};
  if (p == 1.0 || !index || !range.contains(*index))
    return out;  // a level off the range has no neighbours to share
  std::vector<int> neighbours;
  for (int i : {*index - 1, *index + 1})
    if (range.contains(i)) neighbours.push_back(map.level(i));
  if (neighbours.empty()) {
    out.front().p = 1.0;  // a one-level range: nothing to share with
    return out;
  }
  // Rounded to 1e-9, so that 1 - 0.8 reads 0.2, not 0.19999999999999996.
  const double share = std::round((1.0 - p) / static_cast<double>(neighbours.size()) * 1e9) / 1e9;
  for (int n : neighbours) out.push_back({n, share});
  return out;
}

}  // namespace rave::evaluation
