#pragma once
// The symbolic problem as plain JSON data (the payload of `rave export --format json`; schema in
// docs/evaluation.md) and back. Written straight into text (json_writer.hpp); read with
// nlohmann-json, which stays inside rave::evaluation's sources.
//
//   JsonWriter w(line);
//   w.begin_object();
//   write_problem_fields(w, problem, /*with_answer_hints=*/true);
//   w.end_object();
//   engine::Problem p = problem_from_fields(nlohmann::json::parse(line), {"a.jsonl", 3});
#include <nlohmann/json.hpp>

#include <string>

#include "engine/model/problem.hpp"
#include "evaluation/internal/json_writer.hpp"

namespace rave::evaluation::internal {

/// Where a JSON object came from, for errors ("a.jsonl", line 3).
struct JsonPlace {
  std::string file;
  std::size_t line = 0;
};

/// Writes the members "variant" (a variant's problems only), "components", "rules" (when asked),
/// "context", "candidates" and, when asked and present, I-RAVEN's "modified" into the object `w`
/// is writing; entities carry their "confounders". The rules and the modifications are the
/// answer's hints (the rules compute the missing panel, the modifications mark it): an export
/// without its answer leaves both out.
void write_problem_fields(JsonWriter& w, const engine::Problem& problem, bool with_answer_hints);
/// Reads those fields (and "configuration", and "answer" into the target when it is an integer;
/// no "rules": unknown rules); InputError naming the place and the field on anything missing or
/// out of range.
engine::Problem problem_from_fields(const nlohmann::json& in, const JsonPlace& place);

}  // namespace rave::evaluation::internal
