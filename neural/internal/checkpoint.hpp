#pragma once
// Checkpoint files of rave::neural: a LibTorch archive holding the run's record (the LibTorch
// version that wrote it, architecture and label table, every parameter's name and shape, epochs,
// settings, history) as one JSON object written by field name with nlohmann-json, beside the
// model weights and, in last.pt, Adam's state. Written to memory and renamed into place
// (common/atomic_file.hpp). Loading checks the CRC-32 of every member of the archive first (LibTorch
// checks none), then the record before touching the weights, so a damaged file, a checkpoint of
// another model or a foreign file is a one-line InputError; weights of another shape, or holding a
// NaN or an infinity, are refused, and a resume is refused unless the same LibTorch wrote it
// (Adam's state is keyed by pointer text in 1.13, by number in 2.x) and every moment fits its
// parameter and is finite.
#include <torch/optim/optimizer.h>
#include <torch/serialize/input-archive.h>

#include <filesystem>
#include <memory>

#include "neural/adam.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/models.hpp"

namespace rave::neural::internal {

/// Writes model weights (+ optimizer state when given) and the record to `path` atomically.
void save_checkpoint(const std::filesystem::path& path, const CheckpointInfo& info,
                     RavenModelImpl& model, const torch::optim::Optimizer* optimizer);

/// One line of metrics.jsonl: the epoch's record as a JSON object, by field name.
std::string metrics_json_line(const EpochMetrics& metrics);

/// An opened checkpoint: its record and the archive the weights are read from.
struct OpenCheckpoint {
  CheckpointInfo info;
  torch::serialize::InputArchive archive;
};
/// Opens and checks the archive's CRCs and the record, tensors mapped to `device`; InputError if
/// missing, damaged (truncated, empty, a byte changed) or not a rave checkpoint.
OpenCheckpoint open_checkpoint(const std::filesystem::path& path,
                               const torch::Device& device = torch::kCPU);
/// Builds the recorded model on `device` and loads its weights.
std::shared_ptr<RavenModelImpl> load_model(OpenCheckpoint& checkpoint,
                                           const std::filesystem::path& path,
                                           const torch::Device& device);
/// Loads the weights into an existing model, after checking its architecture matches the record;
/// InputError if one is not finite.
void load_weights(OpenCheckpoint& checkpoint, const std::filesystem::path& path,
                  RavenModelImpl& model);
/// Refuses (InputError naming both versions) to resume from a checkpoint that another LibTorch
/// wrote; load_weights has refused other parameter shapes already.
void check_resumable(const OpenCheckpoint& checkpoint, const std::filesystem::path& path);
/// Loads Adam's state (last.pt) and checks that every moment fits its parameter; InputError
/// naming the parameter if one does not, or if the checkpoint has no optimizer state.
void load_optimizer(OpenCheckpoint& checkpoint, const std::filesystem::path& path,
                    FusedAdam& optimizer, RavenModelImpl& model);

/// The first parameter or buffer of `model` holding a NaN or an infinity, as "parameter 'x' holds
/// 3 NaN and 0 infinite values"; "" when every value is finite.
std::string non_finite_weights(RavenModelImpl& model);

/// "2.11.0": the LibTorch this rave is built with.
std::string libtorch_version();
/// The model's parameters by name and shape, in order.
std::vector<ParameterShape> parameter_shapes(RavenModelImpl& model);

}  // namespace rave::neural::internal
