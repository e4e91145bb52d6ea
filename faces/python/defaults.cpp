// rave._rave.option_defaults(): the defaults of export, score, solve and check as the libraries'
// options structs hold them, for the package's pure-Python faces (rave.harness, rave.check) and the
// test that every face shows the same (tests/faces/python/test_defaults.py); rave._rave.defaults() is a
// dataset's.
#include <pybind11/stl.h>

#include <string>

#include "evaluation/export/export.hpp"
#include "evaluation/scoring/score.hpp"
#include "jobs/batch.hpp"
#include "jobs/problem_check.hpp"
#include "python/binding.hpp"
#include "solver/solver.hpp"

namespace rave::python {
namespace {

using namespace pybind11::literals;

py::dict export_defaults() {
  const evaluation::ExportOptions o;
  return py::dict("format"_a = std::string(evaluation::format_name(o.format)),
                  "style"_a = std::string(evaluation::style_name(o.text.style)),
                  "rows_shown"_a = o.text.rows_shown,
                  "classmode"_a = std::string(evaluation::classmode_name(o.text.classmode)),
                  "uncertainty_seed"_a = o.uncertainty_seed);
}

py::dict score_defaults() {
  const evaluation::ScoreOptions o;
  return py::dict("protocol"_a = std::string(evaluation::protocol_name(o.protocol)),
                  "ties"_a = std::string(evaluation::tie_rule_name(o.ties)),
                  "logprob_score"_a = std::string(evaluation::logprob_score_name(o.logprob_score)),
                  "nattr"_a = o.nattr);
}

py::dict solve_defaults() {
  const jobs::BatchOptions o;
  return py::dict("backend"_a = std::string(solver::backend_name(o.backend)),
                  "use_rules"_a = o.solve.use_rules, "rlimit"_a = o.budget.rlimit,
                  "timeout_ms"_a = o.budget.timeout_ms, "threads"_a = o.threads);
}

py::dict check_defaults() {
  const jobs::CheckOptions o;
  return py::dict("backend"_a = std::string(solver::backend_name(o.backend)),
                  "threads"_a = o.threads);
}

}  // namespace

void bind_defaults(py::module_& m) {
  m.def(
      "option_defaults",
      [] {
        return py::dict("export"_a = export_defaults(), "score"_a = score_defaults(),
                        "solve"_a = solve_defaults(), "check"_a = check_defaults());
      },
      "the defaults of export, score, solve and check, each a dict, as `rave <command>` and the "
      "package\ntake them: one home, the libraries' options structs (rows_shown 0: all rows)");
}

}  // namespace rave::python
