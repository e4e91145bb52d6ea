#include "neural/internal/checkpoint.hpp"

#include <torch/serialize/output-archive.h>

#include <sstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace rave::neural::internal {
namespace {

constexpr const char* kFormat = "rave-neural/1";
constexpr int kHistoryColumns = 8;

// A c10::Error's message without LibTorch's backtrace, on one line.
std::string first_line(const c10::Error& e) {
  std::string s = e.what_without_backtrace();
  return s.substr(0, s.find('\n'));
}

void write_history(torch::serialize::OutputArchive& archive, const std::vector<EpochMetrics>& history) {
  auto t = torch::zeros({static_cast<std::int64_t>(history.size()), kHistoryColumns}, torch::kDouble);
  auto a = t.accessor<double, 2>();
  for (std::size_t i = 0; i < history.size(); ++i) {
    const auto& m = history[i];
    const double row[kHistoryColumns] = {double(m.epoch), m.train_loss, m.train_accuracy, m.val_loss,
                                         m.val_accuracy, m.seconds,     m.train_rate,     m.best ? 1.0 : 0.0};
    for (int c = 0; c < kHistoryColumns; ++c) a[static_cast<std::int64_t>(i)][c] = row[c];
  }
  archive.write("history", t, /*is_buffer=*/true);
}

std::vector<EpochMetrics> read_history(torch::serialize::InputArchive& archive) {
  torch::Tensor t;
  std::vector<EpochMetrics> history;
  if (!archive.try_read("history", t, /*is_buffer=*/true)) return history;
  auto a = t.accessor<double, 2>();
  for (std::int64_t i = 0; i < t.size(0); ++i)
    history.push_back({static_cast<int>(a[i][0]), a[i][1], a[i][2], a[i][3], a[i][4], a[i][5], a[i][6], a[i][7] != 0});
  return history;
}

std::string configs_text(const std::vector<engine::ConfigId>& configs) {
  std::string s;
  for (auto c : configs) s += (s.empty() ? "" : ",") + std::to_string(engine::config_index(c));
  return s;
}

std::vector<engine::ConfigId> parse_configs(const std::string& text) {
  std::vector<engine::ConfigId> out;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty()) out.push_back(static_cast<engine::ConfigId>(std::stoi(part) % engine::kNumConfigs));
  return out;
}

c10::IValue read_value(torch::serialize::InputArchive& archive, const std::string& key, const std::string& file) {
  c10::IValue v;
  if (!archive.try_read(key, v)) throw InputError(file, key, "not a rave checkpoint (no '" + key + "' record)");
  return v;
}

CheckpointRecord read_record(torch::serialize::InputArchive& archive, const std::string& file) {
  const auto format = read_value(archive, "rave_format", file);
  if (!format.isString() || format.toStringRef() != kFormat)
    throw InputError(file, "rave_format", "unsupported checkpoint format (this rave reads " + std::string(kFormat) + ")");
  CheckpointRecord r;
  const auto kind = parse_model_kind(read_value(archive, "model_kind", file).toStringRef());
  if (!kind) throw InputError(file, "model_kind", "unknown model kind");
  r.info.model.kind = *kind;
  r.info.model.drt = read_value(archive, "drt", file).toBool();
  r.info.model.image_size = static_cast<int>(read_value(archive, "image_size", file).toInt());
  r.info.model.wren_tag = read_value(archive, "wren_tag", file).toBool();
  r.info.epoch = static_cast<int>(read_value(archive, "epoch", file).toInt());
  r.info.best_epoch = static_cast<int>(read_value(archive, "best_epoch", file).toInt());
  r.info.best_val_accuracy = read_value(archive, "best_val_accuracy", file).toDouble();
  r.info.candidates_only = read_value(archive, "candidates_only", file).toBool();
  r.info.train_configs = parse_configs(read_value(archive, "train_configs", file).toStringRef());
  r.seed = static_cast<std::uint64_t>(read_value(archive, "seed", file).toInt());
  r.info.history = read_history(archive);
  return r;
}

bool same_architecture(const ModelOptions& a, const ModelOptions& b) {
  return a.kind == b.kind && a.drt == b.drt && resolved_image_size(a) == resolved_image_size(b) &&
         (a.kind != ModelKind::kWReN || a.wren_tag == b.wren_tag);
}

}  // namespace

void save_checkpoint(const std::filesystem::path& path, const CheckpointRecord& record, RavenModelImpl& model,
                     const torch::optim::Optimizer* optimizer) {
  torch::serialize::OutputArchive archive;
  const auto& m = record.info.model;
  archive.write("rave_format", c10::IValue(std::string(kFormat)));
  archive.write("model_kind", c10::IValue(std::string(model_key(m.kind))));
  archive.write("drt", c10::IValue(m.drt));
  archive.write("image_size", c10::IValue(static_cast<std::int64_t>(resolved_image_size(m))));
  archive.write("wren_tag", c10::IValue(m.wren_tag));
  archive.write("epoch", c10::IValue(static_cast<std::int64_t>(record.info.epoch)));
  archive.write("best_epoch", c10::IValue(static_cast<std::int64_t>(record.info.best_epoch)));
  archive.write("best_val_accuracy", c10::IValue(record.info.best_val_accuracy));
  archive.write("candidates_only", c10::IValue(record.info.candidates_only));
  archive.write("train_configs", c10::IValue(configs_text(record.info.train_configs)));
  archive.write("seed", c10::IValue(static_cast<std::int64_t>(record.seed)));
  write_history(archive, record.info.history);
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
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(file, "", "no such checkpoint file");
  OpenCheckpoint c;
  try {
    c.archive.load_from(file, device);
  } catch (const c10::Error& e) {
    throw InputError(file, "", "not a LibTorch archive (" + first_line(e) + ")");
  }
  try {
    c.record = read_record(c.archive, file);
  } catch (const c10::Error& e) {
    throw InputError(file, "", "malformed rave checkpoint record (" + first_line(e) + ")");
  }
  return c;
}

void load_weights(OpenCheckpoint& c, const std::filesystem::path& path, RavenModelImpl& model) {
  const auto& want = model.model_options();
  const auto& have = c.record.info.model;
  if (!same_architecture(want, have))
    throw InputError(path.string(), "model_kind",
                     "checkpoint holds a " + display_name(have) + " model at " + std::to_string(resolved_image_size(have)) +
                         "x" + std::to_string(resolved_image_size(have)) + ", not " + display_name(want) + " at " +
                         std::to_string(resolved_image_size(want)));
  try {
    torch::serialize::InputArchive weights;
    c.archive.read("model", weights);
    model.load(weights);
  } catch (const c10::Error& e) {
    throw InputError(path.string(), "model", "weights do not fit the recorded model (" + first_line(e) + ")");
  }
}

std::shared_ptr<RavenModelImpl> load_model(OpenCheckpoint& c, const std::filesystem::path& path,
                                           const torch::Device& device) {
  auto model = make_model(c.record.info.model);
  load_weights(c, path, *model);
  model->to(device);
  return model;
}

void load_optimizer(OpenCheckpoint& c, const std::filesystem::path& path, torch::optim::Optimizer& optimizer) {
  try {
    torch::serialize::InputArchive state;
    if (!c.archive.try_read("optimizer", state)) throw InputError(path.string(), "optimizer", "no optimizer state to resume from");
    optimizer.load(state);
  } catch (const c10::Error& e) {
    throw InputError(path.string(), "optimizer", "optimizer state does not fit (" + first_line(e) + ")");
  }
}

}  // namespace rave::neural::internal
