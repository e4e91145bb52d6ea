#pragma once
// Scoring a model's answers against a set's answer key (docs/evaluation.md). Accuracy is counted
// per configuration (the paper's columns), in total and on the items the solver proves unique. A
// (configuration, split) group that a file answers at least once is evaluated (or, as asked, only
// the problems it answers, or a named subset): its items without a prediction are counted as
// missing, and wrong; the rest are left out (a file of test-split answers is scored on the test
// split). Duplicate ids and answers that are no candidate
// are errors naming the line; ids the set lacks are counted as unknown and listed. A study
// participant's file (PredictionFile::participant) is scored on exactly the problems it answered,
// whatever the selection (a subset still narrows it): its lines without an answer are problems shown
// to the participant and not answered, counted apart (FileScore::unanswered), not as wrong.
//
//   AnswerKey key = AnswerKey::load("data/raven", /*threads=*/1);
//   FileScore s = score_file(key, read_predictions("model.jsonl"), {});
//   double avg = s.total.accuracy();   // percent
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/model/configuration.hpp"
#include "evaluation/items.hpp"
#include "evaluation/scoring/predictions.hpp"
#include "evaluation/scoring/score_forms.hpp"

namespace rave::evaluation {

/// How the predictions were made (docs/evaluation.md).
enum class Protocol {
  kMultipleChoice,   ///< the model saw all candidates and names one ("answer", else the top of
                     ///< "scores")
  kSingleCandidate,  ///< each candidate scored alone ("scores"); the top score is the answer
};
std::string_view protocol_name(Protocol protocol);  ///< "multiple-choice", "single-candidate"
std::optional<Protocol> parse_protocol(std::string_view name);

/// Which problems a file is scored on (docs/evaluation.md#which-problems-count).
enum class Selection {
  kGroups,    ///< every problem of each (configuration, split) group the file answers once
  kAnswered,  ///< exactly the problems the file has a line for
  kSubset,    ///< the problems of a named subset (ScoreOptions::subset)
};

/// Credit when the answer is among several tied top scores.
enum class TieRule {
  kSplit,  ///< 1/k for k tied maxima: the expected accuracy of breaking the tie at random
  kAny,    ///< 1 when the answer is among them (lm-raven's evaluation.py: logprobs[0] == max)
};
std::string_view tie_rule_name(TieRule rule);  ///< "split", "any"
std::optional<TieRule> parse_tie_rule(std::string_view name);

/// What the scorer is told besides the files.
struct ScoreOptions {
  Protocol protocol = Protocol::kMultipleChoice;
  std::optional<std::uint64_t> shuffle_seed =
      {};  ///< answers refer to `rave export --answers-shuffled SEED`'s order
  Selection selection = Selection::kGroups;
  std::vector<std::uint8_t> subset = {};  ///< kSubset: per key item, 1 when in the subset
  TieRule ties = TieRule::kSplit;
  LogprobScore logprob_score = LogprobScore::kMean;  ///< how "logprobs" become a score
  /// How "text" is read; nullopt: as the key's prompts asked (AnswerKey::text_answer).
  std::optional<TextAnswer> text_answer = {};
  /// IBM's answer_queue: "text" and the replies of "attributes" are read after its first match.
  std::string answer_queue = {};
  /// IBM's nattr: the numbers of a `values` reply compared (kIbmNattr; kAllNumbers: all).
  int nattr = kIbmNattr;
};

/// What a key must hold besides the answers.
struct KeyNeeds {
  bool values = false;  ///< the candidates' attribute values (IBM's "text" and "attributes")
  /// The solver's answers (the Solver row). Without them a json export's problems are not solved
  /// (its lines give the verdicts) and the key has no references; a folder's problems are still
  /// solved, for their verdicts (the unique column).
  bool references = true;
};

/// The items of a set with an index by id.
class AnswerKey {
 public:
  AnswerKey(std::filesystem::path root, std::vector<Item> items);
  /// Reads the set under `root`: a folder of problems (load_items), or a `rave export` JSON
  /// Lines file (its id, configuration, split, answer in the shown order, verdict and
  /// answers_shuffled; the json form also gives the problem, and with it the reference players);
  /// InputError when no item has a known answer.
  static AnswerKey load(const std::filesystem::path& root, int threads, KeyNeeds needs = {});
  const std::filesystem::path& root() const { return root_; }
  const std::vector<Item>& items() const { return items_; }
  /// The item a prediction's id names: the id itself, or a path to the file (extension optional;
  /// for an export key, any path whose tail after a '/' is an id).
  std::optional<std::size_t> find(std::string_view id) const;
  /// The shuffle seed of the order item i's answer is in (an export key's answers_shuffled).
  std::optional<std::uint64_t> shown_order(std::size_t i) const {
    return i < shown_.size() ? shown_[i] : std::nullopt;
  }
  /// Whether the solver's and the context-blind answers are known (not for a text export key).
  bool has_references() const { return references_; }
  /// How the prompts made from this key asked for the answer: kValues for a `rave export
  /// --classmode pred` key (IBM's generative query: the panel's numbers), kIndex for one of IBM's
  /// or lm-raven's other text prompts ("Answer #0" on) and for IBM's own .json files, else kLabel
  /// (a folder: rave's image prompts, `rave show --vlm`, 1..8).
  TextAnswer text_answer() const {
    if (pred_) return TextAnswer::kValues;
    return style_.empty() ? TextAnswer::kLabel : TextAnswer::kIndex;
  }
  /// Item i's candidate values (KeyNeeds::values; nullptr when not loaded).
  const CandidateValues* values(std::size_t i) const {
    return i < values_.size() ? &values_[i] : nullptr;
  }

 private:
  friend AnswerKey load_export_key(const std::filesystem::path& file, KeyNeeds needs);
  std::filesystem::path root_;
  std::vector<Item> items_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::optional<std::uint64_t>> shown_ = {};
  bool references_ = true;
  bool from_export_ = false;
  std::string style_ = {};  ///< a text export key's prompt style, "ibm" for IBM's .json, else ""
  bool pred_ = false;       ///< its lines are IBM's generative queries (`--classmode pred`)
  std::vector<CandidateValues> values_ = {};
};

/// The key of a `rave export` JSON Lines file (AnswerKey::load's second case).
AnswerKey load_export_key(const std::filesystem::path& file, KeyNeeds needs);

/// One column's count.
struct Tally {
  double correct = 0;  ///< fractional when tied top scores share the credit
  int scored = 0;      ///< items answered
  int missing = 0;     ///< items of an evaluated group left unanswered (counted wrong)
  int items() const { return scored + missing; }
  double accuracy() const;  ///< percent of items(); NaN when there are none
  void add(double credit) { correct += credit, ++scored; }
};

/// A file (or a reference player) scored on a key.
struct FileScore {
  std::string label = {};
  std::array<Tally, engine::kNumConfigs> per_config = {};
  Tally total = {};
  Tally unique = {};   ///< on the items the solver proves unique
  int unknown = 0;     ///< predictions for ids the set lacks
  int texts = 0;       ///< scored answers given as "text" (a model's reply)
  int unreadable = 0;  ///< of those, replies that name no candidate in the form asked (wrong)
  std::vector<std::string> unknown_ids = {};  ///< the first 5 of them
  std::vector<std::uint8_t> evaluated = {};   ///< per key item: 1 when it is scored or missing
  int skipped = 0;  ///< lines for problems of the set outside the selection (not scored)
  /// Per key item the credit scored (1, 0 or a tied share; 0 when missing), NaN when not scored.
  std::vector<double> credits = {};
  /// A study participant's score: their number, and the problems shown to them that they did not
  /// answer (left out of every count above).
  std::optional<std::int64_t> participant = {};
  int unanswered = 0;
  /// The "seconds" of the scored answers that give one, per configuration (paper order).
  std::array<std::vector<double>, engine::kNumConfigs> seconds = {};
  int outside() const;  ///< key items left out (not selected)
};

/// Scores one predictions file; InputError on duplicates and on answers that are no candidate.
FileScore score_file(const AnswerKey& key, const PredictionFile& file, const ScoreOptions& options);

/// The reference players, on the items `evaluated` marks.
enum class Player { kSolver, kContextBlind };
FileScore player_score(const AnswerKey& key, const std::vector<std::uint8_t>& evaluated,
                       Player player);

/// A score from per-configuration counts alone (no item list: nothing missing, no unique column),
/// for tools that count accuracy themselves (rave train's test split).
FileScore counts_score(std::string label,
                       const std::array<std::int64_t, engine::kNumConfigs>& correct,
                       const std::array<std::int64_t, engine::kNumConfigs>& total);

/// Credit of a set of candidate scores when the answer is among k tied maxima: 1/k (kSplit) or 1
/// (kAny); else 0.
double top_score_credit(const std::vector<double>& scores, int answer,
                        TieRule ties = TieRule::kSplit);

}  // namespace rave::evaluation
