#pragma once
// The answer forms of language models, turned into a candidate or candidate scores as their
// sources do (docs/evaluation.md#answer-forms):
//  - lm-raven (hxiaoyang/lm-raven evaluation.py): per sub-prompt and candidate the token
//    log-probabilities; a candidate's score is the sum over sub-prompts of their mean (or sum);
//  - IBM (IBM/raven-large-language-models src/solver_pred.py, solver_disc.py): `text2num` takes
//    the numbers out of generated text, `majority_vote` takes per attribute the most frequent
//    value over samples, `find_best_match` the candidate with most equal attributes, the lowest
//    index on ties; `guard_answer` maps a named candidate outside 0..7 to 0.
//
//   std::vector<double> v = text2num("Answer #3: (6,0.5,30)", "");     // {3, 6, 0.5, 30}
//   int k = find_best_match(values.entangled, {6, 0.5, 30});
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/problem.hpp"
#include "evaluation/scoring/predictions.hpp"

namespace rave::evaluation {

/// IBM's text2num on one text: the floats of every match of `[-+]?(?:\d*\.*\d+)`, in order, in
/// the part after the first `answer_queue` when it is not empty and occurs (a match with two dots,
/// on which Python's float() raises, is left out).
std::vector<double> text2num(std::string_view text, std::string_view answer_queue);

/// IBM's majority_vote (scipy.stats.mode, nan_policy omit) over samples (rows) per column: the most
/// frequent non-NaN value, the smallest on ties; 0 where a column is all NaN.
std::vector<double> majority_vote(const std::vector<std::vector<double>>& samples);

/// IBM's find_best_match: the first candidate with the most columns equal to `prediction`.
int find_best_match(const std::vector<std::vector<double>>& candidates,
                    const std::vector<double>& prediction);

/// What IBM's protocol compares: per candidate the numbers of its entangled text (IBM's
/// `text2num(rpm.choices)`), and per branch ("Grid/type", ...) of the disentangled form the
/// numbers of each candidate's sub-prompt choice.
struct CandidateValues {
  std::vector<std::vector<double>> entangled = {};            ///< [candidate] numbers
  std::vector<std::string> branches = {};                     ///< "component/attribute"
  std::vector<std::vector<std::vector<double>>> branch = {};  ///< [branch][candidate] numbers
};
/// The values of a problem's candidates in the default text forms of `rave export`.
CandidateValues candidate_values(const engine::Problem& problem);

/// How "text" answers are read (docs/evaluation.md#answer-forms).
enum class TextAnswer {
  kIndex,   ///< IBM's Solver_disc: the first number names the candidate (guard_answer, vote)
  kValues,  ///< IBM's Solver_pred: the first n numbers are the panel's values (find_best_match)
  kLabel,   ///< a label 1..n as rave's image prompts ask, by read_reply's rule (reply.hpp)
  kLetter,  ///< an option letter A..H as the harness forms ask, by read_reply's rule
  /// the 0-based "Answer #k" of IBM's text prompts by read_reply's rule (the RL environment's text
  /// form, evaluation/export/gym.hpp), not IBM's first number
  kAnswerIndex,
};
/// "index", "values", "label", "letter", "answer-index"
std::string_view text_answer_name(TextAnswer mode);
std::optional<TextAnswer> parse_text_answer(std::string_view name);

/// What a line's "text" samples name.
struct TextChoice {
  std::optional<int> candidate = {};  ///< nullopt: a label or letter reply that names none
  bool read = false;  ///< a sample held an answer in the mode's form (IBM's modes: a number)
};

/// IBM's `nattr` (3 in every data config it ships): the numbers of a panel kValues compares, the
/// first three (Type, Size, Color of the first entity). kAllNumbers compares every number a
/// candidate's text holds (rave's reading of two components, grids and Angle).
inline constexpr int kIbmNattr = 3;
inline constexpr int kAllNumbers = 0;

/// The candidate a line's "text" samples name among `candidates`: IBM's protocol for kIndex and
/// kValues (NaN and out-of-range mapped to 0, so a candidate always; `values` needed; kValues
/// compares the first `nattr` numbers of a sample and of each candidate, as IBM's
/// text2num(..., nattr, ...), or all of them for kAllNumbers), the majority of the readable
/// samples for kLabel and kLetter (`values` may be null).
TextChoice text_choice(const std::vector<std::string>& texts, const CandidateValues* values,
                       int candidates, TextAnswer mode, std::string_view answer_queue,
                       int nattr = kIbmNattr);

/// The value an attribute answer gives: its numbers, or for replies IBM's reading of a branch in
/// Solver_pred._predict: per reply the first number after `answer_queue` (NaN when none), then
/// majority_vote over the replies (0 when none has a number).
std::vector<double> attribute_value(const AttributeAnswer& answer, std::string_view answer_queue);

/// The candidate a line's "attributes" best match (find_best_match over the named branches, each
/// read by attribute_value); InputError naming the line for an attribute the problem has no
/// branch for.
int attribute_candidate(const std::vector<AttributeAnswer>& answers, const CandidateValues& values,
                        std::string_view answer_queue, const std::string& file, std::size_t line);

/// How a candidate's token log-probabilities make its score of a sub-prompt.
enum class LogprobScore { kMean, kSum };
std::string_view logprob_score_name(LogprobScore how);  ///< "mean", "sum"
std::optional<LogprobScore> parse_logprob_score(std::string_view name);
/// lm-raven's candidate scores from token log-probabilities: per candidate, the sum over
/// sub-prompts of the mean (lm-raven's) or the sum of the tokens. InputError naming the line for
/// a sub-prompt without one token list per candidate or an empty token list.
std::vector<double> logprob_scores(const Prediction& p, LogprobScore how, int candidates,
                                   const std::string& file);

}  // namespace rave::evaluation
