#include "jobs/dataset_replay.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

#include "common/error.hpp"
#include "common/version.hpp"
#include "engine/encode.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/npz.hpp"
#include "engine/generate.hpp"
#include "engine/model/style_limits.hpp"
#include "engine/render/render.hpp"
#include "jobs/generator_history.hpp"

namespace rave::jobs {
using namespace rave::engine;  // jobs work on their values
namespace {

// Problem k of a configuration, as a stem inside the layout names it.
struct Place {
  ConfigId id = ConfigId::kCenterSingle;
  std::uint64_t k = 0;
};

std::optional<Place> place_of(const std::string& stem, const DatasetManifest& m) {
  const std::size_t slash = stem.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string folder = stem.substr(0, slash), name = stem.substr(slash + 1);
  const auto id = find_configuration(folder);
  if (!id ||
      std::find(m.configurations.begin(), m.configurations.end(), folder) == m.configurations.end())
    return std::nullopt;
  const std::optional<std::uint64_t> k = parse_problem_stem(name).k;
  if (!k || *k >= m.num_samples) return std::nullopt;
  Place p{*id, *k};
  if (name != problem_stem(p.k, split_of(p.k, m.val, m.test)))
    return std::nullopt;  // the only spelling
  return p;
}

// The npz of `made` as the generator writes it, against the file: its bytes when stored, its
// members and arrays when deflated (equal contents deflate to equal bytes; the deflate is not
// redone). `images` are made's panels (empty: symbolic only).
bool npz_equal(const Problem& made, const PanelStack& images, const ProblemPair& pair,
               const DatasetManifest& m, bool fair) {
  if (!m.compress) {
    thread_local std::string bytes;
    encode_stack_npz(bytes, made, images, false, fair);
    return bytes == pair.npz_bytes;
  }
  NpzContents want = stack_npz_contents(made, images);
  want.predict_as_vector = fair;
  const std::vector<std::string> order{"image",       "target",    "predict",       "meta_matrix",
                                       "meta_target", "structure", "meta_structure"};
  std::vector<std::string> keys = pair.npz->keys();
  if (images.pixels.empty()) keys.insert(keys.begin(), "image");
  return keys == order && pair.npz->contents() == want;
}

}  // namespace

Replay::Replay(const DatasetManifest& manifest, AnswerStrategy strategy, Variant variant)
    : manifest_(&manifest),
      strategy_(strategy),
      variant_(std::move(variant)),
      same_version_(manifest.rave_version == version()) {}

std::optional<Replay> Replay::of(const DatasetManifest& m, std::string& why) {
  const auto strategy = parse_strategy(m.answers);
  if (!strategy) {
    why = "answers: '" + m.answers + "' names no generator";
    return std::nullopt;
  }
  try {
    const Variant variant = variant_from_options(
        m.variant.grid, m.variant.values ? std::optional(m.variant.values) : std::nullopt,
        m.variant.confounders, m.variant.regime, m.variant.hold_out);
    check_variant(variant);
    const std::string changed = generator_changes_since(m.rave_version, variant, *strategy);
    if (!changed.empty()) {
      why = "rave.json was written by rave " + m.rave_version + ", and " + changed + ": rave " +
            std::string(version()) + " cannot make its problems again (check it with rave " +
            m.rave_version + ", or without replaying its generator)";
      return std::nullopt;
    }
    Replay replay(m, *strategy, variant);
    if (!m.variant.style.empty()) replay.style_ = parse_style(m.variant.style);
    return replay;
  } catch (const UsageError& e) {
    why = std::string("variant: ") + e.what();
    return std::nullopt;
  }
}

std::optional<std::string> Replay::defect(const std::string& stem, const ProblemPair& pair) const {
  const DatasetManifest& m = *manifest_;
  const auto place = place_of(stem, m);
  if (!place || !pair.npz) return std::nullopt;
  const auto redraw = m.redraws.find(stem);
  Problem made = generate_problem(place->id, strategy_, m.seed, place->k, variant_,
                                  split_of(place->k, m.val, m.test),
                                  redraw == m.redraws.end() ? 0 : redraw->second);
  if (!m.variant.symbolic_only) made.style = style_;
  const bool drawn =
      !m.variant.symbolic_only && style_defect(made.style, made.variant, made.config).empty();
  const std::string xml = drawn ? write_problem_xml(made) : write_problem_xml(made, nullptr);
  const char* what = nullptr;
  if (xml != pair.xml_bytes) {
    what = "its XML differs";
  } else {
    PanelStack own;
    if (drawn && pair.images.pixels.empty()) render_problem(made, own);  // the XML's were not drawn
    const PanelStack& images = !drawn || pair.images.pixels.empty() ? own : pair.images;
    if (!npz_equal(made, images, pair, m, strategy_ == AnswerStrategy::kFair))
      what = "its npz differs";
  }
  if (what == nullptr) return std::string();
  return std::string("made again from rave.json's parameters, ") + what +
         (same_version_ ? " (a parameter of rave.json edited, or the problem replaced)"
                        : " (made by rave " + m.rave_version + ", checked by rave " +
                              std::string(version()) + ": the generator may differ)");
}

}  // namespace rave::jobs
