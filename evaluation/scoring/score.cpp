#include "evaluation/scoring/score.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "common/error.hpp"
#include "evaluation/ibm_json.hpp"
#include "evaluation/shuffle.hpp"

namespace rave::evaluation {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kListedUnknown = 5;

std::string strip_problem_extension(std::string id) {
  for (const char* ext : {".xml", ".npz", ".asig"}) {
    const std::string_view e(ext);
    if (id.size() > e.size() && id.compare(id.size() - e.size(), e.size(), e) == 0)
      return id.substr(0, id.size() - e.size());
  }
  return id;
}

std::string at_line(std::size_t line) { return "line " + std::to_string(line); }

// The index of the (configuration, split) group of an item.
std::pair<int, std::string> group_of(const Item& item) {
  return {engine::config_index(item.config), item.split};
}

// The seed whose order a line's answer is in: the line's "answers_shuffled", else the flag; a
// line and a flag that disagree are an error naming the line.
std::optional<std::uint64_t> line_seed(const Prediction& p, const ScoreOptions& o,
                                       const std::string& file) {
  if (p.answers_shuffled && o.shuffle_seed && *p.answers_shuffled != *o.shuffle_seed)
    throw InputError(file, at_line(p.line),
                     "\"answers_shuffled\": " + std::to_string(*p.answers_shuffled) +
                         ", but the shuffle seed given is " + std::to_string(*o.shuffle_seed));
  return p.answers_shuffled ? p.answers_shuffled : o.shuffle_seed;
}

// Position in the key's order of each position in the line's order: through the original order
// when the two were shown under different seeds.
std::vector<int> key_positions(const std::string& id, int n, std::optional<std::uint64_t> line,
                               std::optional<std::uint64_t> key) {
  std::vector<int> to_key(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) to_key[static_cast<std::size_t>(k)] = k;
  if (line == key) return to_key;
  if (line) to_key = candidate_order(*line, id, n);  // shown k -> original
  if (key) {
    const auto order = candidate_order(*key, id, n);  // key position j holds original order[j]
    std::vector<int> inverse(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j)
      inverse[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])] = j;
    for (int& k : to_key) k = inverse[static_cast<std::size_t>(k)];
  }
  return to_key;
}

// A line's candidate scores, in the line's order: "scores", else lm-raven's from "logprobs".
std::vector<double> line_scores(const Prediction& p, int n, const ScoreOptions& o,
                                const std::string& file) {
  if (!p.scores.empty() || p.logprobs.empty()) {
    if (static_cast<int>(p.scores.size()) != n)
      throw InputError(
          file, at_line(p.line),
          p.scores.empty()
              ? std::string(o.protocol == Protocol::kSingleCandidate
                                ? "no \"scores\" or \"logprobs\" (the single-candidate protocol "
                                  "needs one per candidate)"
                                : "no answer")
              : std::to_string(p.scores.size()) + " scores for " + std::to_string(n) +
                    " candidates");
    return p.scores;
  }
  return logprob_scores(p, o.logprob_score, n, file);
}

// The candidate a "text" or "attributes" line names (nullopt: a reply naming none, counted in
// `s`), or nullopt for neither.
struct Parsed {
  bool given = false;            // the line answers by "text" or "attributes"
  std::optional<int> candidate;  // nullopt when given: an unreadable reply, wrong
};

Parsed parsed_choice(const AnswerKey& key, std::size_t i, const Prediction& p,
                     const ScoreOptions& o, const std::string& file, FileScore& s) {
  if (p.texts.empty() && p.attributes.empty()) return {};
  const CandidateValues* values = key.values(i);
  if (!p.texts.empty()) {
    const TextChoice c =
        text_choice(p.texts, values, key.items()[i].candidates,
                    o.text_answer.value_or(key.text_answer()), o.answer_queue, o.nattr);
    ++s.texts;
    if (!c.read) ++s.unreadable;
    return {true, c.candidate};
  }
  RAVE_CHECK(values != nullptr, "the key holds candidate values for attribute answers");
  return {true, attribute_candidate(p.attributes, *values, o.answer_queue, file, p.line)};
}

// The credit one prediction earns on its item (0 or 1; a share of 1 for tied top scores).
double credit(const AnswerKey& key, std::size_t i, const Prediction& p, const ScoreOptions& o,
              const std::string& file, FileScore& s) {
  const Item& item = key.items()[i];
  const int n = item.candidates;
  // A line that names no order is in the key's (an export key's shown order, a folder's own).
  const std::optional<std::uint64_t> seed = line_seed(p, o, file);
  const auto to_key =
      key_positions(item.id, n, seed ? seed : key.shown_order(i), key.shown_order(i));
  const auto in_key = [&](int shown) { return to_key[static_cast<std::size_t>(shown)]; };
  const bool multiple_choice = o.protocol == Protocol::kMultipleChoice;
  std::optional<int> choice = multiple_choice ? p.answer : std::nullopt;
  if (!choice && multiple_choice) {
    const Parsed parsed = parsed_choice(key, i, p, o, file, s);
    if (parsed.given && !parsed.candidate) return 0.0;
    choice = parsed.candidate;
  }
  if (choice) {
    if (*choice >= n)
      throw InputError(
          file, at_line(p.line),
          "answer " + std::to_string(*choice) + " is outside 0.." + std::to_string(n - 1));
    return in_key(*choice) == *item.answer ? 1.0 : 0.0;
  }
  const std::vector<double> shown = line_scores(p, n, o, file);
  std::vector<double> scores(shown.size());
  for (int k = 0; k < n; ++k)
    scores[static_cast<std::size_t>(in_key(k))] = shown[static_cast<std::size_t>(k)];
  return top_score_credit(scores, *item.answer, o.ties);
}

// Counts the evaluated items a file (or player) did not answer.
void count_missing(const AnswerKey& key, const std::vector<std::uint8_t>& answered, FileScore& s) {
  for (std::size_t i = 0; i < key.items().size(); ++i) {
    const Item& item = key.items()[i];
    if (!s.evaluated[i] || answered[i] || !item.answer) continue;
    s.credits[i] = 0;
    ++s.per_config[static_cast<std::size_t>(engine::config_index(item.config))].missing;
    ++s.total.missing;
    if (item.verdict == solver::Verdict::kUnique) ++s.unique.missing;
  }
}

void add_credit(const Item& item, double c, FileScore& s) {
  s.per_config[static_cast<std::size_t>(engine::config_index(item.config))].add(c);
  s.total.add(c);
  if (item.verdict == solver::Verdict::kUnique) s.unique.add(c);
}

}  // namespace

std::string_view protocol_name(Protocol protocol) {
  return protocol == Protocol::kMultipleChoice ? "multiple-choice" : "single-candidate";
}

std::optional<Protocol> parse_protocol(std::string_view name) {
  if (name == "multiple-choice") return Protocol::kMultipleChoice;
  if (name == "single-candidate") return Protocol::kSingleCandidate;
  return std::nullopt;
}

AnswerKey::AnswerKey(fs::path root, std::vector<Item> items)
    : root_(std::move(root)), items_(std::move(items)) {
  for (std::size_t i = 0; i < items_.size(); ++i) index_.emplace(items_[i].id, i);
}

AnswerKey AnswerKey::load(const fs::path& root, int threads, KeyNeeds needs) {
  std::error_code ec;
  const std::string ext = root.extension().string();
  if (fs::is_regular_file(root, ec) &&
      (ext == ".jsonl" || ext == ".ndjson" || (ext == ".json" && !holds_ibm_problems(root))))
    return load_export_key(root, needs);
  std::vector<Item> items;
  std::vector<CandidateValues> values;
  for_each_item(root, threads, [&](const Item& item, const engine::Problem& problem) {
    items.push_back(item);
    if (needs.values) values.push_back(candidate_values(problem));
  });
  AnswerKey key(root, std::move(items));
  key.values_ = std::move(values);
  if (ext == ".json") key.style_ = "ibm";  // IBM's own file: its prompts number from "Answer #0"
  if (std::none_of(key.items_.begin(), key.items_.end(),
                   [](const Item& i) { return i.answer.has_value(); }))
    throw InputError(root.string(), "",
                     "no problem here has a known answer (no .npz beside the .xml files?)");
  return key;
}

std::optional<std::size_t> AnswerKey::find(std::string_view id) const {
  std::string bare = strip_problem_extension(std::string(id));
  if (auto it = index_.find(bare); it != index_.end()) return it->second;
  const fs::path relative =
      fs::path(bare).lexically_normal().lexically_relative(root_.lexically_normal());
  if (!relative.empty() && *relative.begin() != "..")
    if (auto it = index_.find(relative.generic_string()); it != index_.end()) return it->second;
  if (!from_export_) return std::nullopt;
  // An export key has no folder to be relative to: the longest tail of the path after a '/'
  // that is an id (DIR/center_single/RAVEN_0_train.xml names center_single/RAVEN_0_train).
  for (std::size_t slash = bare.find('/'); slash != std::string::npos;
       slash = bare.find('/', slash + 1))
    if (auto it = index_.find(bare.substr(slash + 1)); it != index_.end()) return it->second;
  return std::nullopt;
}

double Tally::accuracy() const {
  return items() == 0 ? std::numeric_limits<double>::quiet_NaN() : 100.0 * correct / items();
}

int FileScore::outside() const {
  return static_cast<int>(std::count(evaluated.begin(), evaluated.end(), std::uint8_t{0}));
}

double top_score_credit(const std::vector<double>& scores, int answer, TieRule ties) {
  const double top = *std::max_element(scores.begin(), scores.end());
  if (scores[static_cast<std::size_t>(answer)] != top) return 0.0;
  if (ties == TieRule::kAny) return 1.0;
  return 1.0 / static_cast<double>(std::count(scores.begin(), scores.end(), top));
}

std::string_view tie_rule_name(TieRule rule) { return rule == TieRule::kAny ? "any" : "split"; }

std::optional<TieRule> parse_tie_rule(std::string_view name) {
  if (name == "split") return TieRule::kSplit;
  if (name == "any") return TieRule::kAny;
  return std::nullopt;
}

namespace {
// Marks the items a model's file is scored on: every item of the groups it answers, or of the
// subset (kAnswered marked its lines already).
void mark_selected(const AnswerKey& key, const ScoreOptions& options,
                   const std::set<std::pair<int, std::string>>& groups, FileScore& s) {
  for (std::size_t i = 0; i < key.items().size(); ++i) {
    if (options.selection == Selection::kGroups)
      s.evaluated[i] = groups.count(group_of(key.items()[i])) ? 1 : 0;
    else if (options.selection == Selection::kSubset)
      s.evaluated[i] = options.subset[i];
  }
}

// The answer's time, when the line gives one, under its configuration.
void record_time(const Item& item, const Prediction& p, FileScore& s) {
  if (p.seconds)
    s.seconds[static_cast<std::size_t>(engine::config_index(item.config))].push_back(*p.seconds);
}
}  // namespace

FileScore score_file(const AnswerKey& key, const PredictionFile& file,
                     const ScoreOptions& options) {
  const auto& items = key.items();
  RAVE_CHECK(options.selection != Selection::kSubset || options.subset.size() == items.size(),
             "a subset marks every item of the key");
  FileScore s{.label = file.file, .evaluated = std::vector<std::uint8_t>(items.size(), 0)};
  s.credits.assign(items.size(), std::numeric_limits<double>::quiet_NaN());
  // A participant is scored on the problems they answered (within a subset, when one is named).
  s.participant = file.participant;
  std::vector<std::size_t> line_of(items.size(), 0);
  std::vector<std::uint8_t> answered(items.size(), 0);
  std::set<std::pair<int, std::string>> groups;
  for (const Prediction& p : file.predictions) {
    const auto i = key.find(p.id);
    if (!i) {
      if (s.unknown_ids.size() < kListedUnknown) s.unknown_ids.push_back(p.id);
      ++s.unknown;
      continue;
    }
    if (line_of[*i])
      throw InputError(file.file, at_line(p.line),
                       "a second answer for " + items[*i].id + " (the first is on line " +
                           std::to_string(line_of[*i]) + ")");
    line_of[*i] = p.line;
    if (options.selection == Selection::kSubset && !options.subset[*i]) {
      ++s.skipped;
      continue;
    }
    if (file.participant && !p.answers()) {
      ++s.unanswered;
      continue;
    }
    groups.insert(group_of(items[*i]));
    if (options.selection == Selection::kAnswered || file.participant) s.evaluated[*i] = 1;
    if (!items[*i].answer || !p.answers()) continue;
    answered[*i] = 1;
    s.credits[*i] = credit(key, *i, p, options, file.file, s);
    add_credit(items[*i], s.credits[*i], s);
    record_time(items[*i], p, s);
  }
  if (!file.participant) mark_selected(key, options, groups, s);
  if (!file.predictions.empty() && s.unknown == static_cast<int>(file.predictions.size()))
    throw InputError(file.file, "",
                     "none of its " + std::to_string(s.unknown) + " ids names a problem of " +
                         key.root().string() + " (first: '" + s.unknown_ids.front() +
                         "'): answers to another set?");
  count_missing(key, answered, s);
  return s;
}

FileScore counts_score(std::string label,
                       const std::array<std::int64_t, engine::kNumConfigs>& correct,
                       const std::array<std::int64_t, engine::kNumConfigs>& total) {
  FileScore s{.label = std::move(label)};
  for (std::size_t c = 0; c < correct.size(); ++c) {
    s.per_config[c] = {.correct = static_cast<double>(correct[c]),
                       .scored = static_cast<int>(total[c]),
                       .missing = 0};
    s.total.correct += s.per_config[c].correct;
    s.total.scored += s.per_config[c].scored;
  }
  return s;
}

FileScore player_score(const AnswerKey& key, const std::vector<std::uint8_t>& evaluated,
                       Player player) {
  FileScore s{.label = player == Player::kSolver ? "Solver" : "Context-blind",
              .evaluated = evaluated};
  s.credits.assign(key.items().size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < key.items().size(); ++i) {
    const Item& item = key.items()[i];
    if (!evaluated[i] || !item.answer) continue;
    const int choice = player == Player::kSolver ? item.solver_answer : item.blind_answer;
    s.credits[i] = choice == *item.answer ? 1.0 : 0.0;
    add_credit(item, s.credits[i], s);
  }
  return s;
}

}  // namespace rave::evaluation
