#pragma once
// The original RAVEN solver (docs/rules.md#the-original-solver): an oracle checker handed the true
// rules with their parameters. It scores a candidate panel by the number of rule checks it passes
// on row 3 (4 per component). Used for the npz `predict` field and by the RAVEN-FAIR answer-set
// builder, which rejects a distractor that scores as high as the answer. The hidden rule state the
// original hands its solver is read from the matrix itself: parameters from Matrix::rules, and the
// Distribute_Three third-row triple from row 3 (panels 6, 7, 8) of the true matrix.
//
//   int s = oracle_score(matrix, candidate);     // 0 .. 4 * components
#include "engine/rules/matrix.hpp"

namespace rave::engine {

/// Number of satisfied checks of `candidate` as row 3 col 3 of `matrix`.
int oracle_score(const Matrix& matrix, const Panel& candidate);
/// The original's prediction: a uniformly random candidate among those with the maximal score.
int oracle_predict(const Matrix& matrix, const std::array<Panel, 8>& candidates, Rng& rng);

}  // namespace rave::engine
