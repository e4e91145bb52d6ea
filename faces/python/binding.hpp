#pragma once
// What the parts of the Python module (rave._rave) share: the Problem object Python holds, the
// names Python passes in, and the translation of rave's errors into Python exceptions. Every call
// that does C++ work releases the GIL around it (pybind11::gil_scoped_release).
//
//   PYBIND11_MODULE(_rave, m) { bind_errors(m); bind_problem(m); bind_batch(m); ... }
//   engine::ConfigId id = config_arg("O-IG");       // ValueError for an unknown name
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "engine/answers/answer_set.hpp"
#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"
#include "jobs/dataset.hpp"

namespace rave::python {

namespace py = pybind11;

/// A problem as Python holds it: the symbols, and its panels once something asked for pixels.
struct PyProblem {
  engine::Problem problem;
  /// The rendered panels (context, then candidates), read-only numpy view; None until first use.
  py::object image;
  /// Whether its npz writes predict with shape (1,), as `rave generate` does for RAVEN-FAIR.
  bool predict_as_vector = false;

  /// Panels of the problem (context and candidates).
  std::size_t panel_count() const { return problem.context.size() + problem.candidates.size(); }
  /// The panels in the problem's style, rendered on first call (the GIL is released while
  /// drawing).
  const engine::PanelStack& images();
  std::shared_ptr<engine::PanelStack> stack{};  ///< what `image` views, once drawn
};

/// A file that could not be written (Python's OSError).
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A numpy array over `count` contiguous square panels of `side` pixels owned by `owner` (kept
/// alive by the array).
py::array panel_array(std::shared_ptr<const void> owner, const std::uint8_t* panels,
                      std::size_t count, int side);

/// A default-constructed DatasetSpec: the one home of the defaults of rave.generate,
/// rave.generate_batch and rave.defaults() (so of rave.torch), as of `rave generate`'s flags.
const jobs::DatasetSpec& dataset_defaults();
/// The configuration a name (folder, paper name or alias) stands for; ValueError otherwise.
engine::ConfigId config_arg(const std::string& name);
/// "raven" | "iraven" | "fair"; ValueError otherwise.
engine::AnswerStrategy strategy_arg(const std::string& name);
/// A problem index: ValueError when negative.
std::uint64_t index_arg(std::int64_t index);
/// A path given as str or os.PathLike.
std::filesystem::path path_arg(const py::object& path);

/// Raises rave.FormatError with `message` (a line as the CLI prints it).
[[noreturn]] void raise_format_error(const std::string& message);
/// Registers rave.FormatError and the translation of rave::InputError (FileNotFoundError when the
/// file it names does not exist, FormatError otherwise), rave::UsageError (ValueError) and
/// WriteError (OSError).
void bind_errors(py::module_& m);
/// Problem, generate, load.
void bind_problem(py::module_& m);
/// generate_batch.
void bind_batch(py::module_& m);
/// load_arrays, resize, drt_input, DRT_LABELS, encode_png.
void bind_arrays(py::module_& m);
/// solve, check, Solution.
void bind_solve(py::module_& m);
/// shortcut_features (the learner audit's input, faces/python/rave/shortcuts.py).
void bind_shortcuts(py::module_& m);
/// read_reply: a model's free-text reply as the candidate `rave score` reads it.
void bind_reply(py::module_& m);
/// The RL environment's entries (_gym_items, evaluation/export/gym.hpp).
void bind_gym(py::module_& m);
/// option_defaults: export's, score's, solve's and check's defaults (python/defaults.cpp).
void bind_defaults(py::module_& m);

}  // namespace rave::python
