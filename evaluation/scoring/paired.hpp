#pragma once
// Two models compared on the same problems (docs/evaluation.md#paired-comparison): per problem
// each model's credit (1 right, 0 wrong or unanswered, a share for tied top scores), the
// difference of the accuracies with a paired bootstrap 95% interval (problems resampled with
// replacement, both models' credits together), and McNemar's exact test on the discordant
// problems (right for one model only): the two-sided binomial p of the smaller count among them.
// Only problems both files are scored on count.
//
//   PairedComparison c = compare_paired(report.rows[0], report.rows[1]);
//   c.difference;            // accuracy of a minus b, percentage points
//   c.low, c.high;           // its paired bootstrap 95% interval
//   c.mcnemar_p;             // exact two-sided p of "a and b are equally often right"
#include <cstdint>
#include <string>

#include "evaluation/scoring/report.hpp"

namespace rave::evaluation {

/// The comparison of two files scored on one key.
struct PairedComparison {
  std::string a = {}, b = {};  ///< the rows' labels
  int problems = 0;            ///< problems both are scored on
  double only_a = 0;           ///< right for a, wrong for b (expected counts under tied credit)
  double only_b = 0;           ///< right for b, wrong for a
  double difference = 0;       ///< accuracy of a minus b, percentage points
  double low = 0, high = 0;    ///< paired bootstrap 95% interval of the difference
  double mcnemar_p = 1;        ///< exact McNemar p (two-sided), discordant counts rounded
  int resamples = 0;           ///< bootstrap resamples drawn
};

/// Compares two one-file rows of a report (ReportRow::credits); the bootstrap draws `resamples`
/// resamples from `seed`, so the interval is the same on every run. InputError when a row is
/// several seeds (no per-problem credit).
PairedComparison compare_paired(const ReportRow& a, const ReportRow& b, int resamples = 10'000,
                                std::uint64_t seed = 2024);

/// "paired: a - b = +3.20 points [95% paired bootstrap 1.10, 5.30] on 700 problems; McNemar exact
/// p = 0.0041 (right for a only: 40, for b only: 18)\n".
std::string paired_text(const PairedComparison& c);
/// The same as one JSON object (no newline).
std::string paired_json(const PairedComparison& c);

/// The exact two-sided binomial p of k or fewer (or as many more) successes in n trials at 1/2:
/// min(1, 2 P(X <= min(k, n - k))); 1 when n == 0.
double mcnemar_exact_p(int k, int n);

}  // namespace rave::evaluation
