#include "solver/readings.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"

namespace rave::solver {
namespace {

using engine::kCandidates;
using Readings = PanelReadings;

double log_add(double a, double b) {
  if (a == kNoScore) return b;
  if (b == kNoScore) return a;
  return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

// The problem with context combination `n` (mixed radix over the context panels' readings, panel
// 0 the fastest digit) and reading `pass` of each candidate (its last one when it has fewer).
engine::Problem combination(engine::ConfigId config, const engine::Variant& variant,
                            const Readings& r, long n, int pass) {
  engine::Problem p;
  p.config = config;
  p.variant = variant;
  const std::size_t context = r.size() - kCandidates;
  p.context.resize(context);
  for (std::size_t i = 0; i < context; ++i) {
    const long size = static_cast<long>(r[i].size());
    p.context[i] = r[i][static_cast<std::size_t>(n % size)];
    n /= size;
  }
  for (std::size_t i = 0; i < kCandidates; ++i) {
    const auto& list = r[context + i];
    p.candidates[i] = list[std::min<std::size_t>(static_cast<std::size_t>(pass), list.size() - 1)];
  }
  return p;
}

// How many problems the readings make: combinations of the context's, passes over the candidates'.
struct Extent {
  long combinations = 1;
  std::size_t passes = 1;
};

Extent extent_of(const Readings& readings) {
  const std::size_t context = readings.size() - kCandidates;
  Extent e;
  for (std::size_t i = 0; i < readings.size(); ++i) {
    RAVE_CHECK(!readings[i].empty(), "every panel has a reading");
    if (i < context)
      e.combinations = std::min<long>(kMaxReadingCombinations,
                                      e.combinations * static_cast<long>(readings[i].size()));
    else
      e.passes = std::max(e.passes, readings[i].size());
  }
  return e;
}

// Where the best single score of a candidate came from, to explain it afterwards.
struct Best {
  double score = kNoScore;
  long combination = 0;
  int pass = 0;
};

// The scores of every problem the readings make, combined per candidate into `out`.
class Marginal {
 public:
  Marginal(const Readings& readings, bool sum) : readings_(readings), sum_(sum) {
    out_.log_score.fill(kNoScore);
  }
  void add(const Solution& s, long n, int pass) {
    if (out_.reason.empty()) out_.reason = s.reason;
    const std::size_t context = readings_.size() - kCandidates;
    for (int i = 0; i < kCandidates; ++i)
      if (static_cast<std::size_t>(pass) <
              readings_[context + static_cast<std::size_t>(i)].size() &&
          ((s.consistent >> i) & 1u))
        add_candidate(i, s.log_score[i], n, pass);
  }
  // The solution: the consistent candidate with the highest score answers.
  Solution finish() {
    for (int i = 0; i < kCandidates; ++i)
      if (((out_.consistent >> i) & 1u) &&
          (!out_.answer || out_.log_score[i] > out_.log_score[*out_.answer]))
        out_.answer = i;
    out_.verdict = verdict_of(out_.consistent);
    if (out_.verdict != Verdict::kNone) out_.reason.clear();
    return out_;
  }
  const Best& best(int i) const { return best_[static_cast<std::size_t>(i)]; }

 private:
  void add_candidate(int i, double score, long n, int pass) {
    out_.consistent = static_cast<std::uint8_t>(out_.consistent | (1u << i));
    double& total = out_.log_score[i];
    total = sum_ ? log_add(total, score) : std::max(total, score);
    Best& best = best_[static_cast<std::size_t>(i)];
    if (score > best.score) best = Best{score, n, pass};
  }
  const Readings& readings_;
  bool sum_;
  Solution out_;
  std::array<Best, kCandidates> best_{};
};

// Each consistent candidate's reading under its best combination (the only one, usually: the
// solver holds it from the last solve).
void explain(Solver& solver, engine::ConfigId config, const engine::Variant& variant,
             const Readings& readings, const Extent& e, const Marginal& marginal,
             std::uint8_t consistent, CandidateReadings& explained) {
  for (int i = 0; i < kCandidates; ++i) {
    explained[i] = Reading{};
    if (!((consistent >> i) & 1u)) continue;
    if (e.combinations > 1 || e.passes > 1)
      solver.solve(combination(config, variant, readings, marginal.best(i).combination,
                               marginal.best(i).pass));
    explained[i] = solver.reading(i);
  }
}

}  // namespace

SolveOptions readings_options(SolveOptions base) {
  base.angle = false;
  base.score_unique = true;
  return base;
}

Solution solve_readings(Solver& solver, engine::ConfigId config, const engine::Variant& variant,
                        const Readings& readings, CandidateReadings* explained) {
  RAVE_CHECK(readings.size() == static_cast<std::size_t>(engine::panel_count(variant.grid)),
             "one reading list per panel of the variant's matrix");
  const Extent e = extent_of(readings);
  // Probabilities add; Z3's maxima do not.
  Marginal marginal(readings, solver.backend() == Backend::kHeuristic);
  for (long n = 0; n < e.combinations; ++n)
    for (std::size_t pass = 0; pass < e.passes; ++pass)
      marginal.add(solver.solve(combination(config, variant, readings, n, static_cast<int>(pass))),
                   n, static_cast<int>(pass));
  Solution out = marginal.finish();
  if (explained)
    explain(solver, config, variant, readings, e, marginal, out.consistent, *explained);
  return out;
}

}  // namespace rave::solver
