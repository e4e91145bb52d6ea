// rave.read_reply: a model's free-text reply read as `rave score --text-answer` reads it
// (evaluation/scoring/score_forms.hpp, reply.hpp), so a harness that scores with it (the task folders of
// rave.harness) reports the figure `rave score` gives for the same replies.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "evaluation/scoring/score_forms.hpp"
#include "python/binding.hpp"

namespace rave::python {
namespace {

using namespace pybind11::literals;

std::vector<std::string> samples_of(const py::object& reply) {
  if (py::isinstance<py::str>(reply)) return {reply.cast<std::string>()};
  return reply.cast<std::vector<std::string>>();
}

std::optional<int> read_reply(const py::object& reply, const std::string& form, int candidates,
                              const std::string& answer_queue) {
  const auto mode = evaluation::parse_text_answer(form);
  if (!mode || *mode == evaluation::TextAnswer::kValues)
    throw UsageError("form must be letter, label, index or answer-index, not '" + form + "'");
  if (candidates < 1) throw UsageError("candidates must be at least 1");
  const std::vector<std::string> samples = samples_of(reply);
  if (samples.empty()) return std::nullopt;
  const evaluation::CandidateValues none;  // the index form reads numbers, not the candidates'
  py::gil_scoped_release release;
  return evaluation::text_choice(samples, &none, candidates, *mode, answer_queue).candidate;
}

}  // namespace

void bind_reply(py::module_& m) {
  m.def("read_reply", &read_reply, "reply"_a, "form"_a = "letter", "candidates"_a = 8,
        "answer_queue"_a = "",
        "The 0-based candidate a model's reply names, as `rave score --text-answer FORM` reads "
        "it: 'letter' (options A..H), 'label' (1..8) and 'answer-index' (\"Answer #k\", 0..7: "
        "rave.gym's text form) by rave's rule "
        "(docs/evaluation.md#free-text-replies), None when the reply names none; 'index' by IBM's "
        "Solver_disc (the first number, 0 when none or out of range). `reply` is one text or a "
        "list of samples (the most frequent readable one counts; IBM's majority vote for "
        "'index'); `answer_queue`: read after its first occurrence (IBM's answer_queue).");
}

}  // namespace rave::python
