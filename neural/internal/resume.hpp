#pragma once
// What a run records about its settings and how a resumed run is checked against them: a resumed
// run must repeat the learning rate, seed, data folder, batch, world size, loss weights, precision
// and model flags of its checkpoint, or it would not continue the same run. Torch-free.
//
//   RunSettings s = settings_of(options);
//   check_resume(checkpoint_info, options, "runs/cnn/last.pt");  // UsageError: each difference
#include <string>

#include "neural/epoch_loop.hpp"

namespace rave::neural::internal {

/// The loss weights of a run (meta_alpha, meta_beta defaults resolved; UsageError when the model
/// has no head for a nonzero weight).
struct ResolvedWeights {
  double meta_alpha = 0, meta_beta = 0;
};
ResolvedWeights resolved_weights(const TrainOptions& options);

/// The settings `options` trains with (the data folder made absolute).
RunSettings settings_of(const TrainOptions& options);

/// UsageError listing every flag whose value differs between the checkpoint at `file` and
/// `options` ("--lr 0.0003 (checkpoint) vs 0.0001 (now)"), and saying how to proceed.
void check_resume(const CheckpointInfo& checkpoint, const TrainOptions& options,
                  const std::string& file);

}  // namespace rave::neural::internal
