#include "neural/internal/resume.hpp"

#include <filesystem>
#include <sstream>

#include "common/error.hpp"

namespace rave::neural::internal {
namespace {

template <typename T>
std::string text(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}
std::string text(bool value) { return value ? "on" : "off"; }

// Appends "field A (checkpoint) vs B (now)" when the two differ.
template <typename T>
void compare(std::vector<std::string>& out, const std::string& field, const T& have,
             const T& want) {
  if (!(have == want))
    out.push_back(field + " " + text(have) + " (checkpoint) vs " + text(want) + " (now)");
}

std::string configs_text(const std::vector<engine::ConfigId>& configs) {
  if (configs.empty()) return "all";
  std::string s;
  for (auto c : configs) {
    if (!s.empty()) s += ',';
    s += engine::configuration(c).folder;
  }
  return s;
}

// The data must be the checkpoint's: the same content where the checkpoint knows it (wherever it
// lies now), else the same folder.
void compare_data(std::vector<std::string>& out, const RunSettings& have, const RunSettings& want) {
  if (have.data_identity.empty()) return compare(out, "data", have.data, want.data);
  if (want.data_identity.empty())
    out.push_back("data: the checkpoint's is \"" + have.data_identity + "\", and " + want.data +
                  " has no complete rave.json to say what it holds (regenerate it with the "
                  "checkpoint's command)");
  else
    compare(out, "data", "\"" + have.data_identity + "\"", "\"" + want.data_identity + "\"");
}

}  // namespace

ResolvedWeights resolved_weights(const TrainOptions& o) {
  const ResolvedWeights w{o.meta_alpha.value_or(0.0),
                          o.meta_beta.value_or(o.model.kind == ModelKind::kWReN ? 10.0 : 0.0)};
  const std::string name(model_paper_name(o.model.kind));
  if (w.meta_beta != 0.0 && o.model.kind != ModelKind::kResNet && o.model.kind != ModelKind::kWReN)
    throw UsageError("meta beta (rule-bit loss weight): " + name +
                     " has no rule-bit head (resnet and wren have one)");
  if (w.meta_alpha != 0.0 && o.model.kind != ModelKind::kResNet)
    throw UsageError("meta alpha (structure-bit loss weight): " + name +
                     " has no structure-bit head (resnet has one)");
  return w;
}

RunSettings settings_of(const TrainOptions& o) {
  std::error_code ec;
  const auto data = std::filesystem::weakly_canonical(std::filesystem::absolute(o.data, ec), ec);
  const ResolvedWeights w = resolved_weights(o);
  return {.learning_rate = o.learning_rate,
          .adam_epsilon = o.epsilon,
          .seed = o.seed,
          .data = data.string(),
          .data_identity = o.data_identity,
          .train_limit = o.train_limit,
          .patience = o.patience,
          .batch_size = o.batch_size,
          .world_size = o.distributed.world_size,
          .shuffle_candidates = o.shuffle_candidates,
          .meta_alpha = w.meta_alpha,
          .meta_beta = w.meta_beta,
          .sync_batch_norm = o.sync_batch_norm || o.distributed.world_size == 1,
          .precision = std::string(precision_name(o.precision)),
          .weight_decay = o.weight_decay,
          .hflip = o.hflip,
          .init_weights = o.init_weights.empty()
                              ? std::string()
                              : std::filesystem::absolute(o.init_weights, ec).string(),
          .batch_norm_init = o.uniform_batch_norm_init ? "uniform" : "ones",
          .flush_denormals = o.flush_denormals};
}

void check_resume(const CheckpointInfo& c, const TrainOptions& o, const std::string& file) {
  const RunSettings have = c.settings, want = settings_of(o);
  std::vector<std::string> diffs;
  compare(diffs, "model", std::string(model_key(c.model.kind)),
          std::string(model_key(o.model.kind)));
  compare(diffs, "DRT", c.model.drt, o.model.drt);
  compare(diffs, "image size", resolved_image_size(c.model), resolved_image_size(o.model));
  if (o.model.kind == ModelKind::kWReN)
    compare(diffs, "WReN tag", c.model.wren_tag, o.model.wren_tag);
  if (o.model.drt) compare(diffs, "label embeddings", c.model.label_table, o.model.label_table);
  if (o.model.drt) compare(diffs, "tree width", c.model.drt_width, o.model.drt_width);
  compare(diffs, "learning rate", have.learning_rate, want.learning_rate);
  compare(diffs, "Adam epsilon", have.adam_epsilon, want.adam_epsilon);
  compare(diffs, "seed", have.seed, want.seed);
  compare_data(diffs, have, want);
  compare(diffs, "training problems per configuration", have.train_limit, want.train_limit);
  compare(diffs, "batch size", have.batch_size, want.batch_size);
  compare(diffs, "world size", have.world_size, want.world_size);
  compare(diffs, "candidate shuffling", have.shuffle_candidates, want.shuffle_candidates);
  compare(diffs, "meta alpha", have.meta_alpha, want.meta_alpha);
  compare(diffs, "meta beta", have.meta_beta, want.meta_beta);
  compare(diffs, "synchronised batch norm", have.sync_batch_norm, want.sync_batch_norm);
  compare(diffs, "precision", have.precision, want.precision);
  compare(diffs, "weight decay", have.weight_decay, want.weight_decay);
  compare(diffs, "horizontal flips", have.hflip, want.hflip);
  compare(diffs, "flushing subnormals", have.flush_denormals, want.flush_denormals);
  compare(diffs, "candidates only", c.candidates_only, o.candidates_only);
  compare(diffs, "training configurations", configs_text(c.train_configs),
          configs_text(o.train_configs));
  if (diffs.empty()) return;
  std::string message = file + " was trained with other settings: ";
  for (std::size_t i = 0; i < diffs.size(); ++i) message += (i ? "; " : "") + diffs[i];
  throw UsageError(message +
                   ". Resume with the checkpoint's settings, or start a new run in another folder");
}

}  // namespace rave::neural::internal
