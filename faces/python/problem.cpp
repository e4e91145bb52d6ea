// rave.Problem, rave.generate and rave.load: one problem with its symbols as plain Python data, its
// panels rendered on first use, and its files (npz, XML, .asig) byte for byte as `rave` writes
// them.
#include <pybind11/stl.h>

#include <filesystem>
#include <new>
#include <string>
#include <system_error>

#include "common/error.hpp"
#include "engine/encode.hpp"
#include "engine/formats/asig_io.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/generate.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/structure.hpp"
#include "engine/model/style.hpp"
#include "engine/model/variant.hpp"
#include "engine/render/render.hpp"
#include "engine/rules/variant_rules.hpp"
#include "jobs/dataset.hpp"
#include "jobs/dataset_manifest.hpp"
#include "python/binding.hpp"
#include "solver/explain.hpp"

namespace rave::python {

const jobs::DatasetSpec& dataset_defaults() {
  static const jobs::DatasetSpec spec;
  return spec;
}

namespace {

using namespace pybind11::literals;

py::list panel_data(const engine::Configuration& config, const engine::Panel& panel) {
  py::list components;
  for (std::size_t c = 0; c < panel.components.size(); ++c) {
    py::list entities;
    for (const engine::Entity& e : panel.components[c].entities)
      entities.append(py::dict("slot"_a = e.slot, "type"_a = e.type, "size"_a = e.size,
                               "color"_a = e.color, "angle"_a = e.angle));
    components.append(py::dict("component"_a = std::string(config.components[c].name),
                               "uniformity"_a = panel.components[c].uniformity,
                               "entities"_a = entities));
  }
  return components;
}

template <class Panels>
py::list panels_data(const engine::Problem& p, const Panels& panels) {
  py::list out;
  for (const engine::Panel& panel : panels)
    out.append(panel_data(engine::configuration(p.config), panel));
  return out;
}

// "<Component>: <Attr> <Rule>[ <parameter>]", one per rule of every component (solver's wording).
std::vector<std::string> rule_lines(const engine::Problem& p) {
  solver::Reading reading;
  RAVE_CHECK(p.rules.size() <= reading.components.size(), "more rule groups than components");
  for (std::size_t c = 0; c < p.rules.size(); ++c)
    reading.components[c] = {
        .component = static_cast<int>(c), .rules = p.rules[c].rules, .noise = {}};
  reading.count = static_cast<int>(p.rules.size());
  return solver::explain_lines(p, reading);
}

template <std::size_t N>
py::array_t<std::uint8_t> bytes_array(const std::array<std::uint8_t, N>& values) {
  return py::array_t<std::uint8_t>(static_cast<py::ssize_t>(N), values.data());
}

py::array_t<std::uint8_t> meta_matrix_array(const engine::Problem& p) {
  const auto rows = engine::meta_matrix(p.rules);
  py::array_t<std::uint8_t> out({rows.size(), rows[0].size()});
  for (std::size_t r = 0; r < rows.size(); ++r)
    std::copy(rows[r].begin(), rows[r].end(), out.mutable_data(static_cast<py::ssize_t>(r), 0));
  return out;
}

py::object optional_int(const std::optional<int>& v) {
  return v ? py::object(py::int_(*v)) : py::object(py::none());
}

std::string encode_npz(PyProblem& self, bool compress) {
  const engine::PanelStack& images = self.images();
  py::gil_scoped_release release;
  std::string out;
  engine::encode_stack_npz(out, self.problem, images, compress, self.predict_as_vector);
  return out;
}

py::bytes npz_bytes(PyProblem& self, bool compress) {
  return py::bytes(encode_npz(self, compress));
}

// Writes <path>.npz and <path>.xml as the CLI does (both or neither): FileNotFoundError when the
// folder does not exist, OSError when writing fails.
void save(PyProblem& self, const py::object& path_object, bool compress) {
  const std::filesystem::path path = path_arg(path_object);
  engine::ProblemFiles files{.npz = encode_npz(self, compress), .xml = {}};
  py::gil_scoped_release release;
  files.xml = engine::write_problem_xml(self.problem);
  const std::filesystem::path dir =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw InputError(dir.string(), "", "no such folder");
  try {
    engine::write_problem_files(dir, path.filename().string(), files);
  } catch (const InputError& e) {
    throw WriteError(e.what());
  }
}

// .asig is lossless for the original's problems (docs/asig.md); a variant's goes as XML plus the
// answer and the solver's choice, which the XML does not hold. Then the npz's predict shape.
py::tuple pickle_state(const PyProblem& s) {
  if (s.problem.variant.is_original())
    return py::make_tuple(engine::write_asig(s.problem), s.predict_as_vector);
  return py::make_tuple(engine::write_problem_xml(s.problem), s.predict_as_vector, s.problem.target,
                        s.problem.predict);
}

PyProblem unpickle(const py::tuple& state) {
  const auto text = state[0].cast<std::string>();
  PyProblem p{
      .problem = {}, .image = {}, .predict_as_vector = state.size() > 1 && state[1].cast<bool>()};
  if (state.size() <= 2) {
    p.problem = engine::parse_asig(text, "<pickle>");
    return p;
  }
  p.problem = engine::parse_problem_xml(text, "<pickle>");
  p.problem.target = state[2].cast<std::optional<int>>();
  p.problem.predict = state[3].cast<std::optional<int>>();
  return p;
}

PyProblem generate(const std::string& config, std::int64_t index, std::uint64_t seed,
                   const std::string& answers, int grid, std::optional<int> values, int confounders,
                   const std::string& regime, const std::string& hold_out, const std::string& style,
                   std::int64_t attempt) {
  const engine::ConfigId id = config_arg(config);
  const engine::AnswerStrategy strategy = strategy_arg(answers);
  const std::uint64_t k = index_arg(index);
  if (attempt < 0) throw UsageError("attempt " + std::to_string(attempt) + " is negative");
  const auto draw = static_cast<std::uint64_t>(attempt);
  jobs::DatasetSpec spec = dataset_defaults();  // its splits, as `rave generate` makes them
  spec.seed = seed;
  spec.answers = strategy;
  spec.variant = engine::variant_from_options(grid, values, confounders, regime, hold_out);
  spec.style = engine::parse_style(style);
  py::gil_scoped_release release;
  return PyProblem{.problem = jobs::checked_dataset_problem(spec, id, k, draw),
                   .image = {},
                   .predict_as_vector = strategy == engine::AnswerStrategy::kFair};
}

// Whether the npz of the problem at `path` (itself, or the one beside its XML) stores predict with
// shape (1,), as RAVEN-FAIR's files do; its npz bytes then keep that shape.
bool npz_predict_is_vector(const std::filesystem::path& path) {
  std::filesystem::path npz = path;
  npz.replace_extension(".npz");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(npz, ec)) return false;
  const engine::NpzFile file = engine::read_npz(npz, {"predict"});
  return file.contains("predict") && file.array("predict").shape.size() == 1;
}

PyProblem load(const py::object& path_object) {
  const std::filesystem::path path = path_arg(path_object);
  py::gil_scoped_release release;
  engine::collect_problem_files({path});  // a missing path: the CLI's "no such file or folder"
  return PyProblem{.problem = engine::read_problem(path),
                   .image = {},
                   .predict_as_vector = npz_predict_is_vector(path)};
}

std::string repr(const PyProblem& self) {
  const auto& p = self.problem;
  return "<rave.Problem " + std::string(engine::configuration(p.config).folder) +
         " target=" + (p.target ? std::to_string(*p.target) : "None") + ">";
}

}  // namespace

py::array panel_array(std::shared_ptr<const void> owner, const std::uint8_t* panels,
                      std::size_t count, int side_pixels) {
  auto* keep = new std::shared_ptr<const void>(std::move(owner));
  py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<const void>*>(p); });
  const auto side = static_cast<py::ssize_t>(side_pixels);
  py::array out(py::dtype::of<std::uint8_t>(), {static_cast<py::ssize_t>(count), side, side},
                {side * side, side, py::ssize_t{1}}, panels, base);
  py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return out;
}

const engine::PanelStack& PyProblem::images() {
  if (stack) return *stack;
  engine::check_drawable(problem);
  auto panels = std::make_shared<engine::PanelStack>();
  {
    py::gil_scoped_release release;
    engine::render_problem(problem, *panels);
  }
  stack = panels;
  image = panel_array(panels, panels->pixels.data(), panel_count(), panels->side);
  return *stack;
}

void bind_problem(py::module_& m) {
  py::class_<PyProblem>(
      m, "Problem",
      "One RPM problem: symbols as plain Python data, panels rendered on first use, and "
      "its files exactly as `rave generate` writes them.")
      .def_property_readonly(
          "image",
          [](PyProblem& self) {
            self.images();
            return self.image;
          },
          "numpy uint8 (P, S, S): the context panels, then the candidates (P = 16 and S = 160 for "
          "the\noriginal 3x3); rendered in the problem's style on first access, read-only, the "
          "same memory afterwards")
      .def_property_readonly(
          "target", [](const PyProblem& s) { return optional_int(s.problem.target); },
          "index 0..7 of the answer among the candidates (None when unknown)")
      .def_property_readonly(
          "predict", [](const PyProblem& s) { return optional_int(s.problem.predict); },
          "the original solver's choice (npz `predict`; None when unknown)")
      .def_property_readonly(
          "meta_target",
          [](const PyProblem& s) { return bytes_array(engine::meta_target(s.problem.rules)); },
          "numpy uint8 (9,): the rule bits of docs/format.md (npz)")
      .def_property_readonly(
          "meta_matrix", [](const PyProblem& s) { return meta_matrix_array(s.problem); },
          "numpy uint8 (8, 9): one row of rule bits per rule")
      .def_property_readonly(
          "structure",
          [](const PyProblem& s) { return engine::structure_tokens(s.problem.config); },
          "the structure sentence's tokens, as the npz `structure`")
      .def_property_readonly(
          "meta_structure",
          [](const PyProblem& s) { return bytes_array(engine::meta_structure(s.problem.config)); },
          "numpy uint8 (21,): the structure bits")
      .def_property_readonly(
          "config",
          [](const PyProblem& s) {
            return std::string(engine::configuration(s.problem.config).folder);
          },
          "the configuration's folder name, e.g. 'center_single'")
      .def_property_readonly(
          "rules", [](const PyProblem& s) { return rule_lines(s.problem); },
          "the rules, one line each: '<Component>: <Attr> <Rule>[ <parameter>]'")
      .def_property_readonly(
          "context", [](const PyProblem& s) { return panels_data(s.problem, s.problem.context); },
          "the context panels: per panel, per component {component, uniformity, entities: "
          "[{slot, type, size, color, angle}]} (levels: docs/format.md, value tables)")
      .def_property_readonly(
          "candidates",
          [](const PyProblem& s) { return panels_data(s.problem, s.problem.candidates); },
          "the candidate panels, as context")
      .def("to_npz_bytes", &npz_bytes, "compress"_a = false,
           "the npz file's bytes (numpy.savez, or savez_compressed with compress=True)")
      .def(
          "to_xml",
          [](const PyProblem& s) {
            py::gil_scoped_release r;
            return engine::write_problem_xml(s.problem);
          },
          "the XML file's text")
      .def(
          "to_asig",
          [](const PyProblem& s) {
            py::gil_scoped_release r;
            return engine::write_asig(s.problem);
          },
          "the problem as .asig text (docs/asig.md)")
      .def("save", &save, "path"_a, "compress"_a = false,
           "writes <path>.npz and <path>.xml as `rave generate` does (both or neither)")
      .def("__repr__", &repr)
      .def(py::pickle(&pickle_state, &unpickle));
  const jobs::DatasetSpec& d = dataset_defaults();
  m.def("generate", &generate, "config"_a, "index"_a, "seed"_a = d.seed,
        "answers"_a = std::string(engine::strategy_name(d.answers)), py::kw_only(),
        "grid"_a = d.variant.grid, "values"_a = py::none(), "confounders"_a = d.variant.confounders,
        "regime"_a = std::string(engine::regime_name(d.variant.regime)), "hold_out"_a = "",
        "style"_a = engine::style_text(d.style), "attempt"_a = 0,
        "problem `index` of `config` as `rave generate --seed seed --answers answers` writes it; "
        "the keywords are\n"
        "the variant options of `rave generate` (docs/variants.md: --grid, --values, "
        "--confounders, --regime,\n"
        "--hold-out, --style), the split taken from the index as the CLI's default --val and "
        "--test do; `attempt` > 0: its\n"
        "redraw number `attempt`, as `rave generate --unique-only` redraws (docs/dataset.md)");
  m.def(
      "defaults",
      [] {
        const jobs::DatasetSpec& spec = dataset_defaults();
        return py::dict("seed"_a = spec.seed, "val"_a = spec.val, "test"_a = spec.test,
                        "answers"_a = std::string(engine::strategy_name(spec.answers)),
                        "grid"_a = spec.variant.grid, "confounders"_a = spec.variant.confounders,
                        "regime"_a = std::string(engine::regime_name(spec.variant.regime)),
                        "style"_a = engine::style_text(spec.style));
      },
      "the defaults of a dataset (seed, val, test, answers, grid, confounders, regime, style) as "
      "`rave generate`,\nrave.generate and rave.torch take them: one home, jobs::DatasetSpec");
  m.def(
      "manifest",
      [](const std::string& path) {
        std::filesystem::path file(path);
        if (std::filesystem::is_directory(file)) file /= jobs::kManifestName;
        const std::optional<jobs::DatasetManifest> m = jobs::read_manifest(file);
        if (!m)
          throw InputError(file.string(), "",
                           "no such file (rave writes rave.json at a dataset's root)");
        return jobs::manifest_json(*m);
      },
      "path"_a,
      "the dataset manifest (rave.json, docs/dataset.md) of a folder or file, checked and as JSON "
      "text");
  m.def("load", &load, "path"_a,
        "a problem from a .xml (answer from the npz beside it), .npz or .asig file");
}

}  // namespace rave::python
