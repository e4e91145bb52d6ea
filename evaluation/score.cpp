#include "evaluation/score.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "common/error.hpp"
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

// The credit one prediction earns on its item (0 or 1; a share of 1 for tied top scores).
double credit(const Item& item, const Prediction& p, const ScoreOptions& o,
              const std::string& file) {
  const int n = item.candidates;
  std::vector<int> order;
  if (o.shuffle_seed) order = candidate_order(*o.shuffle_seed, item.id, n);
  const auto original = [&](int shown) {
    return order.empty() ? shown : order[static_cast<std::size_t>(shown)];
  };
  const bool use_answer = o.protocol == Protocol::kMultipleChoice && p.answer;
  if (use_answer) {
    if (*p.answer >= n)
      throw InputError(
          file, at_line(p.line),
          "answer " + std::to_string(*p.answer) + " is outside 0.." + std::to_string(n - 1));
    return original(*p.answer) == *item.answer ? 1.0 : 0.0;
  }
  if (static_cast<int>(p.scores.size()) != n)
    throw InputError(
        file, at_line(p.line),
        p.scores.empty()
            ? std::string(
                  o.protocol == Protocol::kSingleCandidate
                      ? "no \"scores\" (the single-candidate protocol needs one per candidate)"
                      : "no answer")
            : std::to_string(p.scores.size()) + " scores for " + std::to_string(n) + " candidates");
  std::vector<double> scores(p.scores.size());
  for (int k = 0; k < n; ++k)
    scores[static_cast<std::size_t>(original(k))] = p.scores[static_cast<std::size_t>(k)];
  return top_score_credit(scores, *item.answer);
}

// Counts the evaluated items a file (or player) did not answer.
void count_missing(const AnswerKey& key, const std::vector<std::uint8_t>& answered, FileScore& s) {
  for (std::size_t i = 0; i < key.items().size(); ++i) {
    const Item& item = key.items()[i];
    if (!s.evaluated[i] || answered[i] || !item.answer) continue;
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

AnswerKey AnswerKey::load(const fs::path& root, int threads) {
  AnswerKey key(root, load_items(root, threads));
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
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  if (auto it = index_.find(relative.generic_string()); it != index_.end()) return it->second;
  return std::nullopt;
}

double Tally::accuracy() const {
  return items() == 0 ? std::numeric_limits<double>::quiet_NaN() : 100.0 * correct / items();
}

int FileScore::outside() const {
  return static_cast<int>(std::count(evaluated.begin(), evaluated.end(), std::uint8_t{0}));
}

double top_score_credit(const std::vector<double>& scores, int answer) {
  const double top = *std::max_element(scores.begin(), scores.end());
  if (scores[static_cast<std::size_t>(answer)] != top) return 0.0;
  return 1.0 / static_cast<double>(std::count(scores.begin(), scores.end(), top));
}

FileScore score_file(const AnswerKey& key, const PredictionFile& file,
                     const ScoreOptions& options) {
  const auto& items = key.items();
  FileScore s{.label = file.file, .evaluated = std::vector<std::uint8_t>(items.size(), 0)};
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
    groups.insert(group_of(items[*i]));
    const bool answers = p.answer || !p.scores.empty();
    if (!items[*i].answer || !answers) continue;
    answered[*i] = 1;
    add_credit(items[*i], credit(items[*i], p, options, file.file), s);
  }
  for (std::size_t i = 0; i < items.size(); ++i)
    s.evaluated[i] = groups.count(group_of(items[i])) ? 1 : 0;
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
  for (std::size_t i = 0; i < key.items().size(); ++i) {
    const Item& item = key.items()[i];
    if (!evaluated[i] || !item.answer) continue;
    const int choice = player == Player::kSolver ? item.solver_answer : item.blind_answer;
    add_credit(item, choice == *item.answer ? 1.0 : 0.0, s);
  }
  return s;
}

}  // namespace rave::evaluation
