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
constexpr std::array<ModelName, 4> kModelNames{{
    {ModelKind::kLstm, "lstm", "LSTM"},
    {ModelKind::kWReN, "wren", "WReN"},
    {ModelKind::kCnn, "cnn", "CNN"},
    {ModelKind::kResNet, "resnet", "ResNet"},
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
int default_image_size(ModelKind kind) { return kind == ModelKind::kResNet ? 224 : 80; }

std::optional<Device> parse_device(std::string_view word) {
  if (word == "auto") return Device::kAuto;
  if (word == "cpu") return Device::kCpu;
  if (word == "cuda") return Device::kCuda;
  return std::nullopt;
}

int resolved_image_size(const ModelOptions& options) {
  return options.image_size > 0 ? options.image_size : default_image_size(options.kind);
}

std::string display_name(const ModelOptions& options) {
  std::string name(model_paper_name(options.kind));
  if (options.kind == ModelKind::kWReN && !options.wren_tag) name += "-NoTag";
  if (options.drt) name += "+DRT";
  return name;
}

void validate(const ModelOptions& options) {
  const int size = resolved_image_size(options);
  if (options.kind == ModelKind::kResNet) {
    if (size < 32 || size > 1024)
      throw UsageError("--image-size " + std::to_string(size) + ": ResNet18_MLP needs 32..1024 pixels");
  } else if (size != 80) {
    throw UsageError("--image-size " + std::to_string(size) + ": " + std::string(model_paper_name(options.kind)) +
                     " is defined for 80x80 panels only (its conv stack flattens 4x4 maps, spec/neural.md 2)");
  }
  if (!options.label_embeddings.empty() &&
      options.label_embeddings.size() != static_cast<std::size_t>(kNumLabels) * kEmbeddingDim)
    throw UsageError("label embeddings must be a 22x300 table");
}

}  // namespace rave::neural
