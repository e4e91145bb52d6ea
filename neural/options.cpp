#include "neural/options.hpp"

#include <array>
#include <utility>

#include "common/error.hpp"

namespace rave::neural {
namespace {

struct ModelName {
  ModelKind kind;
  std::string_view key;
  std::string_view paper;
};
constexpr std::array<ModelName, 6> kModelNames{{
    {ModelKind::kLstm, "lstm", "LSTM"},
    {ModelKind::kWReN, "wren", "WReN"},
    {ModelKind::kCnn, "cnn", "CNN"},
    {ModelKind::kResNet, "resnet", "ResNet"},
    {ModelKind::kPredRNet, "predrnet", "PredRNet"},
    {ModelKind::kScl, "scl", "SCL"},
}};

const ModelName& entry(ModelKind kind) {
  for (const auto& m : kModelNames)
    if (m.kind == kind) return m;
  RAVE_CHECK(false, "unknown ModelKind");
}

}  // namespace

std::optional<ModelKind> parse_model_kind(std::string_view word) {
  for (const auto& m : kModelNames)
    if (m.key == word) return m.kind;
  return std::nullopt;
}

std::string_view model_key(ModelKind kind) { return entry(kind).key; }
std::string_view model_paper_name(ModelKind kind) { return entry(kind).paper; }
int default_image_size(ModelKind kind) {
  if (kind == ModelKind::kScl) return 160;
  return kind == ModelKind::kResNet ? 224 : 80;
}

std::optional<DeviceSpec> parse_device(std::string_view word) {
  if (word == "auto") return DeviceSpec{Device::kAuto, -1};
  if (word == "cpu") return DeviceSpec{Device::kCpu, -1};
  if (word == "cuda") return DeviceSpec{Device::kCuda, -1};
  constexpr std::string_view kPrefix = "cuda:";
  if (!word.starts_with(kPrefix) || word.size() == kPrefix.size() ||
      word.size() > kPrefix.size() + 3)
    return std::nullopt;
  int index = 0;
  for (char c : word.substr(kPrefix.size())) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + (c - '0');
  }
  return DeviceSpec{Device::kCuda, index};
}

std::optional<Precision> parse_precision(std::string_view word) {
  if (word == "fp32") return Precision::kFp32;
  if (word == "bf16") return Precision::kBf16;
  return std::nullopt;
}

std::string_view precision_name(Precision precision) {
  return precision == Precision::kBf16 ? "bf16" : "fp32";
}

int resolved_image_size(const ModelOptions& options) {
  return options.image_size > 0 ? options.image_size : default_image_size(options.kind);
}

std::string display_name(const ModelOptions& options) {
  std::string name(model_paper_name(options.kind));
  if (options.kind == ModelKind::kWReN && !options.wren_tag) name += "-NoTag";
  if (options.drt) name += "+DRT";
  if (options.drt && options.drt_width > 0)
    name.append("-").append(std::to_string(options.drt_width));
  return name;
}

void validate(const ModelOptions& options) {
  const int size = resolved_image_size(options);
  if (options.kind == ModelKind::kResNet || options.kind == ModelKind::kPredRNet ||
      options.kind == ModelKind::kScl) {
    if (size < 32 || size > 1024)
      throw UsageError("image size " + std::to_string(size) + ": " +
                       std::string(model_paper_name(options.kind)) + " needs 32..1024 pixels");
  } else if (size != 80) {
    throw UsageError("image size " + std::to_string(size) + ": " +
                     std::string(model_paper_name(options.kind)) +
                     " is defined for 80x80 panels only (its conv stack flattens 4x4 maps, "
                     "docs/neural-reference.md#models)");
  }
  if ((options.kind == ModelKind::kPredRNet || options.kind == ModelKind::kScl) && options.drt)
    throw UsageError(std::string(model_paper_name(options.kind)) +
                     " has no Dynamic Residual Tree (drop --drt)");
  if (options.drt_width < 0 || (options.drt_width > 0 && !options.drt))
    throw UsageError("the tree width needs --drt and a positive width");
  if (!options.label_embeddings.empty() &&
      options.label_embeddings.size() != static_cast<std::size_t>(kNumLabels) * kEmbeddingDim)
    throw UsageError("label embeddings must be a 22x300 table");
}

}  // namespace rave::neural
