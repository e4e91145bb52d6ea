// rave.generate_batch, rave.load_arrays and rave.resize: the arrays a model takes (images already
// at the model's size, targets, rule and structure bits), computed by the C++ core with the GIL
// released, on `threads` TBB workers for a batch. Resizing is engine::PanelResizer, the one `rave
// train` feeds its models through (160 is the identity, as there).
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/formats/npz.hpp"
#include "engine/generate.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/resize.hpp"
#include "engine/model/structure.hpp"
#include "engine/render/render.hpp"
#include "python/binding.hpp"

namespace rave::python {
namespace {

using namespace pybind11::literals;
using Bytes = py::array_t<std::uint8_t, py::array::c_style>;
using Int64s = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

constexpr auto kMetaTarget = std::tuple_size_v<decltype(engine::meta_target({}))>;
constexpr auto kRuleRows = std::tuple_size_v<decltype(engine::meta_matrix({}))>;
constexpr auto kStructureBits =
    std::tuple_size_v<std::remove_cvref_t<decltype(engine::meta_structure({}))>>;

int size_arg(int image_size) {
  if (image_size < 1)
    throw UsageError("image_size must be positive, not " + std::to_string(image_size));
  return image_size;
}

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

// Draws panel `panel` of `p` at `side` x `side` into `dst`: rendered in place at the native size,
// else rendered into a per-thread panel and resized.
void draw(const engine::Problem& p, int panel, const engine::PanelResizer& resize,
          std::uint8_t* dst) {
  if (resize.out_size() == engine::kPanelSize) {
    new (dst) engine::Image(engine::render_panel(p.config, p.panel(panel)));
    return;
  }
  thread_local engine::Image scratch;
  new (&scratch) engine::Image(engine::render_panel(p.config, p.panel(panel)));
  resize(scratch.data(), dst);
}

struct Batch {
  Bytes image;
  py::array_t<std::int64_t> target, config, index;
  Bytes meta_target, meta_matrix, meta_structure;
};

// The arrays of a previous result `out`, reused when each has the shape and type this batch needs
// (no fresh pages to fault in: in a VM that costs more than drawing the panels); UsageError naming
// the array otherwise.
template <class Array>
Array reuse(const py::dict& out, const char* key, const Array& wanted) {
  if (!out.contains(key)) throw UsageError(std::string("out has no array '") + key + "'");
  const py::object given = out[key];
  if (!py::isinstance<Array>(given))
    throw UsageError(std::string("out['") + key +
                     "'] is not a C-contiguous array of the batch's type");
  Array a = given.cast<Array>();
  const bool same =
      a.ndim() == wanted.ndim() && std::equal(a.shape(), a.shape() + a.ndim(), wanted.shape()) &&
      a.dtype().is(wanted.dtype()) && a.writeable() && (a.flags() & py::array::c_style) != 0;
  if (!same)
    throw UsageError(std::string("out['") + key + "'] has not the shape and type of this batch's");
  return a;
}

Batch allocate(std::size_t n, int side) {
  const auto b = static_cast<py::ssize_t>(n);
  return {.image = Bytes(
              {b, static_cast<py::ssize_t>(engine::kPanels), py::ssize_t{side}, py::ssize_t{side}}),
          .target = py::array_t<std::int64_t>(b),
          .config = py::array_t<std::int64_t>(b),
          .index = py::array_t<std::int64_t>(b),
          .meta_target = Bytes({b, static_cast<py::ssize_t>(kMetaTarget)}),
          .meta_matrix = Bytes(
              {b, static_cast<py::ssize_t>(kRuleRows), static_cast<py::ssize_t>(kMetaTarget)}),
          .meta_structure = Bytes({b, static_cast<py::ssize_t>(kStructureBits)})};
}

// Raw pointers into a Batch, for the workers (which must not touch Python objects).
struct BatchOut {
  std::uint8_t* image;
  std::int64_t *target, *config, *index;
  std::uint8_t *meta_target, *meta_matrix, *meta_structure;
  std::size_t panel_bytes;
};

void fill(const engine::Problem& p, std::size_t i, std::uint64_t k,
          const engine::PanelResizer& resize, const BatchOut& o) {
  const std::size_t panels = p.context.size() + p.candidates.size();
  RAVE_CHECK(panels == engine::kPanels, "a batch holds problems of kPanels panels");
  for (std::size_t j = 0; j < panels; ++j)
    draw(p, static_cast<int>(j), resize, o.image + (i * panels + j) * o.panel_bytes);
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
}

Batch reuse_batch(const py::dict& out, std::size_t n, int side) {
  const Batch shape = allocate(0, side);  // dtypes and trailing dimensions
  const auto b = static_cast<py::ssize_t>(n);
  const auto like = [b](const auto& a) {
    std::vector<py::ssize_t> dims(a.shape(), a.shape() + a.ndim());
    dims[0] = b;
    return std::remove_cvref_t<decltype(a)>(dims);
  };
  return {.image = reuse(out, "image", like(shape.image)),
          .target = reuse(out, "target", like(shape.target)),
          .config = reuse(out, "config", like(shape.config)),
          .index = reuse(out, "index", like(shape.index)),
          .meta_target = reuse(out, "meta_target", like(shape.meta_target)),
          .meta_matrix = reuse(out, "meta_matrix", like(shape.meta_matrix)),
          .meta_structure = reuse(out, "meta_structure", like(shape.meta_structure))};
}

py::dict generate_batch(const py::object& configs, const py::object& indices, std::uint64_t seed,
                        const std::string& answers, int image_size, int threads,
                        const py::object& out_arrays) {
  const Int64s ks = Int64s::ensure(indices);
  if (!ks || ks.ndim() != 1)
    throw UsageError("indices must be a one-dimensional sequence of integers");
  const auto n = static_cast<std::size_t>(ks.size());
  for (std::size_t i = 0; i < n; ++i) index_arg(ks.data()[i]);
  const std::vector<engine::ConfigId> ids = configs_arg(configs, n);
  const engine::AnswerStrategy strategy = strategy_arg(answers);
  if (threads < 1) throw UsageError("threads must be at least 1, not " + std::to_string(threads));
  const engine::PanelResizer resize(engine::kPanelSize, size_arg(image_size));
  Batch b = out_arrays.is_none() ? allocate(n, image_size)
                                 : reuse_batch(out_arrays.cast<py::dict>(), n, image_size);
  const BatchOut out{b.image.mutable_data(),
                     b.target.mutable_data(),
                     b.config.mutable_data(),
                     b.index.mutable_data(),
                     b.meta_target.mutable_data(),
                     b.meta_matrix.mutable_data(),
                     b.meta_structure.mutable_data(),
                     static_cast<std::size_t>(image_size) * static_cast<std::size_t>(image_size)};
  const std::int64_t* k = ks.data();
  {
    py::gil_scoped_release release;
    parallel_for_index(n, threads, [&](std::size_t i) {
      const auto id = ids[ids.size() == 1 ? 0 : i];
      const auto ki = static_cast<std::uint64_t>(k[i]);
      fill(engine::generate_problem(id, strategy, seed, ki), i, ki, resize, out);
    });
  }
  if (!out_arrays.is_none()) return out_arrays.cast<py::dict>();
  return py::dict("image"_a = b.image, "target"_a = b.target, "meta_target"_a = b.meta_target,
                  "meta_matrix"_a = b.meta_matrix, "meta_structure"_a = b.meta_structure,
                  "config"_a = b.config, "index"_a = b.index);
}

// Resizes `count` square panels of `in_side` into `dst` (a copy when the sizes agree).
void resize_panels(const std::uint8_t* src, std::size_t count, int in_side, int out_side,
                   std::uint8_t* dst) {
  const auto in_bytes = static_cast<std::size_t>(in_side) * static_cast<std::size_t>(in_side);
  const auto out_bytes = static_cast<std::size_t>(out_side) * static_cast<std::size_t>(out_side);
  if (in_side == out_side) {
    std::memcpy(dst, src, count * in_bytes);
    return;
  }
  const engine::PanelResizer resize(in_side, out_side);
  for (std::size_t i = 0; i < count; ++i) resize(src + i * in_bytes, dst + i * out_bytes);
}

template <std::size_t N>
Bytes bytes_of(const std::array<std::uint8_t, N>& values) {
  return Bytes(static_cast<py::ssize_t>(N), values.data());
}

py::dict load_arrays(const py::object& path_object, int image_size) {
  const std::filesystem::path path = path_arg(path_object);
  const int side = size_arg(image_size);
  std::optional<engine::NpzFile> npz;
  engine::NpzContents c;  // all but the image, which is resized straight from the file's bytes
  {
    py::gil_scoped_release release;
    npz.emplace(engine::read_npz(path));
    c = engine::NpzContents{.image = {},
                            .target = npz->target(),
                            .predict = npz->predict(),
                            .meta_matrix = npz->meta_matrix(),
                            .meta_target = npz->meta_target(),
                            .structure = npz->structure(),
                            .meta_structure = npz->meta_structure()};
  }
  const auto pixels = npz->image();
  const std::size_t panels = pixels.size() / engine::kPanelPixels;
  Bytes image({static_cast<py::ssize_t>(panels), py::ssize_t{side}, py::ssize_t{side}});
  std::uint8_t* dst = image.mutable_data();
  {
    py::gil_scoped_release release;
    resize_panels(pixels.data(), panels, engine::kPanelSize, side, dst);
  }
  Bytes meta_matrix({static_cast<py::ssize_t>(kRuleRows), static_cast<py::ssize_t>(kMetaTarget)});
  for (std::size_t r = 0; r < kRuleRows; ++r)
    std::copy(c.meta_matrix[r].begin(), c.meta_matrix[r].end(),
              meta_matrix.mutable_data(static_cast<py::ssize_t>(r), 0));
  return py::dict("image"_a = image, "target"_a = c.target, "predict"_a = c.predict,
                  "meta_target"_a = bytes_of(c.meta_target), "meta_matrix"_a = meta_matrix,
                  "structure"_a = c.structure, "meta_structure"_a = bytes_of(c.meta_structure));
}

Bytes resize(const Bytes& images, int image_size) {
  const int side = size_arg(image_size);
  if (images.ndim() < 2 || images.shape(images.ndim() - 1) != images.shape(images.ndim() - 2))
    throw UsageError("resize takes square panels: an array of shape (..., N, N)");
  const auto in_side = static_cast<int>(images.shape(images.ndim() - 1));
  std::vector<py::ssize_t> shape(images.shape(), images.shape() + images.ndim());
  shape[shape.size() - 1] = shape[shape.size() - 2] = side;
  const std::size_t count = in_side == 0 ? 0
                                         : static_cast<std::size_t>(images.size()) /
                                               (static_cast<std::size_t>(in_side) * in_side);
  Bytes out(shape);
  const std::uint8_t* src = images.data();
  std::uint8_t* dst = out.mutable_data();
  py::gil_scoped_release release;
  if (count > 0) resize_panels(src, count, in_side, side, dst);
  return out;
}

}  // namespace

void bind_batch(py::module_& m) {
  m.def("generate_batch", &generate_batch, "configs"_a, "indices"_a, "seed"_a = 1234,
        "answers"_a = "raven", "image_size"_a = engine::kPanelSize, "threads"_a = 1,
        "out"_a = py::none(),
        "problems `indices` of `configs` (one name, or one per index) as a model takes them: a "
        "dict of numpy "
        "arrays image (B, 16, S, S) uint8, target (B,), meta_target (B, 9), meta_matrix (B, 8, 9), "
        "meta_structure (B, 21), config (B,) (index into CONFIGS), index (B,). `out`: a previous "
        "result of the "
        "same batch size and image_size, filled in place and returned (no new arrays)");
  m.def("load_arrays", &load_arrays, "path"_a, "image_size"_a = engine::kPanelSize,
        "the arrays of an npz file (image resized to image_size as `rave train` does), as a dict");
  m.def("resize", &resize, "images"_a, "image_size"_a,
        "square uint8 panels (..., N, N) resized to (..., S, S) with Pillow's bilinear filter, as "
        "`rave train` does");
}

}  // namespace rave::python
