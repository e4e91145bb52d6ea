#include "evaluation/scoring/paired.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <vector>

#include "common/error.hpp"

namespace rave::evaluation {
namespace {

// The credits of the problems both files are scored on, as pairs.
struct Pairs {
  std::vector<double> a, b;
};

Pairs common_items(const ReportRow& a, const ReportRow& b) {
  for (const ReportRow* r : {&a, &b})
    if (r->credits.empty())
      throw InputError(
          r->label, "",
          "a paired comparison needs one file per model (this row is " + r->note + ")");
  RAVE_CHECK(a.credits.size() == b.credits.size(), "both rows are scored on one key");
  Pairs p;
  for (std::size_t i = 0; i < a.credits.size(); ++i) {
    if (std::isnan(a.credits[i]) || std::isnan(b.credits[i])) continue;
    p.a.push_back(a.credits[i]);
    p.b.push_back(b.credits[i]);
  }
  return p;
}

// The 2.5% and 97.5% percentiles of the mean difference over `resamples` paired resamples. A
// resample of n problems with replacement only matters through how many of each distinct
// difference a - b it draws (1, 0, -1 and the shares of tied credit): a multinomial over those,
// drawn as a chain of binomials, so a resample costs a few draws whatever n is.
std::pair<double, double> bootstrap(const Pairs& p, int resamples, std::uint64_t seed) {
  std::map<double, std::int64_t> counts;
  for (std::size_t i = 0; i < p.a.size(); ++i) ++counts[p.a[i] - p.b[i]];
  const auto n = static_cast<std::int64_t>(p.a.size());
  std::mt19937_64 gen(seed);
  std::vector<double> means(static_cast<std::size_t>(resamples));
  for (double& m : means) {
    std::int64_t left = n, rest = n;  // draws still to place; problems in the classes still open
    double sum = 0;
    for (const auto& [difference, count] : counts) {
      std::int64_t x = left;
      if (count < rest)
        x = std::binomial_distribution<std::int64_t>(
            left, static_cast<double>(count) / static_cast<double>(rest))(gen);
      sum += static_cast<double>(x) * difference;
      left -= x, rest -= count;
    }
    m = 100.0 * sum / static_cast<double>(n);
  }
  std::sort(means.begin(), means.end());
  const auto at = [&](double q) {
    return means[static_cast<std::size_t>(std::lround(q * (resamples - 1)))];
  };
  return {at(0.025), at(0.975)};
}

}  // namespace

double mcnemar_exact_p(int k, int n) {
  if (n <= 0) return 1.0;
  k = std::min(k, n - k);
  double tail = 0, log_half = n * std::log(0.5);
  for (int i = 0; i <= k; ++i)
    tail +=
        std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + log_half);
  return std::min(1.0, 2 * tail);
}

PairedComparison compare_paired(const ReportRow& a, const ReportRow& b, int resamples,
                                std::uint64_t seed) {
  const Pairs p = common_items(a, b);
  PairedComparison c{.a = a.label, .b = b.label, .problems = static_cast<int>(p.a.size())};
  if (c.problems == 0) return c;
  double diff = 0;
  for (std::size_t i = 0; i < p.a.size(); ++i) {
    c.only_a += p.a[i] * (1 - p.b[i]);
    c.only_b += p.b[i] * (1 - p.a[i]);
    diff += p.a[i] - p.b[i];
  }
  c.difference = 100.0 * diff / c.problems;
  const auto discordant = static_cast<int>(std::lround(c.only_a + c.only_b));
  c.mcnemar_p =
      mcnemar_exact_p(static_cast<int>(std::lround(std::min(c.only_a, c.only_b))), discordant);
  c.resamples = resamples;
  std::tie(c.low, c.high) = bootstrap(p, resamples, seed);
  return c;
}

std::string paired_text(const PairedComparison& c) {
  char numbers[200];
  std::snprintf(numbers, sizeof numbers,
                " = %+.2f points [95%% paired bootstrap %.2f, %.2f] on %d problems; McNemar exact "
                "p = %.4g (right for ",
                c.difference, c.low, c.high, c.problems, c.mcnemar_p);
  const auto count = [](double x) { return std::to_string(std::lround(x)); };
  return "paired: " + c.a + " - " + c.b + numbers + c.a + " only: " + count(c.only_a) + ", for " +
         c.b + " only: " + count(c.only_b) + ")\n";
}

std::string paired_json(const PairedComparison& c) {
  const nlohmann::ordered_json j{{"a", c.a},
                                 {"b", c.b},
                                 {"problems", c.problems},
                                 {"difference", c.difference},
                                 {"ci95", {c.low, c.high}},
                                 {"interval", "paired bootstrap"},
                                 {"resamples", c.resamples},
                                 {"only_a", c.only_a},
                                 {"only_b", c.only_b},
                                 {"mcnemar_p", c.mcnemar_p}};
  return j.dump();
}

}  // namespace rave::evaluation
