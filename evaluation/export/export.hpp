#pragma once
// `rave export`: an evaluation set as JSON Lines, one object per problem (docs/evaluation.md):
// "id", "configuration", "split", "answer" (unless withheld), "verdict" (the solver's: unique,
// ambiguous, none, unknown) and the problem in one of three forms: `text` (the lm-raven / I-RAVEN
// prompt: "prompt", "context", "choices"), `text-disentangled` ("prompts": one per component and
// attribute) or `json` (the symbolic panels as plain data: "components", "rules", "context",
// "candidates", and I-RAVEN's "modified"). The text forms of IBM's Solver_pred
// (`TextOptions::classmode`) add "classmode": "pred"; their "choices" are what its replies are
// matched against (`rave score --text-answer values --data` this export).
//
//   ExportOptions o{.format = ExportFormat::kText, .shuffle_seed = 7};
//   std::string lines;
//   ExportCounts n = export_set("data/raven", o, /*threads=*/1, lines);
//   ExportedProblem back = parse_json_export_line(line, "set.jsonl", 1);  // the json form read
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "engine/model/problem.hpp"
#include "evaluation/export/text_prompt.hpp"
#include "evaluation/items.hpp"

namespace rave::evaluation {

/// The three forms of a problem.
enum class ExportFormat { kText, kTextDisentangled, kJson };
std::string_view format_name(ExportFormat format);  ///< "text", "text-disentangled", "json"
std::optional<ExportFormat> parse_format(std::string_view name);

/// What to write.
struct ExportOptions {
  ExportFormat format = ExportFormat::kText;
  std::optional<std::uint64_t> shuffle_seed =
      {};                  ///< show the candidates in candidate_order(seed, id)
  bool no_answer = false;  ///< withhold the answer (and I-RAVEN's modifications, which reveal it)
  bool drop_ambiguous = false;  ///< keep only the problems whose answer the solver proves unique
  bool answer_first = false;    ///< lm-raven's task.py: the answer swapped into candidate 0
  std::uint64_t uncertainty_seed = 0;  ///< each problem's numpy seed is numpy_seed(this, id)
  TextOptions text = {};
};

/// Lines written and problems dropped.
struct ExportCounts {
  std::size_t written = 0;
  std::size_t dropped = 0;
};

/// The JSON line of one problem (no newline); the problem is shown as the options say.
std::string export_line(const Item& item, const engine::Problem& problem,
                        const ExportOptions& options);
/// The same appended to `out`.
void append_export_line(std::string& out, const Item& item, const engine::Problem& problem,
                        const ExportOptions& options);
/// Every problem under `root` (for_each_item) as JSON Lines appended to `out`, in file order.
ExportCounts export_set(const std::filesystem::path& root, const ExportOptions& options,
                        int threads, std::string& out);
/// The same handed to `sink` in pieces of about 1 MiB as they are made, so that memory does not
/// grow with the set.
ExportCounts export_set(const std::filesystem::path& root, const ExportOptions& options,
                        int threads, const std::function<void(std::string_view)>& sink);

/// A `json` export line read back.
struct ExportedProblem {
  std::string id;
  std::string split;
  engine::Problem problem;  ///< target from "answer" when present
};
/// Parses a line of `--format json`; InputError naming `file`, the line and the field.
ExportedProblem parse_json_export_line(std::string_view line, const std::string& file,
                                       std::size_t line_number);

}  // namespace rave::evaluation
