#include "jobs/from_pixels.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"

namespace rave::jobs {
using namespace rave::engine;  // jobs work on their values
using namespace rave::solver;  // jobs work on their values
namespace {

using engine::kCandidates;

double log_add(double a, double b) {
  if (a == kNoScore) return b;
  if (b == kNoScore) return a;
  return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

// The problem with context combination `n` (mixed radix over the context panels' readings, panel
// 0 the fastest digit) and reading `pass` of each candidate (its last one when it has fewer).
engine::Problem combination(engine::ConfigId config, const engine::Variant& variant,
                            const PanelReadings& r, long n, int pass) {
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

// Where the best single score of the answer came from, to explain it afterwards.
struct Best {
  double score = kNoScore;
  long combination = 0;
  int pass = 0;
};

}  // namespace

SolveOptions pixel_options(SolveOptions base) {
  base.angle = false;
  base.score_unique = true;
  return base;
}

Solution solve_readings(Solver& solver, engine::ConfigId config, const engine::Variant& variant,
                        const PanelReadings& readings, CandidateReadings* explained) {
  RAVE_CHECK(readings.size() == static_cast<std::size_t>(engine::panel_count(variant.grid)),
             "one reading list per panel of the variant's matrix");
  const std::size_t context = readings.size() - kCandidates;
  long combinations = 1;
  std::size_t passes = 1;
  for (std::size_t i = 0; i < readings.size(); ++i) {
    RAVE_CHECK(!readings[i].empty(), "every panel has a reading");
    if (i < context)
      combinations = std::min<long>(kMaxReadingCombinations,
                                    combinations * static_cast<long>(readings[i].size()));
    else
      passes = std::max(passes, readings[i].size());
  }
  const bool sum =
      solver.backend() == Backend::kHeuristic;  // probabilities add; Z3's maxima do not
  Solution out;
  out.log_score.fill(kNoScore);
  std::array<Best, kCandidates> best{};
  for (long n = 0; n < combinations; ++n)
    for (std::size_t pass = 0; pass < passes; ++pass) {
      const Solution s =
          solver.solve(combination(config, variant, readings, n, static_cast<int>(pass)));
      if (out.reason.empty()) out.reason = s.reason;
      for (int i = 0; i < kCandidates; ++i) {
        if (pass >= readings[context + static_cast<std::size_t>(i)].size() ||
            !((s.consistent >> i) & 1u))
          continue;
        out.consistent = static_cast<std::uint8_t>(out.consistent | (1u << i));
        out.log_score[i] = sum ? log_add(out.log_score[i], s.log_score[i])
                               : std::max(out.log_score[i], s.log_score[i]);
        if (s.log_score[i] > best[i].score)
          best[i] = Best{s.log_score[i], n, static_cast<int>(pass)};
      }
    }
  for (int i = 0; i < kCandidates; ++i)
    if (((out.consistent >> i) & 1u) &&
        (!out.answer || out.log_score[i] > out.log_score[*out.answer]))
      out.answer = i;
  out.verdict = verdict_of(out.consistent);
  if (out.verdict != Verdict::kNone) out.reason.clear();
  if (explained)  // each candidate under its best combination (the only one, usually: solved last)
    for (int i = 0; i < kCandidates; ++i) {
      (*explained)[i] = Reading{};
      if (!((out.consistent >> i) & 1u)) continue;
      if (combinations > 1 || passes > 1)
        solver.solve(combination(config, variant, readings, best[i].combination, best[i].pass));
      (*explained)[i] = solver.reading(i);
    }
  return out;
}

Solution solve_perceived(Solver& solver, const perception::PerceivedProblem& perceived,
                         CandidateReadings* explained) {
  if (!perceived.recognised) {
    Solution none;
    none.log_score.fill(kNoScore);
    none.reason = perceived.failure;
    return none;
  }
  Solution s = solve_readings(solver, perceived.config, perceived.variant, perceived.alternatives,
                              explained);
  if (!s.answer) return s;
  for (const auto& [i, j] : perceived.identical_candidates) {
    const int twin = i == *s.answer ? j : j == *s.answer ? i : -1;
    if (twin < 0 || !((s.consistent >> twin) & 1u)) continue;
    s.verdict = Verdict::kAmbiguous;
    s.reason = "identical images: candidates " + std::to_string(std::min(i, j)) + " and " +
               std::to_string(std::max(i, j));
    break;
  }
  return s;
}

}  // namespace rave::jobs
