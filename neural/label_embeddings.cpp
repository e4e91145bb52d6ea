#include "neural/label_embeddings.hpp"

#include <cmath>
#include <cstring>
#include <numbers>
#include <string>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/random.hpp"
#include "engine/formats/npy.hpp"
#include "neural/internal/glove_npy.hpp"

namespace rave::neural {
namespace {

// The base words; every label is the sum of the words its name joins with '_' (Left_Right = Left +
// Right, In_Distribute_Four = In + Distribute + Four), the algebra of the original table
// (docs/neural-reference.md#dynamic-residual-tree).
constexpr std::array<std::string_view, 14> kBaseWords{
    "Scene", "Singleton", "Grid",   "Left",   "Right",      "Up",   "Down",
    "Out",   "In",        "Center", "Single", "Distribute", "Four", "Nine"};
constexpr std::uint64_t kEmbeddingSeed = 0x5241564e4c424c53;  // "RAVNLBLS"
constexpr double kWordStdDev = 0.4;                           // GloVe-300-like norms (about 7)

std::vector<float> table_from_npy(std::string_view bytes, const std::string& file);

std::vector<std::string_view> words_of(std::string_view label) {
  std::vector<std::string_view> words;
  while (!label.empty()) {
    const auto cut = label.find('_');
    words.push_back(label.substr(0, cut));
    label = cut == std::string_view::npos ? std::string_view{} : label.substr(cut + 1);
  }
  return words;
}

int base_index(std::string_view word) {
  for (std::size_t i = 0; i < kBaseWords.size(); ++i)
    if (kBaseWords[i] == word) return static_cast<int>(i);
  RAVE_CHECK(false, "label word without a base vector: " + std::string(word));
  return -1;
}

// Base vectors by Box-Muller on Rng doubles: fixed bits on every platform (std
// distributions are not specified bit for bit).
std::vector<double> base_vectors() {
  Rng rng(kEmbeddingSeed);
  std::vector<double> v(kBaseWords.size() * kEmbeddingDim);
  for (std::size_t i = 0; i < v.size(); i += 2) {
    const double u1 = 1.0 - rng.uniform01();  // (0, 1]
    const double u2 = rng.uniform01();
    const double r = std::sqrt(-2.0 * std::log(u1)) * kWordStdDev;
    v[i] = r * std::cos(2 * std::numbers::pi * u2);
    if (i + 1 < v.size()) v[i + 1] = r * std::sin(2 * std::numbers::pi * u2);
  }
  return v;
}

}  // namespace

std::optional<int> label_index(std::string_view name) {
  for (std::size_t i = 0; i < kLabelNames.size(); ++i)
    if (kLabelNames[i] == name) return static_cast<int>(i);
  return std::nullopt;
}

std::vector<float> random_label_embeddings() {
  const std::vector<double> base = base_vectors();
  std::vector<float> table(static_cast<std::size_t>(kNumLabels) * kEmbeddingDim);
  for (int row = 0; row < kNumLabels; ++row) {
    std::vector<double> sum(kEmbeddingDim, 0.0);
    for (auto word : words_of(kLabelNames[static_cast<std::size_t>(row)])) {
      const auto* b = &base[static_cast<std::size_t>(base_index(word)) * kEmbeddingDim];
      for (int d = 0; d < kEmbeddingDim; ++d) sum[static_cast<std::size_t>(d)] += b[d];
    }
    for (int d = 0; d < kEmbeddingDim; ++d)
      table[static_cast<std::size_t>(row) * kEmbeddingDim + d] =
          static_cast<float>(sum[static_cast<std::size_t>(d)]);
  }
  return table;
}

std::vector<float> glove_label_embeddings() {
  return table_from_npy(std::string_view(reinterpret_cast<const char*>(internal::kGloveNpy.data()),
                                         internal::kGloveNpy.size()),
                        "neural/data/glove-22x300.npy");
}

std::vector<float> load_label_embeddings(const std::filesystem::path& npy) {
  return table_from_npy(read_file(npy), npy.string());
}

LabelTable label_table(const std::string& word) {
  if (word == "glove") return {word, glove_label_embeddings()};
  if (word == "random") return {word, random_label_embeddings()};
  return {word, load_label_embeddings(word)};
}

namespace {

std::vector<float> table_from_npy(std::string_view bytes, const std::string& file) {
  const engine::NpyArray a = engine::parse_npy(bytes, file, "");
  const std::vector<std::size_t> shape{kNumLabels, kEmbeddingDim};
  if (a.descr != "<f4" || a.shape != shape)
    throw InputError(
        file, "header",
        "label embeddings must be a float32 (22, 300) array ('<f4'), rows in the order of "
        "docs/neural.md; got '" +
            a.descr + "' with " + std::to_string(a.shape.size()) + " dimensions");
  std::vector<float> table(shape[0] * shape[1]);
  std::memcpy(table.data(), a.data.data(), table.size() * sizeof(float));  // little-endian host
  for (float v : table)
    if (!std::isfinite(v))
      throw InputError(file, "data", "label embeddings contain a non-finite value");
  return table;
}

}  // namespace

}  // namespace rave::neural
