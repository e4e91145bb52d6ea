// rave.load_arrays, rave.resize, rave.drt_input and rave.encode_png: an npz file as the arrays a
// model takes (images resized as `rave train` does, the Dynamic Residual Tree's rows from its
// structure sentence), and the pieces Python code around the datasets needs, each the C++ core's
// own function with the GIL released.
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/png.hpp"
#include "engine/model/drt_input.hpp"
#include "engine/model/resize.hpp"
#include "python/binding.hpp"

namespace rave::python {
namespace {

using namespace pybind11::literals;
using Bytes = py::array_t<std::uint8_t, py::array::c_style>;
using Pixels = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

int size_arg(int image_size) {
  if (image_size < 1)
    throw UsageError("image_size must be positive, not " + std::to_string(image_size));
  return image_size;
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

py::tuple drt_tuple(const engine::DrtInput& in) {
  return py::make_tuple(
      py::array_t<std::int64_t>(static_cast<py::ssize_t>(in.labels.size()), in.labels.data()),
      in.indicator);
}

// The npz's panels (any N x N matrix, any render style's side) resized to `side`, or None for a
// symbolic-only file.
py::object image_of(const engine::NpzFile& npz, int side) {
  if (!npz.contains("image")) return py::none();
  int grid = 0, stored = 0;
  const auto pixels = npz.panels(grid, stored);
  const std::size_t panels = pixels.size() / (static_cast<std::size_t>(stored) * stored);
  Bytes image({static_cast<py::ssize_t>(panels), py::ssize_t{side}, py::ssize_t{side}});
  std::uint8_t* dst = image.mutable_data();
  py::gil_scoped_release release;
  resize_panels(pixels.data(), panels, stored, side, dst);
  return image;
}

py::dict load_arrays(const py::object& path_object, int image_size) {
  const std::filesystem::path path = path_arg(path_object);
  const int side = size_arg(image_size);
  std::optional<engine::NpzFile> npz;
  engine::NpzContents c;  // all but the image, which is resized straight from the file's bytes
  engine::DrtInput drt;
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
    drt = engine::drt_input_from_tokens(c.structure, path.string());  // as rave train reads it
  }
  Bytes meta_matrix({static_cast<py::ssize_t>(c.meta_matrix.size()),
                     static_cast<py::ssize_t>(c.meta_matrix[0].size())});
  for (std::size_t r = 0; r < c.meta_matrix.size(); ++r)
    std::copy(c.meta_matrix[r].begin(), c.meta_matrix[r].end(),
              meta_matrix.mutable_data(static_cast<py::ssize_t>(r), 0));
  py::dict d;
  if (py::object image = image_of(*npz, side); !image.is_none()) d["image"] = image;
  const py::tuple rows = drt_tuple(drt);
  d["target"] = c.target, d["predict"] = c.predict, d["meta_target"] = bytes_of(c.meta_target);
  d["meta_matrix"] = meta_matrix, d["structure"] = c.structure;
  d["meta_structure"] = bytes_of(c.meta_structure);
  d["drt_labels"] = rows[0], d["drt_indicator"] = rows[1];
  return d;
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

// PNG bytes of each picture of a (H, W) or (..., H, W) uint8 array.
py::list encode_png(const Pixels& images) {
  if (images.ndim() < 2) throw UsageError("encode_png takes pictures: an array (..., H, W)");
  const auto h = static_cast<int>(images.shape(images.ndim() - 2));
  const auto w = static_cast<int>(images.shape(images.ndim() - 1));
  const std::size_t each = static_cast<std::size_t>(h) * static_cast<std::size_t>(w);
  const std::size_t count = each == 0 ? 0 : static_cast<std::size_t>(images.size()) / each;
  std::vector<std::string> pngs(count);
  {
    const std::uint8_t* src = images.data();
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < count; ++i)
      pngs[i] = engine::encode_gray_png({src + i * each, each}, w, h);
  }
  py::list out;
  for (const auto& png : pngs) out.append(py::bytes(png));
  return out;
}

}  // namespace

void bind_arrays(py::module_& m) {
  m.def("load_arrays", &load_arrays, "path"_a, "image_size"_a = engine::kPanelSize,
        "the arrays of an npz file (any N x N matrix; image resized to image_size as `rave train` "
        "does, absent in a\n"
        "symbolic-only file), with the structure tokens and the Dynamic Residual Tree's "
        "drt_labels (6,) and drt_indicator,\n"
        "as a dict");
  m.def("resize", &resize, "images"_a, "image_size"_a,
        "square uint8 panels (..., N, N) resized to (..., S, S) with Pillow's bilinear filter, as "
        "`rave train` does");
  m.def(
      "drt_input",
      [](const std::vector<std::string>& tokens) {
        try {
          return drt_tuple(engine::drt_input_from_tokens(tokens, "structure"));
        } catch (const InputError& e) {  // not a file: never FileNotFoundError
          raise_format_error(e.what());
        }
      },
      "tokens"_a,
      "(labels, indicator) of a structure sentence's tokens (npz `structure`): the Dynamic "
      "Residual Tree's 6 rows as\n"
      "indices into DRT_LABELS (-1 = empty) and 1.0 for a two-component tree, exactly as `rave "
      "train --drt` feeds them");
  py::tuple names(engine::kDrtLabels);
  for (int i = 0; i < engine::kDrtLabels; ++i)
    names[static_cast<std::size_t>(i)] =
        std::string(engine::kDrtLabelNames[static_cast<std::size_t>(i)]);
  m.attr("DRT_LABELS") = names;
  m.def("encode_png", &encode_png, "images"_a,
        "a list of PNG files (bytes, 8-bit grayscale, lossless) of the pictures of a (..., H, W) "
        "uint8 array, in order");
}

}  // namespace rave::python
