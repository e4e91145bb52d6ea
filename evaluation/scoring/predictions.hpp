#pragma once
// A model's answers, as `rave score` reads them (docs/evaluation.md):
//  - JSON Lines, one object per problem: {"id": "center_single/RAVEN_0_train", "answer": 3}, or
//  with
//    "scores": [s0, ..., s7] (the single-candidate protocol: each candidate scored alone). The id
//    may also be a path (with .xml/.npz/.asig), and "file" stands in for "id", so `rave solve
//    --json` output is a predictions file as it is. "answer": null is an unanswered problem. An
//    optional "model" names the row the file gives. "participant": N on every line marks the
//    file of one study participant (`rave study export`, docs/study.md#scoring): its lines are the
//    problems shown to them, scored on those they answered ("answer": null: shown, not answered).
//    Other answer forms (docs/evaluation.md#answer-forms): "logprobs" (lm-raven's per-choice token
//    log-probabilities), "text" (a generated answer, parsed by IBM's text2num) and "attributes"
//    (IBM's per-attribute answers); "answers_shuffled" (copied from the export) names the order.
//  - CSV with a header: an `id` (or `file`) column and an `answer` column, or `score_0`..`score_7`.
// Anything else, and a line that breaks the format, is an InputError naming the file and the line.
//
//   PredictionFile f = read_predictions("gpt.jsonl");
//   for (const Prediction& p : f.predictions) ... p.id, p.answer, p.line
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rave::evaluation {

/// One attribute answer of a line's "attributes": the component ("" when the line names none),
/// the attribute ("type", "size", ...) and its value: numbers (a number, or a list of numbers: a
/// grid's sorted values), or the branch's replies (a string, or a list of strings: IBM's nreturn
/// samples), which the scorer reads as IBM's _predict does (attribute_value, score_forms.hpp).
struct AttributeAnswer {
  std::string component = {};
  std::string attribute = {};
  std::vector<double> value = {};  ///< the numbers given (empty when `samples` holds replies)
  std::vector<std::string> samples = {};  ///< the replies given (empty when `value` holds numbers)
};

/// One line of a predictions file.
struct Prediction {
  std::string id = {};             ///< as written (normalised against the set by the scorer)
  std::optional<int> answer = {};  ///< multiple choice; nullopt when the line has none or null
  std::vector<double> scores =
      {};                ///< single candidate: one score per candidate (empty when absent)
  std::size_t line = 0;  ///< 1-based line of the file
  /// "answers_shuffled": the answer refers to `rave export --answers-shuffled S`'s order.
  std::optional<std::uint64_t> answers_shuffled = {};
  /// "logprobs": per sub-prompt, per candidate, the token log-probabilities (one sub-prompt when
  /// the line gives a list of 8 token lists; lm-raven's form).
  std::vector<std::vector<std::vector<double>>> logprobs = {};
  std::vector<std::string> texts = {};           ///< "text": generated answer(s), one per sample
  std::vector<AttributeAnswer> attributes = {};  ///< "attributes": IBM's per-attribute answers
  /// "seconds": the time the answer took (a person's in a study, or a model's); nullopt when absent.
  std::optional<double> seconds = {};
  /// Whether the line answers at all (an answer, scores, logprobs, text or attributes).
  bool answers() const {
    return answer || !scores.empty() || !logprobs.empty() || !texts.empty() || !attributes.empty();
  }
};

/// A whole file.
struct PredictionFile {
  std::string file = {};                     ///< its path, for messages
  std::string model = {};                    ///< the "model" of its first JSON line, or ""
  std::vector<Prediction> predictions = {};  ///< in file order
  /// A study participant's file: the "participant" every line carries (the same on each).
  std::optional<std::int64_t> participant = {};
};

/// One JSON line (no newline) of a predictions file: {"id", "answer", "scores" when given,
/// "seconds" when known, "model" when not empty, "participant" when given}.
std::string prediction_line(const Prediction& prediction, const std::string& model,
                            std::optional<std::int64_t> participant = std::nullopt);

/// Reads a predictions file (JSON Lines or CSV, told apart by the first character: `{` is JSON).
PredictionFile read_predictions(const std::filesystem::path& path);
/// Parses predictions text; `file` names it in errors.
PredictionFile parse_predictions(std::string_view text, const std::string& file);

}  // namespace rave::evaluation
