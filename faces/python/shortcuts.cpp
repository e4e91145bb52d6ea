// rave._rave.shortcut_features: the learner audit's per-candidate features (engine/audit_features.hpp)
// of every problem file under some paths, as numpy arrays for faces/python/rave/shortcuts.py.
#include <pybind11/stl.h>

#include <cstring>

#include "common/error.hpp"
#include "engine/audit_features.hpp"
#include "engine/formats/problem_files.hpp"
#include "jobs/shortcut_table.hpp"
#include "python/binding.hpp"

namespace rave::python {
namespace {

using namespace pybind11::literals;

py::array_t<float> table_array(const std::vector<float>& values, std::size_t problems,
                               std::size_t width) {
  py::array_t<float> out({problems, std::size_t{engine::kCandidates}, width});
  if (!values.empty())
    std::memcpy(out.mutable_data(), values.data(), values.size() * sizeof(float));
  return out;
}

template <class T>
py::array_t<T> vector_array(const std::vector<T>& values) {
  return py::array_t<T>(static_cast<py::ssize_t>(values.size()), values.data());
}

py::dict shortcut_features(const py::list& path_objects, int threads) {
  if (threads < 1) throw UsageError("threads must be at least 1, not " + std::to_string(threads));
  std::vector<std::filesystem::path> paths;
  for (const py::handle& p : path_objects)
    paths.push_back(path_arg(py::reinterpret_borrow<py::object>(p)));
  jobs::ShortcutTable t;
  {
    py::gil_scoped_release release;
    t = jobs::shortcut_table(engine::collect_problem_files(paths), threads);
  }
  std::vector<std::string> files;
  for (const auto& f : t.files) files.push_back(f.string());
  const std::size_t n = t.files.size();
  return py::dict("files"_a = files, "errors"_a = t.errors, "config"_a = vector_array(t.config),
                  "grid"_a = vector_array(t.grid), "target"_a = vector_array(t.target),
                  "blind"_a = table_array(t.blind, n, t.blind_width),
                  "bag"_a = table_array(t.bag, n, t.bag_width),
                  "blind_names"_a = engine::blind_feature_names(),
                  "bag_names"_a = engine::bag_feature_names());
}

}  // namespace

void bind_shortcuts(py::module_& m) {
  m.def("shortcut_features", &shortcut_features, "paths"_a, "threads"_a = 1,
        "the learner audit's features of every problem file under `paths` (a list of folders or "
        "files): a dict of files, errors, config, grid, target (-1: unknown), blind and bag "
        "(problems x 8 x features, float32) and their feature names");
}

}  // namespace rave::python
