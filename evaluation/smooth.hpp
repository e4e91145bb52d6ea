#pragma once
// Smoothed values (`rave export --smooth P`, docs/evaluation.md#smoothed-values): each Type, Size
// and Color level is shown as a distribution that puts P on the true level and spreads 1 - P over
// its neighbours in the attribute's range (half on each, all of it on the one neighbour at an end
// of the range), as I-RAVEN-X models uncertain perception. Neighbours are one sampling level away
// (engine/model/variant_space.hpp), so under the interpolation regime they are the next levels of
// the same split. P = 1 is the true level alone.
//
//   std::vector<LevelProbability> d = smoothed_level(problem, /*component=*/0, /*attr=*/2,
//   /*level=*/4, 0.8);
//   // {4, 0.8}, {3, 0.1}, {5, 0.1}
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::evaluation {

/// One entry of a smoothed value: a file level and its probability.
struct LevelProbability {
  int level = 0;
  double p = 0;
  friend bool operator==(const LevelProbability&, const LevelProbability&) = default;
};

/// Throws UsageError unless 0 < p <= 1.
void check_smoothing(double p);
/// The distribution of file level `level` of attribute `attr` (0 Type, 1 Size, 2 Color) of
/// component `component` of `problem` under `--smooth p`: the true level first, then its neighbours
/// ascending (their shares rounded to 1e-9).
std::vector<LevelProbability> smoothed_level(const engine::Problem& problem, int component,
                                             int attr, int level, double p);

}  // namespace rave::evaluation
