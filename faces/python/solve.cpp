// rave.solve and rave.check: the solver's public API (solver/solver.hpp, batch.hpp,
// problem_check.hpp) on a Problem in memory, a problem file or a folder, results as Python values.
#include <pybind11/stl.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/model/configuration.hpp"
#include "jobs/batch.hpp"
#include "jobs/problem_check.hpp"
#include "python/binding.hpp"
#include "solver/explain.hpp"
#include "solver/solver.hpp"

namespace rave::python {
namespace {

using namespace pybind11::literals;
using Readings = std::vector<std::pair<int, solver::Reading>>;

/// What rave.solve returns.
struct PySolution {
  std::optional<int> answer;  // none when the verdict is none or unknown
  std::string verdict;
  std::vector<int> consistent;
  std::vector<double> scores;
  std::string reason;
  std::vector<std::string> rules;
  std::vector<std::pair<int, std::vector<std::string>>> competitors;
  std::string explanation;
  std::optional<int> target;
  std::string config;
  std::string file;
};

solver::Backend backend_arg(const std::string& name) {
  const auto backend = solver::parse_backend(name);
  if (!backend) throw UsageError("backend must be heuristic or z3, not '" + name + "'");
  return *backend;
}

PySolution solution_of(const engine::Problem& p, const solver::Solution& s,
                       const Readings& readings) {
  PySolution out{.answer = s.answer,
                 .verdict = std::string(solver::verdict_name(s.verdict)),
                 .consistent = s.consistent_candidates(),
                 .scores = {s.log_score.begin(), s.log_score.end()},
                 .reason = s.reason,
                 .rules = {},
                 .competitors = {},
                 .explanation = {},
                 .target = p.target,
                 .config = std::string(engine::configuration(p.config).folder),
                 .file = {}};
  for (const auto& [i, reading] : readings) {
    if (i == s.answer)
      out.rules = solver::explain_lines(p, reading);
    else
      out.competitors.emplace_back(i, solver::explain_lines(p, reading));
  }
  if (s.verdict == solver::Verdict::kAmbiguous)
    out.explanation = solver::competing_readings(p, readings);
  return out;
}

// One solver per thread, backend and option set (Z3's context is costly to build).
solver::Solver& thread_solver(solver::Backend backend, bool use_rules) {
  thread_local std::map<std::pair<solver::Backend, bool>, std::unique_ptr<solver::Solver>> solvers;
  auto& slot = solvers[{backend, use_rules}];
  if (!slot)
    slot = std::make_unique<solver::Solver>(backend, solver::SolveOptions{.use_rules = use_rules});
  return *slot;
}

PySolution solve_problem(const engine::Problem& p, solver::Backend backend, bool use_rules) {
  solver::Solver& solver = thread_solver(backend, use_rules);
  const solver::Solution s = solver.solve(p);
  std::vector<int> order = s.consistent_candidates();  // the answer's reading first, as solve_files
  std::stable_partition(order.begin(), order.end(), [&](int i) { return i == s.answer; });
  Readings readings;
  for (int i : order) readings.emplace_back(i, solver.reading(i));
  return solution_of(p, s, readings);
}

std::vector<PySolution> solve_folder(const std::filesystem::path& dir, solver::Backend backend,
                                     bool use_rules, int threads, std::string& error) {
  const jobs::BatchOptions options{
      .backend = backend, .solve = {.use_rules = use_rules}, .budget = {}, .threads = threads};
  std::vector<PySolution> out;
  jobs::solve_files(engine::collect_problem_files({dir}), options, [&](const jobs::FileResult& r) {
    if (!r.ok()) {
      if (error.empty()) error = r.error;
      return;
    }
    out.push_back(solution_of(r.problem, r.solution, r.readings));
    out.back().file = r.file.string();
  });
  return out;
}

py::object solve(const py::object& what, const std::string& backend_name, bool use_rules,
                 int threads) {
  const solver::Backend backend = backend_arg(backend_name);
  if (threads < 1) throw UsageError("threads must be at least 1, not " + std::to_string(threads));
  if (py::isinstance<PyProblem>(what)) {
    const PyProblem& p = what.cast<const PyProblem&>();
    PySolution one;
    {
      py::gil_scoped_release release;
      one = solve_problem(p.problem, backend, use_rules);
    }
    return py::cast(one);
  }
  const std::filesystem::path path = path_arg(what);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::string error;
    std::vector<PySolution> all;
    {
      py::gil_scoped_release release;
      all = solve_folder(path, backend, use_rules, threads, error);
    }
    if (!error.empty()) raise_format_error(error);
    return py::cast(all);
  }
  PySolution one;
  {
    py::gil_scoped_release release;
    engine::collect_problem_files({path});  // a missing path: the CLI's message
    one = solve_problem(engine::read_problem(path), backend, use_rules);
    one.file = path.string();
  }
  return py::cast(one);
}

py::dict check_data(const jobs::FileCheck& r, bool strict) {
  if (!r.ok()) return py::dict("file"_a = r.file.string(), "error"_a = r.error);
  const jobs::ProblemCheck& c = r.check;
  py::list consistent;
  for (int i = 0; i < 8; ++i)
    if (c.consistent & (1u << i)) consistent.append(i);
  return py::dict(
      "file"_a = r.file.string(), "config"_a = std::string(engine::configuration(r.config).folder),
      "verdict"_a = std::string(solver::verdict_name(c.verdict)), "consistent"_a = consistent,
      "target_known"_a = c.target_known, "target_explained"_a = c.target_explained,
      "answered"_a = c.answered, "valid_distractors"_a = c.valid_distractors,
      "duplicates"_a = c.duplicates, "blind_choice"_a = c.blind_choice, "blind_hit"_a = c.blind_hit,
      "seen_credit"_a = c.seen_credit, "defects"_a = r.defects,
      "failed"_a = c.failed(strict) || !r.defects.empty(), "failures"_a = c.failures(strict));
}

py::list check(const py::object& path_object, const std::string& backend_name, bool strict,
               int threads) {
  const std::filesystem::path path = path_arg(path_object);
  const solver::Backend backend = backend_arg(backend_name);
  if (threads < 1) throw UsageError("threads must be at least 1, not " + std::to_string(threads));
  std::vector<jobs::FileCheck> results;
  {
    py::gil_scoped_release release;
    jobs::check_files(engine::collect_problem_files({path}),
                      {.backend = backend, .threads = threads, .content = true},
                      [&](const jobs::FileCheck& r) { results.push_back(r); });
  }
  py::list out;
  for (const auto& r : results) out.append(check_data(r, strict));
  return out;
}

std::string repr(const PySolution& s) {
  return "<rave.Solution answer=" + (s.answer ? std::to_string(*s.answer) : std::string("None")) +
         " " + s.verdict + ">";
}

}  // namespace

void bind_solve(py::module_& m) {
  py::class_<PySolution>(m, "Solution", "What the solver says about one problem (rave.solve).")
      .def_readonly(
          "answer", &PySolution::answer,
          "the best-ranked candidate, 0..7 (None when the verdict is 'none' or 'unknown')")
      .def_readonly("verdict", &PySolution::verdict,
                    "'unique', 'ambiguous', 'none' or 'unknown' (Z3 budget)")
      .def_readonly("consistent", &PySolution::consistent,
                    "the candidates some valid rule assignment explains")
      .def_readonly("scores", &PySolution::scores,
                    "log posterior per candidate (-inf: not explained)")
      .def_readonly("reason", &PySolution::reason, "for 'none' / 'unknown': why, in words")
      .def_readonly("rules", &PySolution::rules, "the rules that explain the answer, one line each")
      .def_property_readonly(
          "competitors",
          [](const PySolution& s) {
            py::list out;
            for (const auto& [i, rules] : s.competitors)
              out.append(py::dict("candidate"_a = i, "rules"_a = rules));
            return out;
          },
          "the other explained candidates, each {candidate, rules}")
      .def_readonly("explanation", &PySolution::explanation,
                    "for 'ambiguous': the rules on which the readings differ")
      .def_readonly("target", &PySolution::target, "the problem's answer, when known")
      .def_property_readonly(
          "correct",
          [](const PySolution& s) {
            return s.target ? std::optional<bool>(s.target == s.answer) : std::nullopt;
          },
          "answer == target (None when the target is unknown)")
      .def_readonly("config", &PySolution::config, "the configuration's folder name")
      .def_readonly("file", &PySolution::file, "the file solved ('' for a Problem in memory)")
      .def("__repr__", &repr);
  const jobs::BatchOptions solving;  // the defaults `rave solve` shows, but -j: the machine's
  m.def("solve", &solve, "problem"_a,
        "backend"_a = std::string(solver::backend_name(solving.backend)),
        "use_rules"_a = solving.solve.use_rules, "threads"_a = solving.threads,
        "solves a Problem, a problem file (.xml, .asig, .npz) or every problem file under a folder "
        "(a list, in file "
        "order, on `threads` workers) without being told the rules (use_rules=True: told their "
        "names)");
  const jobs::CheckOptions checking;
  m.def("check", &check, "path"_a,
        "backend"_a = std::string(solver::backend_name(checking.backend)), "strict"_a = false,
        "threads"_a = checking.threads,
        "audits the problem files under `path` as `rave check` does: one dict per file");
}

}  // namespace rave::python
