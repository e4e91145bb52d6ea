#pragma once
// The original RAVEN solver (spec/raven.md 8): an oracle checker handed the true rules with their
// parameters. It scores a candidate panel by the number of rule checks it passes on the last row (4
// per component; on an N x N matrix the checks read the row's N-1 first panels, docs/variants.md).
// Used for the npz `predict` field and by the RAVEN-FAIR answer-set builder, which rejects a
// distractor that scores as high as the answer. The hidden rule state the original hands its solver
// is read from the matrix itself: parameters from Matrix::rules, and the Distribute_N last-row
// values from the last row of the true matrix.
//
//   int s = oracle_score(matrix, candidate);     // 0 .. 4 * components
#include "engine/rules/matrix.hpp"

namespace rave::engine {

/// Number of satisfied checks of `candidate` as the last panel of `matrix`.
int oracle_score(const Matrix& matrix, const Panel& candidate);
/// The original's prediction: a uniformly random candidate among those with the maximal score.
int oracle_predict(const Matrix& matrix, const std::array<Panel, kCandidates>& candidates,
                   Rng& rng);

}  // namespace rave::engine
