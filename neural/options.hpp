#pragma once
// What a neural run is made of: one of the RAVEN paper's four baselines, with or without the
// Dynamic Residual Tree, at its input size, on a device (docs/neural-reference.md). Torch-free, so
// faces/apps/ can include it without compiling LibTorch headers.
//
//   ModelOptions m{.kind = ModelKind::kResNet, .drt = true};
//   m.image_size == 0;  resolved_image_size(m) == 224;  display_name(m) == "ResNet+DRT"
//   auto kind = parse_model_kind("wren");                  // ModelKind::kWReN
//   auto device = parse_device("cuda:1");                  // {Device::kCuda, 1}
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rave::neural {

/// The four baselines of the paper (docs/neural-reference.md), in the paper's row order, then
/// PredRNet (Yang et al., ICML 2023; docs/neural.md#predrnet) and SCL (Wu et al., 2020;
/// docs/neural.md#scl), models of today's state of the art.
enum class ModelKind { kLstm, kWReN, kCnn, kResNet, kPredRNet, kScl };

/// "cnn", "resnet", "lstm", "wren", "predrnet", "scl" (the CLI's words); nullopt for anything else.
std::optional<ModelKind> parse_model_kind(std::string_view word);
/// The CLI word of a model.
std::string_view model_key(ModelKind kind);
/// The paper's name: "CNN", "ResNet", "LSTM", "WReN", "PredRNet", "SCL".
std::string_view model_paper_name(ModelKind kind);
/// The reference input size: 224 for ResNet18_MLP (argparse default), 160 for SCL (its argparse
/// default), 80 for the others (hard-coded).
int default_image_size(ModelKind kind);

/// Where tensors live. kAuto picks CUDA when the linked LibTorch has it and a GPU is present.
enum class Device { kAuto, kCpu, kCuda };
/// A device and, for CUDA, its index (-1: LOCAL_RANK of a distributed run, else 0).
struct DeviceSpec {
  Device kind = Device::kAuto;
  int index = -1;
  friend bool operator==(const DeviceSpec&, const DeviceSpec&) = default;
};
/// "auto", "cpu", "cuda", "cuda:K"; nullopt otherwise.
std::optional<DeviceSpec> parse_device(std::string_view word);

/// Arithmetic of the forward pass: fp32, or bf16 autocast (matrix products and convolutions in
/// bfloat16, reductions and the loss in fp32; weights and Adam stay fp32).
enum class Precision { kFp32, kBf16 };
/// "fp32", "bf16"; nullopt otherwise.
std::optional<Precision> parse_precision(std::string_view word);
/// "fp32" or "bf16".
std::string_view precision_name(Precision precision);

/// Width of the label-embedding rows (GloVe dimension of the original).
inline constexpr int kEmbeddingDim = 300;
/// Number of rows of the label-embedding table (docs/neural-reference.md).
inline constexpr int kNumLabels = 22;

/// Everything that fixes a model's architecture (and so its checkpoint layout).
struct ModelOptions {
  ModelKind kind = ModelKind::kCnn;
  bool drt = false;      ///< add the Dynamic Residual Tree (docs/neural-reference.md)
  int image_size = 0;    ///< panel side fed to the model; 0 = default_image_size
  bool wren_tag = true;  ///< WReN: append the 9-d panel tag (docs/neural-reference.md)
  /// Width of the tree's inner nodes (leaf, middle, merge; the root maps back to the feature
  /// width); 0 = the feature width, the reference's tree. Smaller: the tree-width ablation.
  int drt_width = 0;
  /// kNumLabels x kEmbeddingDim row-major; empty = the original's GloVe table
  /// (label_embeddings.hpp).
  std::vector<float> label_embeddings = {};
  /// Which table label_embeddings holds: "glove", "random" or the .npy path (the checkpoint records
  /// it).
  std::string label_table = "glove";
};

/// The image size actually used (image_size, or the model's default when 0).
int resolved_image_size(const ModelOptions& options);
/// "CNN", "CNN+DRT", "WReN+DRT", ... as the paper's table rows.
std::string display_name(const ModelOptions& options);
/// Throws UsageError naming the option when the combination cannot be built (e.g. CNN at 64x64).
void validate(const ModelOptions& options);

}  // namespace rave::neural
