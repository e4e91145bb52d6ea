// The module rave._rave (the package's rave/__init__.py re-exports it), its names, and the one
// translation of rave's errors into Python exceptions.
#include <pybind11/stl.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "common/error.hpp"
#include "common/version.hpp"
#include "engine/model/configuration.hpp"
#include "python/binding.hpp"

namespace rave::python {

engine::ConfigId config_arg(const std::string& name) { return engine::configuration_named(name); }

engine::AnswerStrategy strategy_arg(const std::string& name) {
  return engine::strategy_named(name);
}

std::uint64_t index_arg(std::int64_t index) {
  if (index < 0) throw UsageError("problem index " + std::to_string(index) + " is negative");
  return static_cast<std::uint64_t>(index);
}

std::filesystem::path path_arg(const py::object& path) {
  return std::filesystem::path(
      py::str(py::module_::import("os").attr("fspath")(path)).cast<std::string>());
}

namespace {
py::handle format_error_type;
}  // namespace

void raise_format_error(const std::string& message) {
  PyErr_SetString(format_error_type.ptr(), message.c_str());
  throw py::error_already_set();
}

void bind_errors(py::module_& m) {
  static py::exception<InputError> format_error(m, "FormatError", PyExc_ValueError);
  format_error_type = format_error;
  format_error.doc() =
      "A file rave cannot read as what it should be; the message is the line `rave` prints: "
      "'<file>:<place>: <what>'.";
  // pybind11's translator is a void (*)(std::exception_ptr): the pointer is taken by value.
  py::register_exception_translator(
      [](std::exception_ptr p) {  // NOLINT(performance-unnecessary-value-param)
        try {
          if (p) std::rethrow_exception(p);
        } catch (const InputError& e) {
          std::error_code ec;
          const bool missing = !e.file().empty() && !std::filesystem::exists(e.file(), ec);
          PyErr_SetString(missing ? PyExc_FileNotFoundError : format_error.ptr(), e.what());
        } catch (const UsageError& e) {
          PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const WriteError& e) {
          PyErr_SetString(PyExc_OSError, e.what());
        }
      });
}

namespace {

using namespace pybind11::literals;

// Every name find_configuration accepts -> the folder name it stands for.
py::dict config_aliases() {
  py::dict out;
  for (const auto& c : engine::all_configurations()) {
    const py::str folder(std::string(c.folder));
    out[folder] = folder;
    out[py::str(std::string(c.paper_name))] = folder;
    for (auto alias : engine::configuration_aliases(c.id))
      out[py::str(std::string(alias))] = folder;
  }
  return out;
}

void bind_names(py::module_& m) {
  py::list folders, papers;
  for (const auto& c : engine::all_configurations()) {
    folders.append(std::string(c.folder));
    papers.append(std::string(c.paper_name));
  }
  m.attr("CONFIGS") = py::tuple(folders);
  m.attr("PAPER_NAMES") = py::tuple(papers);
  m.attr("ALIASES") = config_aliases();
  py::list strategies;
  for (auto s : {engine::AnswerStrategy::kRaven, engine::AnswerStrategy::kIRaven,
                 engine::AnswerStrategy::kFair, engine::AnswerStrategy::kBalanced})
    strategies.append(std::string(engine::strategy_name(s)));
  m.attr("STRATEGIES") = py::tuple(strategies);
  m.attr("PANEL_SIZE") = engine::kPanelSize;
  m.attr("__version__") = std::string(version());  // CMakeLists.txt's project version
  m.def(
      "config_name",
      [](const std::string& name) {
        return std::string(engine::configuration(config_arg(name)).folder);
      },
      "name"_a,
      "the folder name (an entry of CONFIGS) for any name the CLI accepts: folder, paper name or "
      "alias");
}

}  // namespace
}  // namespace rave::python

PYBIND11_MODULE(_rave, m) {
  using namespace rave::python;
  m.doc() =
      "rave's C++ core: generation, rendering, RAVEN files and the solver (see the package rave).";
  bind_errors(m);
  bind_names(m);
  bind_problem(m);
  bind_batch(m);
  bind_arrays(m);
  bind_solve(m);
  bind_shortcuts(m);
  bind_reply(m);
  bind_gym(m);
  bind_defaults(m);
}
