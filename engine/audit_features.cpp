// The learner audit's per-candidate features (engine/audit_features.hpp,
// docs/answer-sets.md#the-learner-audit). Every feature is a function of the candidate set (blind)
// or of the candidate set and the bag of context values (bag) that does not depend on the order the
// candidates are listed in.
#include "engine/audit_features.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string_view>

#include "common/error.hpp"
#include "engine/audit.hpp"
#include "engine/audit_features_parts.hpp"

namespace rave::engine {
namespace audit_detail {

int family_count(const Problem& p) { return 4 + p.variant.confounders; }

View view_of(const ComponentPanel& panel, int families) {
  std::vector<std::size_t> order(panel.entities.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return panel.entities[a].slot < panel.entities[b].slot;
  });
  View v;
  v.families.assign(static_cast<std::size_t>(families), {});
  const std::size_t k = static_cast<std::size_t>(families) - 4;
  for (std::size_t i : order) {
    const Entity& e = panel.entities[i];
    v.slots.push_back(e.slot);
    v.mask |= std::uint32_t{1} << (e.slot & 31);
    const std::array<int, 4> own{e.type, e.size, e.color, e.angle};
    for (std::size_t f = 0; f < 4; ++f) v.families[f].push_back(own[f]);
    for (std::size_t f = 0; f < k; ++f)
      v.families[4 + f].push_back(
          panel.confounders.size() >= (i + 1) * k ? panel.confounders[i * k + f] : 0);
  }
  return v;
}

double mean_of(const Values& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

Row ranks(const std::array<double, kCandidates>& x) {
  Row out{};
  for (std::size_t i = 0; i < kCandidates; ++i) {
    double below = 0, tied = 0;
    for (std::size_t j = 0; j < kCandidates; ++j) {
      below += x[j] < x[i];
      tied += x[j] == x[i] && j != i;
    }
    out[i] = static_cast<float>((below + tied / 2) / (kCandidates - 1));
  }
  return out;
}

}  // namespace audit_detail
namespace {

using namespace audit_detail;  // NOLINT(google-build-using-namespace): this file's own pieces
constexpr std::array<std::string_view, 4> kFamilies{"type", "size", "color", "angle"};
constexpr std::array<std::string_view, 17> kValueNames{
    "mean",     "min",       "max",      "first",     "distinct",  "uniform",
    "same_tup", "same_mset", "same_set", "same_mean", "ent_share", "rank",
    "dev_med",  "dev_rest",  "min_gap",  "is_min",    "is_max"};
constexpr std::array<std::string_view, 8> kStructureNames{
    "number",     "same_number", "rank_number", "dev_number",
    "same_slots", "jaccard",     "slot_share",  "slot_centroid"};
constexpr std::array<std::string_view, 16> kGlobalNames{
    "dist.sum", "dist.min", "dist.max", "dist.n1", "dist.n2", "dist.n3", "dist.s0",     "dist.s1",
    "dist.s2",  "dist.s3",  "dist.s4",  "dist.s5", "dist.s6", "shared",  "shared_rank", "entities"};

double median_of(std::array<double, kCandidates> x) {
  std::sort(x.begin(), x.end());
  return (x[3] + x[4]) / 2;
}

Values sorted(Values v) {
  std::sort(v.begin(), v.end());
  return v;
}

Values distinct(Values v) {
  v = sorted(std::move(v));
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// How many of the other candidates give `key(j) == key(i)`.
template <class Key>
float others_equal(std::size_t i, const Key& key) {
  int n = 0;
  for (std::size_t j = 0; j < kCandidates; ++j) n += j != i && key(j) == key(i);
  return static_cast<float>(n);
}

// What the 17 value features of one family read, for the 8 candidates.
struct Summary {
  std::array<double, kCandidates> mean{};
  std::array<Values, kCandidates> mset, set;
  Row rank{};
  double median = 0, total = 0, lo = 0, hi = 0;
};

Summary summarize(const std::array<const Values*, kCandidates>& vals) {
  Summary s;
  for (std::size_t i = 0; i < kCandidates; ++i) {
    s.mean[i] = mean_of(*vals[i]);
    s.mset[i] = sorted(*vals[i]);
    s.set[i] = distinct(*vals[i]);
  }
  s.rank = ranks(s.mean);
  s.median = median_of(s.mean);
  s.total = std::accumulate(s.mean.begin(), s.mean.end(), 0.0);
  s.lo = *std::min_element(s.mean.begin(), s.mean.end());
  s.hi = *std::max_element(s.mean.begin(), s.mean.end());
  return s;
}

// Candidate i's distance to the nearest other mean, and how many other candidates show each of its
// values (mean over its entities).
std::pair<double, double> gap_and_share(const Summary& s, const Values& v, std::size_t i) {
  double gap = 1e9, share = 0;
  for (std::size_t j = 0; j < kCandidates; ++j) {
    if (j == i) continue;
    gap = std::min(gap, std::abs(s.mean[i] - s.mean[j]));
    for (int x : v) share += std::binary_search(s.set[j].begin(), s.set[j].end(), x);
  }
  return {gap, v.empty() ? 0.0 : share / static_cast<double>(v.size())};
}

std::array<double, 17> value_features(const std::array<const Values*, kCandidates>& vals,
                                      const Summary& s, std::size_t i) {
  const Values& v = *vals[i];
  const auto [gap, share] = gap_and_share(s, v, i);
  const bool empty = v.empty();
  return {s.mean[i],
          empty ? 0.0 : s.mset[i].front(),
          empty ? 0.0 : s.mset[i].back(),
          empty ? 0.0 : v.front(),
          static_cast<double>(s.set[i].size()),
          s.set[i].size() <= 1 ? 1.0 : 0.0,
          others_equal(i, [&](std::size_t j) { return *vals[j]; }),
          others_equal(i, [&](std::size_t j) { return s.mset[j]; }),
          others_equal(i, [&](std::size_t j) { return s.set[j]; }),
          others_equal(i, [&](std::size_t j) { return s.mean[j]; }),
          share,
          s.rank[i],
          std::abs(s.mean[i] - s.median),
          s.mean[i] - (s.total - s.mean[i]) / (kCandidates - 1),
          gap,
          s.mean[i] == s.lo ? 1.0 : 0.0,
          s.mean[i] == s.hi ? 1.0 : 0.0};
}

// The 17 value features of one family of one component, for the 8 candidates.
std::array<Row, 17> value_rows(const std::array<const Values*, kCandidates>& vals) {
  const Summary s = summarize(vals);
  std::array<Row, 17> r{};
  for (std::size_t i = 0; i < kCandidates; ++i) {
    const std::array<double, 17> f = value_features(vals, s, i);
    for (std::size_t k = 0; k < f.size(); ++k) r[k][i] = static_cast<float>(f[k]);
  }
  return r;
}

std::array<Row, 8> structure_rows(const Views& v) {
  std::array<Row, 8> r{};
  std::array<double, kCandidates> number{};
  for (std::size_t i = 0; i < kCandidates; ++i) number[i] = static_cast<double>(v[i].slots.size());
  const Row rank = ranks(number);
  const double median = median_of(number);
  for (std::size_t i = 0; i < kCandidates; ++i) {
    double jaccard = 0, occupied = 0;
    for (std::size_t j = 0; j < kCandidates; ++j) {
      if (j == i) continue;
      const int both = std::popcount(v[i].mask & v[j].mask);
      const int any = std::popcount(v[i].mask | v[j].mask);
      jaccard += any == 0 ? 1.0 : static_cast<double>(both) / any;
      occupied += both;
    }
    const double n = number[i];
    const std::array<double, 8> f{
        n,
        others_equal(i, [&](std::size_t j) { return number[j]; }),
        rank[i],
        std::abs(n - median),
        others_equal(i, [&](std::size_t j) { return v[j].mask; }),
        jaccard,
        n == 0 ? 0.0 : occupied / n,
        n == 0 ? 0.0 : std::accumulate(v[i].slots.begin(), v[i].slots.end(), 0.0) / n};
    for (std::size_t k = 0; k < f.size(); ++k) r[k][i] = static_cast<float>(f[k]);
  }
  return r;
}

// Blocks two candidates differ in: per component the count, the slot set and each family's tuple.
int blocks_differing(const std::vector<Views>& comps, std::size_t i, std::size_t j) {
  int d = 0;
  for (const Views& v : comps) {
    d += v[i].slots.size() != v[j].slots.size();
    d += v[i].mask != v[j].mask;
    for (std::size_t f = 0; f < v[i].families.size(); ++f)
      d += v[i].families[f] != v[j].families[f];
  }
  return d;
}

std::array<Row, 16> global_rows(const Problem& p, const std::vector<Views>& comps) {
  std::array<Row, 16> r{};
  const std::array<int, kCandidates> shared = context_blind_scores(p.candidates);
  std::array<double, kCandidates> score{};
  for (std::size_t i = 0; i < kCandidates; ++i) score[i] = shared[i];
  const Row shared_rank = ranks(score);
  for (std::size_t i = 0; i < kCandidates; ++i) {
    std::vector<int> d;
    for (std::size_t j = 0; j < kCandidates; ++j)
      if (j != i) d.push_back(blocks_differing(comps, i, j));
    std::sort(d.begin(), d.end());
    const auto count = [&](auto pred) {
      return static_cast<float>(std::count_if(d.begin(), d.end(), pred));
    };
    r[0][i] = static_cast<float>(std::accumulate(d.begin(), d.end(), 0));
    r[1][i] = static_cast<float>(d.front());
    r[2][i] = static_cast<float>(d.back());
    r[3][i] = count([](int x) { return x == 1; });
    r[4][i] = count([](int x) { return x == 2; });
    r[5][i] = count([](int x) { return x >= 3; });
    for (std::size_t k = 0; k < d.size(); ++k) r[6 + k][i] = static_cast<float>(d[k]);
    r[13][i] = static_cast<float>(shared[i]);
    r[14][i] = shared_rank[i];
    float entities = 0;
    for (const Views& v : comps) entities += static_cast<float>(v[i].slots.size());
    r[15][i] = entities;
  }
  return r;
}

std::vector<Views> views_of(const Problem& p) {
  const std::size_t comps = std::min(p.candidates[0].components.size(), kComponentSlots);
  std::vector<Views> out(comps);
  for (std::size_t c = 0; c < comps; ++c)
    for (std::size_t i = 0; i < kCandidates; ++i)
      out[c][i] = view_of(p.candidates[i].components.at(c), family_count(p));
  return out;
}

void fill_blind(const Problem& p, const std::vector<Views>& comps, Table t) {
  const auto families = static_cast<std::size_t>(family_count(p));
  for (std::size_t c = 0; c < kComponentSlots; ++c) {
    if (c >= comps.size()) {
      t.skip(kFamilies.size() * kValueNames.size() + 2 * kValueNames.size() +
             kStructureNames.size());
      continue;
    }
    std::vector<std::array<Row, 17>> pooled;
    for (std::size_t f = 0; f < families; ++f) {
      std::array<const Values*, kCandidates> vals{};
      for (std::size_t i = 0; i < kCandidates; ++i) vals[i] = &comps[c][i].families[f];
      if (f < 4)
        t.put_all(value_rows(vals));
      else
        pooled.push_back(value_rows(vals));
    }
    put_pooled(t, pooled);
    t.put_all(structure_rows(comps[c]));
  }
  t.put_all(global_rows(p, comps));
}

}  // namespace

const std::vector<std::string>& blind_feature_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (std::size_t c = 0; c < kComponentSlots; ++c) {
      std::string comp = "c";  // built in steps: GCC 12 warns on "c" + to_string(c)
      comp += std::to_string(c);
      comp += '.';
      for (std::string_view family : kFamilies)
        for (std::string_view f : kValueNames)
          out.push_back(comp + std::string(family) + "." + std::string(f));
      for (std::string_view pool : {"conf_mean", "conf_max"})
        for (std::string_view f : kValueNames)
          out.push_back(comp + std::string(pool) + "." + std::string(f));
      for (std::string_view f : kStructureNames) out.push_back(comp + "layout." + std::string(f));
    }
    for (std::string_view f : kGlobalNames) out.emplace_back(f);
    return out;
  }();
  return names;
}

const std::vector<std::string>& bag_feature_names() {
  static const std::vector<std::string> names = audit_detail::bag_names();
  return names;
}

void shortcut_features(const Problem& problem, std::span<float> blind, std::span<float> bag) {
  const std::size_t wb = blind_feature_names().size(), wg = bag_feature_names().size();
  RAVE_CHECK(blind.empty() || blind.size() == kCandidates * wb,
             "shortcut_features: the blind table has the wrong size");
  RAVE_CHECK(bag.empty() || bag.size() == kCandidates * wg,
             "shortcut_features: the bag table has the wrong size");
  if (!blind.empty()) {
    std::fill(blind.begin(), blind.end(), 0.0F);
    fill_blind(problem, views_of(problem), Table{blind, wb, 0});
  }
  if (!bag.empty()) {
    std::fill(bag.begin(), bag.end(), 0.0F);
    fill_bag(problem, Table{bag, wg, 0});
  }
}

}  // namespace rave::engine
