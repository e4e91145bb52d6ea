#include "neural/internal/checkpoint.hpp"

#include <torch/serialize/output-archive.h>
#include <torch/version.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/zip.hpp"
#include "neural/adam.hpp"

namespace rave::neural::internal {
namespace {

using nlohmann::json;

// rave-neural/2: the record is one JSON object written by field name (format 1 held columns).
constexpr const char* kFormat = "rave-neural/2";

// Largest checkpoint read: ResNet18_MLP's last.pt (weights and Adam's two moments) is 135 MB.
constexpr std::size_t kMaxCheckpointBytes = std::size_t{4} << 30;

// A c10::Error's message without LibTorch's backtrace, on one line.
std::string first_line(const std::exception& e) {
  std::string s = e.what();
  return s.substr(0, s.find('\n'));
}

json epoch_json(const EpochMetrics& m) {
  json j = {{"epoch", m.epoch},
            {"train_loss", m.train_loss},
            {"train_accuracy", m.train_accuracy},
            {"val_loss", m.val_loss},
            {"val_accuracy", m.val_accuracy},
            {"seconds", m.seconds},
            {"train_problems_per_s", m.train_rate},
            {"best", m.best},
            {"device", m.device}};
  if (m.has_test) {
    j["test_loss"] = m.test_loss;
    j["test_accuracy"] = m.test.overall();
    j["test_correct"] = m.test.correct;
    j["test_total"] = m.test.total;
    j["test_use"] = "diagnosis only; the checkpoint is chosen by validation accuracy";
  }
  return j;
}

EpochMetrics epoch_from(const json& j) {
  EpochMetrics m{.epoch = j.at("epoch").get<int>(),
                 .train_loss = j.at("train_loss").get<double>(),
                 .train_accuracy = j.at("train_accuracy").get<double>(),
                 .val_loss = j.at("val_loss").get<double>(),
                 .val_accuracy = j.at("val_accuracy").get<double>(),
                 .seconds = j.at("seconds").get<double>(),
                 .train_rate = j.at("train_problems_per_s").get<double>(),
                 .best = j.at("best").get<bool>(),
                 .device = j.value("device", std::string()),  // not recorded before 2026-12
                 .has_test = false,
                 .test_loss = 0,
                 .test = {}};
  if (j.contains("test_correct")) {
    m.has_test = true;
    m.test_loss = j.at("test_loss").get<double>();
    m.test.correct = j.at("test_correct").get<decltype(m.test.correct)>();
    m.test.total = j.at("test_total").get<decltype(m.test.total)>();
  }
  return m;
}

json settings_json(const RunSettings& s) {
  return {{"learning_rate", s.learning_rate},
          {"adam_epsilon", s.adam_epsilon},
          {"seed", s.seed},
          {"data", s.data},
          {"data_identity", s.data_identity},
          {"train_limit", s.train_limit},
          {"patience", s.patience},
          {"batch_size", s.batch_size},
          {"world_size", s.world_size},
          {"shuffle_candidates", s.shuffle_candidates},
          {"meta_alpha", s.meta_alpha},
          {"meta_beta", s.meta_beta},
          {"sync_batch_norm", s.sync_batch_norm},
          {"precision", s.precision},
          {"weight_decay", s.weight_decay},
          {"hflip", s.hflip},
          {"init_weights", s.init_weights},
          {"batch_norm_init", s.batch_norm_init},
          {"flush_denormals", s.flush_denormals}};
}

RunSettings settings_from(const json& j) {
  return {.learning_rate = j.at("learning_rate").get<double>(),
          .adam_epsilon = j.value("adam_epsilon", 1e-8),  // not recorded before rave 0.2
          .seed = j.at("seed").get<std::uint64_t>(),
          .data = j.at("data").get<std::string>(),
          .data_identity = j.value("data_identity", std::string()),  // not recorded before 0.4
          .train_limit = j.value("train_limit", std::size_t{0}),
          .patience = j.value("patience", 0),
          .batch_size = j.at("batch_size").get<int>(),
          .world_size = j.at("world_size").get<int>(),
          .shuffle_candidates = j.at("shuffle_candidates").get<bool>(),
          .meta_alpha = j.at("meta_alpha").get<double>(),
          .meta_beta = j.at("meta_beta").get<double>(),
          .sync_batch_norm = j.at("sync_batch_norm").get<bool>(),
          .precision = j.at("precision").get<std::string>(),
          .weight_decay = j.value("weight_decay", 0.0),  // not recorded before 2026-12
          .hflip = j.value("hflip", false),
          .init_weights = j.value("init_weights", std::string()),
          .batch_norm_init = j.value("batch_norm_init", std::string("ones")),
          .flush_denormals = j.value("flush_denormals", false)};  // not recorded before 2026-12-07
}

json parameters_json(const std::vector<ParameterShape>& parameters) {
  json out = json::array();
  for (const auto& p : parameters) out.push_back({{"name", p.name}, {"shape", p.shape}});
  return out;
}

std::vector<ParameterShape> parameters_from(const json& j) {
  std::vector<ParameterShape> out;
  for (const auto& p : j)
    out.push_back(
        {p.at("name").get<std::string>(), p.at("shape").get<std::vector<std::int64_t>>()});
  return out;
}

json record_json(const CheckpointInfo& info, RavenModelImpl& model) {
  const auto& m = info.model;
  json configs = json::array();
  for (auto c : info.train_configs) configs.push_back(engine::configuration(c).folder);
  json history = json::array();
  for (const auto& e : info.history) history.push_back(epoch_json(e));
  return {{"format", kFormat},
          {"libtorch", libtorch_version()},
          {"parameters", parameters_json(parameter_shapes(model))},
          {"model",
           {{"kind", model_key(m.kind)},
            {"drt", m.drt},
            {"image_size", resolved_image_size(m)},
            {"wren_tag", m.wren_tag},
            {"drt_width", m.drt_width},
            {"label_table", m.label_table}}},
          {"epoch", info.epoch},
          {"best_epoch", info.best_epoch},
          {"best_val_accuracy", info.best_val_accuracy},
          {"candidates_only", info.candidates_only},
          {"train_configs", configs},
          {"settings", settings_json(info.settings)},
          {"history", history}};
}

CheckpointInfo info_from(const json& j, const std::string& file) {
  if (j.value("format", "") != kFormat)
    throw InputError(file, "record",
                     "unsupported checkpoint format '" + j.value("format", "") +
                         "' (this rave reads " + kFormat +
                         "; retrain, or evaluate it with the rave that wrote it)");
  CheckpointInfo info;
  const auto& m = j.at("model");
  const auto kind = parse_model_kind(m.at("kind").get<std::string>());
  if (!kind) throw InputError(file, "record.model.kind", "unknown model kind");
  info.model = {.kind = *kind,
                .drt = m.at("drt").get<bool>(),
                .image_size = m.at("image_size").get<int>(),
                .wren_tag = m.at("wren_tag").get<bool>(),
                .drt_width = m.value("drt_width", 0),  // not recorded before 2026-12
                .label_table = m.at("label_table").get<std::string>()};
  info.libtorch = j.value("libtorch", "");
  if (j.contains("parameters")) info.parameters = parameters_from(j.at("parameters"));
  info.epoch = j.at("epoch").get<int>();
  info.best_epoch = j.at("best_epoch").get<int>();
  info.best_val_accuracy = j.at("best_val_accuracy").get<double>();
  info.candidates_only = j.at("candidates_only").get<bool>();
  for (const auto& folder : j.at("train_configs")) {
    const auto config = engine::find_configuration(folder.get<std::string>());
    if (!config)
      throw InputError(file, "record.train_configs", "unknown configuration " + folder.dump());
    info.train_configs.push_back(*config);
  }
  info.settings = settings_from(j.at("settings"));
  for (const auto& e : j.at("history")) info.history.push_back(epoch_from(e));
  return info;
}

CheckpointInfo read_record(torch::serialize::InputArchive& archive, const std::string& file) {
  c10::IValue v;
  if (!archive.try_read("rave_record", v) || !v.isString())
    throw InputError(file, "rave_record",
                     "not a rave checkpoint (no 'rave_record'; rave before format 2 wrote "
                     "'rave_format': retrain with this rave)");
  try {
    return info_from(json::parse(v.toStringRef()), file);
  } catch (const json::exception& e) {
    throw InputError(file, "rave_record",
                     std::string("malformed checkpoint record (") + e.what() + ")");
  }
}

bool same_architecture(const ModelOptions& a, const ModelOptions& b) {
  return a.kind == b.kind && a.drt == b.drt && resolved_image_size(a) == resolved_image_size(b) &&
         (a.kind != ModelKind::kWReN || a.wren_tag == b.wren_tag) && a.drt_width == b.drt_width;
}

// The first difference between two parameter lists ("" when none).
std::string shape_difference(const std::vector<ParameterShape>& have,
                             const std::vector<ParameterShape>& want) {
  for (std::size_t i = 0; i < std::min(have.size(), want.size()); ++i) {
    if (have[i].name != want[i].name)
      return "parameter " + std::to_string(i) + " is '" + have[i].name + "' in the checkpoint, '" +
             want[i].name + "' in the model";
    if (have[i].shape != want[i].shape)
      return "parameter '" + have[i].name + "' is " + shape_text(have[i].shape) +
             " in the checkpoint, " + shape_text(want[i].shape) + " in the model";
  }
  if (have.size() != want.size())
    return std::to_string(have.size()) + " parameters in the checkpoint, " +
           std::to_string(want.size()) + " in the model";
  return "";
}

std::string written_by(const CheckpointInfo& info) {
  return info.libtorch.empty() ? "LibTorch 1.13 (no version recorded)"
                               : "LibTorch " + info.libtorch;
}

// LibTorch reads an archive's members without checking their CRC-32s, so a flipped byte in the
// weights loads as another weight. Every member's bytes (record, code, tensors, Adam's state) are
// checked here, with the zip reader of the npz files, before LibTorch sees them. What no CRC covers
// changes no member's bytes: the names, offsets and sizes both readers follow are checked against
// each other and the CRCs, and a member marked as a folder (miniz would extract nothing) is refused;
// the other header fields neither reader uses. LibTorch stores members uncompressed: they unpack to
// at most the file's size.
void verify_archive(const std::string& bytes, const std::string& file) {
  if (bytes.empty())
    throw InputError(file, "", "empty file (0 bytes), not a checkpoint (was it cut short?)");
  try {
    engine::visit_zip(
        bytes, file, [](std::string_view, std::string_view) {}, {}, bytes.size());
  } catch (const InputError& e) {
    throw InputError(file, e.place(), "damaged or not a checkpoint: " + e.message());
  }
}

// "3 NaN and 1 infinite values" of a floating-point tensor, "" when every value is finite.
std::string non_finite(const torch::Tensor& t) {
  if (!t.defined() || !t.is_floating_point()) return "";
  const auto nan = torch::isnan(t).sum().item<std::int64_t>();
  const auto inf = torch::isinf(t).sum().item<std::int64_t>();
  if (nan == 0 && inf == 0) return "";
  return std::to_string(nan) + " NaN and " + std::to_string(inf) + " infinite values";
}

}  // namespace

std::string libtorch_version() {
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
}

std::vector<ParameterShape> parameter_shapes(RavenModelImpl& model) {
  std::vector<ParameterShape> out;
  for (const auto& p : model.named_parameters())
    out.push_back(
        {p.key(), std::vector<std::int64_t>(p.value().sizes().begin(), p.value().sizes().end())});
  return out;
}

std::string non_finite_weights(RavenModelImpl& model) {
  for (const auto& p : model.named_parameters())
    if (auto what = non_finite(p.value()); !what.empty())
      return "parameter '" + p.key() + "' holds " + what;
  for (const auto& b : model.named_buffers())
    if (auto what = non_finite(b.value()); !what.empty())
      return "buffer '" + b.key() + "' holds " + what;
  return "";
}

std::string metrics_json_line(const EpochMetrics& metrics) {
  return epoch_json(metrics).dump() + "\n";
}

void save_checkpoint(const std::filesystem::path& path, const CheckpointInfo& info,
                     RavenModelImpl& model, const torch::optim::Optimizer* optimizer) {
  torch::serialize::OutputArchive archive;
  archive.write("rave_record", c10::IValue(record_json(info, model).dump()));
  torch::serialize::OutputArchive weights;
  model.save(weights);
  archive.write("model", weights);
  if (optimizer) {
    torch::serialize::OutputArchive state;
    optimizer->save(state);
    archive.write("optimizer", state);
  }
  std::ostringstream bytes;
  archive.save_to(bytes);
  write_file_atomic(path, bytes.view());
}

OpenCheckpoint open_checkpoint(const std::filesystem::path& path, const torch::Device& device) {
  const std::string file = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(file, "", "no such checkpoint file");
  const std::string bytes = read_file(path, kMaxCheckpointBytes);
  verify_archive(bytes, file);
  OpenCheckpoint c;
  try {  // c10::Error, and the TorchScript parser's own errors (ErrorReport)
    c.archive.load_from(bytes.data(), bytes.size(), device);
  } catch (const std::exception& e) {
    throw InputError(file, "", "not a LibTorch archive (" + first_line(e) + ")");
  }
  try {
    c.info = read_record(c.archive, file);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(file, "", "malformed rave checkpoint record (" + first_line(e) + ")");
  }
  return c;
}

void load_weights(OpenCheckpoint& c, const std::filesystem::path& path, RavenModelImpl& model) {
  const auto& want = model.model_options();
  const auto& have = c.info.model;
  if (!same_architecture(want, have))
    throw InputError(path.string(), "model_kind",
                     "checkpoint holds a " + display_name(have) + " model at " +
                         std::to_string(resolved_image_size(have)) + "x" +
                         std::to_string(resolved_image_size(have)) + ", not " + display_name(want) +
                         " at " + std::to_string(resolved_image_size(want)));
  const auto shapes = parameter_shapes(model);
  if (!c.info.parameters.empty())
    if (auto diff = shape_difference(c.info.parameters, shapes); !diff.empty())
      throw InputError(path.string(), "parameters", "weights do not fit the model: " + diff);
  try {
    torch::serialize::InputArchive weights;
    c.archive.read("model", weights);
    model.load(weights);
  } catch (const c10::Error& e) {
    throw InputError(path.string(), "model",
                     "weights do not fit the recorded model (" + first_line(e) + ")");
  }
  // LibTorch's load replaces a tensor whatever its shape: one that changed did not fit.
  if (auto diff = shape_difference(parameter_shapes(model), shapes); !diff.empty())
    throw InputError(path.string(), "model", "weights do not fit the model: " + diff);
  // A run that diverged wrote NaN weights with sound CRCs (rave saved such runs before it checked
  // the loss): they would answer at random, or train on as NaN.
  if (auto what = non_finite_weights(model); !what.empty())
    throw InputError(path.string(), "model",
                     what + ": the run that wrote it had diverged; use an earlier checkpoint");
}

void check_resumable(const OpenCheckpoint& c, const std::filesystem::path& path) {
  if (c.info.libtorch != libtorch_version())
    throw InputError(path.string(), "libtorch",
                     "written by " + written_by(c.info) + ", and this rave runs LibTorch " +
                         libtorch_version() +
                         ": Adam's state does not carry over between LibTorch versions, so the run "
                         "cannot be resumed; evaluate it with `rave eval`, or train a new run");
}

std::shared_ptr<RavenModelImpl> load_model(OpenCheckpoint& c, const std::filesystem::path& path,
                                           const torch::Device& device) {
  auto model = make_model(c.info.model);
  load_weights(c, path, *model);
  model->to(device);
  return model;
}

void load_optimizer(OpenCheckpoint& c, const std::filesystem::path& path, FusedAdam& optimizer,
                    RavenModelImpl& model) {
  try {
    torch::serialize::InputArchive state;
    if (!c.archive.try_read("optimizer", state))
      throw InputError(path.string(), "optimizer", "no optimizer state to resume from");
    optimizer.load(state);
  } catch (const c10::Error& e) {
    throw InputError(path.string(), "optimizer",
                     "optimizer state does not fit (" + first_line(e) + ")");
  }
  for (const auto& p : model.named_parameters()) {
    const auto it = optimizer.state().find(p.value().unsafeGetTensorImpl());
    if (it == optimizer.state().end()) continue;  // no step taken with a gradient for it yet
    const auto why = adam_state_mismatch(
        p.value(), static_cast<const torch::optim::AdamParamState&>(*it->second), false);
    if (!why.empty())
      throw InputError(path.string(), "optimizer",
                       "Adam's state of parameter '" + p.key() + "' does not fit it: " + why);
    const auto& adam = static_cast<const torch::optim::AdamParamState&>(*it->second);
    for (const auto& [moment, t] :
         {std::pair{"first", adam.exp_avg()}, {"second", adam.exp_avg_sq()}})
      if (auto what = non_finite(t); !what.empty())
        throw InputError(path.string(), "optimizer",
                         "Adam's " + std::string(moment) + " moment of parameter '" + p.key() +
                             "' holds " + what + ": the run that wrote it had diverged");
  }
}

}  // namespace rave::neural::internal
