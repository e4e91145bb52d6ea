// rave.generate_batch: the arrays a model takes (images already at the model's size, targets, rule
// and structure bits, the Dynamic Residual Tree's rows), computed by the C++ core with the GIL
// released, on `threads` TBB workers for a batch, for the original problems and every variant
// rave.generate takes. Resizing is engine::PanelResizer, the one `rave train` feeds its models
// through (160 is the identity, as there).
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/formats/layout.hpp"
#include "engine/generate.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/drt_input.hpp"
#include "engine/model/resize.hpp"
#include "engine/model/structure.hpp"
#include "engine/model/style.hpp"
#include "engine/model/style_limits.hpp"
#include "engine/model/variant.hpp"
#include "engine/render/render.hpp"
#include "engine/render/styled.hpp"
#include "engine/rules/variant_rules.hpp"
#include "python/binding.hpp"

namespace rave::python {
namespace {

using namespace pybind11::literals;
using Bytes = py::array_t<std::uint8_t, py::array::c_style>;
using Int64s = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using Floats = py::array_t<float, py::array::c_style>;

constexpr auto kMetaTarget = std::tuple_size_v<decltype(engine::meta_target({}))>;
constexpr auto kRuleRows = std::tuple_size_v<decltype(engine::meta_matrix({}))>;
constexpr auto kStructureBits =
    std::tuple_size_v<std::remove_cvref_t<decltype(engine::meta_structure({}))>>;
constexpr auto kDrtRows = static_cast<std::size_t>(engine::kDrtRows);

// One configuration for every problem, or one per problem.
std::vector<engine::ConfigId> configs_arg(const py::object& configs, std::size_t n) {
  std::vector<engine::ConfigId> out;
  if (py::isinstance<py::str>(configs)) return {config_arg(configs.cast<std::string>())};
  for (const py::handle name : configs)
    out.push_back(config_arg(py::str(name).cast<std::string>()));
  if (out.size() != n)
    throw UsageError("configs names " + std::to_string(out.size()) + " configurations for " +
                     std::to_string(n) + " indices: give one, or one per index");
  return out;
}

// What every problem of a batch shares: the variant, the split rule and the image size.
struct BatchSpec {
  engine::AnswerStrategy strategy;
  std::uint64_t seed;
  engine::Variant variant;
  std::optional<engine::Split> split;  ///< nullopt: from the index, as a dataset's default splits
  bool images;
  int side;
  engine::RenderStyle style;  ///< its size is `side`: drawn at the model's size, not resized

  engine::Split split_for(std::uint64_t k) const {
    const jobs::DatasetSpec& d = dataset_defaults();
    return split ? *split : engine::split_of(k, d.val, d.test);
  }
  std::size_t panels() const { return static_cast<std::size_t>(engine::panel_count(variant.grid)); }
};

// Draws panel `panel` of `p` at `side` x `side` into `dst`: rendered in place at the native size,
// else rendered into a per-thread panel and resized.
void draw(const engine::Problem& p, int panel, const engine::PanelResizer& resize,
          const engine::LevelLooks* looks, std::uint8_t* dst) {
  if (looks != nullptr) {
    engine::render_styled_panel(p.config, p.panel(panel), *looks, dst);
    return;
  }
  if (resize.out_size() == engine::kPanelSize) {
    new (dst) engine::Image(engine::render_panel(p.config, p.panel(panel)));
    return;
  }
  thread_local engine::Image scratch;
  new (&scratch) engine::Image(engine::render_panel(p.config, p.panel(panel)));
  resize(scratch.data(), dst);
}

// The arrays of a batch, by name, in the order the dict lists them.
using Arrays = std::vector<std::pair<std::string, py::array>>;

Arrays allocate(std::size_t n, const BatchSpec& spec) {
  const auto b = static_cast<py::ssize_t>(n);
  const auto dim = [](std::size_t d) { return static_cast<py::ssize_t>(d); };
  Arrays a;
  if (spec.images)
    a.emplace_back("image",
                   Bytes({b, dim(spec.panels()), py::ssize_t{spec.side}, py::ssize_t{spec.side}}));
  a.emplace_back("target", py::array_t<std::int64_t>(b));
  a.emplace_back("meta_target", Bytes({b, dim(kMetaTarget)}));
  a.emplace_back("meta_matrix", Bytes({b, dim(kRuleRows), dim(kMetaTarget)}));
  a.emplace_back("meta_structure", Bytes({b, dim(kStructureBits)}));
  a.emplace_back("drt_labels", py::array_t<std::int64_t>({b, dim(kDrtRows)}));
  a.emplace_back("drt_indicator", Floats(b));
  a.emplace_back("config", py::array_t<std::int64_t>(b));
  a.emplace_back("index", py::array_t<std::int64_t>(b));
  return a;
}

// The arrays of a previous result `out`, reused when each has the batch size `n` and the dtype and
// trailing dimensions of `wanted` (allocated for 0 problems): no fresh pages to fault in (in a VM
// that costs more than drawing the panels). UsageError naming the array otherwise.
Arrays reuse(const py::dict& out, std::size_t n, const Arrays& wanted) {
  Arrays a;
  for (const auto& [key, want] : wanted) {
    if (!out.contains(key)) throw UsageError("out has no array '" + key + "'");
    const py::object given = out[key.c_str()];
    const bool is_array = py::isinstance<py::array>(given);
    const py::array got = is_array ? given.cast<py::array>() : py::array();
    const bool same =
        is_array && got.ndim() == want.ndim() && got.shape(0) == static_cast<py::ssize_t>(n) &&
        std::equal(got.shape() + 1, got.shape() + got.ndim(), want.shape() + 1) &&
        got.dtype().is(want.dtype()) && got.writeable() && (got.flags() & py::array::c_style) != 0;
    if (!same) throw UsageError("out['" + key + "'] has not the shape and type of this batch's");
    a.emplace_back(key, got);
  }
  return a;
}

// Raw pointers into the arrays, for the workers (which must not touch Python objects).
struct BatchOut {
  std::uint8_t* image = nullptr;  ///< null without images
  std::int64_t *target, *config, *index, *drt_labels;
  std::uint8_t *meta_target, *meta_matrix, *meta_structure;
  float* drt_indicator;
  std::size_t panel_bytes;

  BatchOut(Arrays& a, int side)
      : panel_bytes(static_cast<std::size_t>(side) * static_cast<std::size_t>(side)) {
    std::map<std::string, void*> at;
    for (auto& [key, array] : a) at[key] = array.mutable_data();
    image = static_cast<std::uint8_t*>(at.count("image") ? at["image"] : nullptr);
    target = static_cast<std::int64_t*>(at.at("target"));
    config = static_cast<std::int64_t*>(at.at("config"));
    index = static_cast<std::int64_t*>(at.at("index"));
    drt_labels = static_cast<std::int64_t*>(at.at("drt_labels"));
    meta_target = static_cast<std::uint8_t*>(at.at("meta_target"));
    meta_matrix = static_cast<std::uint8_t*>(at.at("meta_matrix"));
    meta_structure = static_cast<std::uint8_t*>(at.at("meta_structure"));
    drt_indicator = static_cast<float*>(at.at("drt_indicator"));
  }
};

void fill(const engine::Problem& p, std::size_t i, std::uint64_t k,
          const engine::PanelResizer& resize, const engine::LevelLooks* looks, const BatchOut& o) {
  const std::size_t panels = p.context.size() + p.candidates.size();
  for (std::size_t j = 0; o.image && j < panels; ++j)
    draw(p, static_cast<int>(j), resize, looks, o.image + (i * panels + j) * o.panel_bytes);
  o.target[i] = *p.target;
  o.config[i] = engine::config_index(p.config);
  o.index[i] = static_cast<std::int64_t>(k);
  const auto target_bits = engine::meta_target(p.rules);
  std::copy(target_bits.begin(), target_bits.end(), o.meta_target + i * kMetaTarget);
  const auto rows = engine::meta_matrix(p.rules);
  for (std::size_t r = 0; r < kRuleRows; ++r)
    std::copy(rows[r].begin(), rows[r].end(), o.meta_matrix + (i * kRuleRows + r) * kMetaTarget);
  const auto& structure = engine::meta_structure(p.config);
  std::copy(structure.begin(), structure.end(), o.meta_structure + i * kStructureBits);
  const engine::DrtInput drt = engine::drt_input(engine::structure_tree(p.config));
  std::copy(drt.labels.begin(), drt.labels.end(), o.drt_labels + i * kDrtRows);
  o.drt_indicator[i] = drt.indicator;
}

// UsageError when the variant cannot give some (configuration, split) of the batch its rules, or
// its images (values above kMaxDrawableValues).
void check_batch(const BatchSpec& spec, const std::vector<engine::ConfigId>& ids,
                 const std::vector<std::uint64_t>& ks) {
  if (spec.images && !spec.style.is_original())
    for (const engine::ConfigId id : ids)
      if (const std::string why = engine::style_defect(spec.style, spec.variant, id); !why.empty())
        throw UsageError(why + "; images=False gives the other arrays");
  if (spec.images && spec.style.is_original() && !spec.variant.drawable())
    throw UsageError(
        "a problem with values " + std::to_string(spec.variant.values) +
        " cannot be drawn: images need values <= " + std::to_string(engine::kMaxDrawableValues) +
        "; images=False gives the other arrays");
  std::set<std::pair<engine::ConfigId, engine::Split>> seen;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const auto key = std::pair{ids[ids.size() == 1 ? 0 : i], spec.split_for(ks[i])};
    if (!seen.insert(key).second) continue;
    if (const std::string why = engine::variant_rules_defect(key.first, spec.variant, key.second);
        !why.empty())
      throw UsageError(why);
  }
}

std::optional<engine::Split> split_arg(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  const std::string word = *name == "validation" ? "val" : *name;
  if (const auto s = engine::parse_split(word)) return s;
  throw UsageError("split must be train, val (or validation) or test, not '" + *name + "'");
}

py::dict generate_batch(const py::object& configs, const py::object& indices, std::uint64_t seed,
                        const std::string& answers, int image_size, int threads,
                        const py::object& out_arrays, int grid, std::optional<int> values,
                        int confounders, const std::string& regime, const std::string& hold_out,
                        const std::optional<std::string>& split, bool images,
                        const std::string& style) {
  // Integers only: forcecast alone would read 0.5 as problem 0.
  const py::array raw = py::array::ensure(indices);
  if (raw && raw.size() > 0 && raw.dtype().kind() != 'i' && raw.dtype().kind() != 'u')
    throw UsageError("indices must be integers, not " + std::string(py::str(raw.dtype())) +
                     " values");
  const Int64s given = Int64s::ensure(indices);
  if (!given || given.ndim() != 1)
    throw UsageError("indices must be a one-dimensional sequence of integers");
  std::vector<std::uint64_t> ks;
  for (py::ssize_t i = 0; i < given.size(); ++i) ks.push_back(index_arg(given.data()[i]));
  const std::vector<engine::ConfigId> ids = configs_arg(configs, ks.size());
  if (image_size < 1)
    throw UsageError("image_size must be positive, not " + std::to_string(image_size));
  if (threads < 1) throw UsageError("threads must be at least 1, not " + std::to_string(threads));
  BatchSpec spec{
      .strategy = strategy_arg(answers),
      .seed = seed,
      .variant = engine::variant_from_options(grid, values, confounders, regime, hold_out),
      .split = split_arg(split),
      .images = images,
      .side = image_size,
      .style = engine::parse_style(style)};
  if (!spec.style.is_original()) {
    if (image_size < engine::kMinStyleSize || image_size > engine::kMaxStyleSize)
      throw UsageError("image_size " + std::to_string(image_size) + ": a render style draws " +
                       std::to_string(engine::kMinStyleSize) + " to " +
                       std::to_string(engine::kMaxStyleSize) + " pixels");
    spec.style.size = image_size;
  }
  check_batch(spec, ids, ks);
  const std::optional<engine::LevelLooks> looks =
      spec.style.is_original()
          ? std::nullopt
          : std::optional<engine::LevelLooks>(std::in_place, spec.style, spec.variant);
  const engine::PanelResizer resize(engine::kPanelSize, image_size);
  Arrays arrays = out_arrays.is_none()
                      ? allocate(ks.size(), spec)
                      : reuse(out_arrays.cast<py::dict>(), ks.size(), allocate(0, spec));
  const BatchOut out(arrays, image_size);
  {
    py::gil_scoped_release release;
    parallel_for_index(ks.size(), threads, [&](std::size_t i) {
      const auto id = ids[ids.size() == 1 ? 0 : i];
      fill(engine::generate_problem(id, spec.strategy, spec.seed, ks[i], spec.variant,
                                    spec.split_for(ks[i])),
           i, ks[i], resize, looks ? &*looks : nullptr, out);
    });
  }
  if (!out_arrays.is_none()) return out_arrays.cast<py::dict>();
  py::dict d;
  for (const auto& [key, array] : arrays) d[key.c_str()] = array;
  return d;
}

}  // namespace

void bind_batch(py::module_& m) {
  const jobs::DatasetSpec& d = dataset_defaults();
  m.def("generate_batch", &generate_batch, "configs"_a, "indices"_a, "seed"_a = d.seed,
        "answers"_a = std::string(engine::strategy_name(d.answers)),
        "image_size"_a = engine::kPanelSize, "threads"_a = 1, "out"_a = py::none(), py::kw_only(),
        "grid"_a = d.variant.grid, "values"_a = py::none(), "confounders"_a = d.variant.confounders,
        "regime"_a = std::string(engine::regime_name(d.variant.regime)), "hold_out"_a = "",
        "split"_a = py::none(), "images"_a = true, "style"_a = engine::style_text(d.style),
        "problems `indices` of `configs` (one name, or one per index) as a model takes them: a "
        "dict of numpy arrays\n"
        "image (B, P, S, S) uint8 (P = grid*grid - 1 + 8; absent with images=False), target (B,), "
        "meta_target (B, 9),\n"
        "meta_matrix (B, 8, 9), meta_structure (B, 21), drt_labels (B, 6) int64 and drt_indicator "
        "(B,) float32 (the\n"
        "Dynamic Residual Tree's rows and indicator, as `rave train` feeds them), config (B,) "
        "(index into CONFIGS),\n"
        "index (B,). The keywords are rave.generate's variant options; `split` (train, val or "
        "validation, test) draws\n"
        "every problem as one of that split (None: from the index, as rave.generate). `out`: a "
        "previous result of the\n"
        "same batch size and options, filled in place and returned (no new arrays). `style`: a "
        "render style\n(NAME[:key=value,...], docs/rendering.md#styles) drawn at image_size "
        "directly (no resize)");
}

}  // namespace rave::python
