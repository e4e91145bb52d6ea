// The bag view of the learner audit (engine/audit_features.hpp): the context as a bag of values.
// Every context panel's entities are poured into one bag per component and attribute, and each
// candidate is described by how often the bag holds its values, never by where they stand.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string_view>

#include "engine/audit_features_parts.hpp"

namespace rave::engine::audit_detail {
namespace {

constexpr std::array<std::string_view, 4> kFamilies{"type", "size", "color", "angle"};
constexpr std::array<std::string_view, 15> kValueNames{
    "ctx_mean", "ctx_min", "ctx_max", "ctx_first", "seen", "ctx_per_panel", "mod_mean", "short",
    "rank",     "dev8",    "is_min",  "is_max",    "gap",  "within",        "outside"};
constexpr std::array<std::string_view, 6> kStructureNames{"number_ctx",  "slots_ctx",  "slot_occ",
                                                          "number_rank", "number_mod", "panel_ctx"};

// One family's bag: the context's values, sorted.
struct Bag {
  Values values;
  int count(int v) const {
    const auto [lo, hi] = std::equal_range(values.begin(), values.end(), v);
    return static_cast<int>(hi - lo);
  }
  // The distance from v to the nearest value of the bag other than v (0 when there is none).
  int gap(int v) const {
    int best = 0;
    const auto lo = std::lower_bound(values.begin(), values.end(), v);
    if (lo != values.begin()) best = v - *(lo - 1);
    const auto hi = std::upper_bound(values.begin(), values.end(), v);
    if (hi != values.end() && (best == 0 || *hi - v < best)) best = *hi - v;
    return best;
  }
};

struct Context {
  std::vector<View> panels;  // one component of every context panel
  std::vector<Bag> bags;     // per family
  int grid = 3;
};

Context context_of(const Problem& p, std::size_t c) {
  Context ctx;
  ctx.grid = p.grid();
  const int families = family_count(p);
  ctx.bags.resize(static_cast<std::size_t>(families));
  for (const Panel& panel : p.context) {
    ctx.panels.push_back(view_of(panel.components.at(c), families));
    for (std::size_t f = 0; f < ctx.bags.size(); ++f) {
      const Values& v = ctx.panels.back().families[f];
      ctx.bags[f].values.insert(ctx.bags[f].values.end(), v.begin(), v.end());
    }
  }
  for (Bag& b : ctx.bags) std::sort(b.values.begin(), b.values.end());
  return ctx;
}

// What one candidate's values of one family read from the bag.
struct Reading {
  double mean = 0, min = 0, max = 0, first = 0, seen = 0, mod = 0, shortfall = 0, gap = 0,
         within = 0, outside = 0;
};

Reading read_values(const Bag& bag, const Values& values, int grid) {
  Reading r;
  if (values.empty()) return r;
  const int lo = bag.values.empty() ? 0 : bag.values.front();
  const int hi = bag.values.empty() ? 0 : bag.values.back();
  r.min = 1e9;
  for (int v : values) {
    const int n = bag.count(v);
    r.mean += n;
    r.min = std::min(r.min, static_cast<double>(n));
    r.max = std::max(r.max, static_cast<double>(n));
    r.seen += n > 0;
    r.mod += n % grid;
    r.shortfall += n % grid == grid - 1;
    r.gap += bag.gap(v);
    r.within += lo <= v && v <= hi;
    r.outside += std::max({0, lo - v, v - hi});
  }
  r.first = bag.count(values.front());
  const auto k = static_cast<double>(values.size());
  for (double* x : {&r.mean, &r.seen, &r.mod, &r.shortfall, &r.gap, &r.within, &r.outside}) *x /= k;
  return r;
}

std::array<Row, 15> value_rows(const Bag& bag, const Views& cands, std::size_t f,
                               const Context& ctx) {
  std::array<Reading, kCandidates> read;
  std::array<double, kCandidates> mean{};
  for (std::size_t i = 0; i < kCandidates; ++i) {
    read[i] = read_values(bag, cands[i].families[f], ctx.grid);
    mean[i] = read[i].mean;
  }
  const Row rank = ranks(mean);
  const double total = std::accumulate(mean.begin(), mean.end(), 0.0);
  const double lo = *std::min_element(mean.begin(), mean.end());
  const double hi = *std::max_element(mean.begin(), mean.end());
  const double panels = std::max<double>(1.0, static_cast<double>(ctx.panels.size()));
  std::array<Row, 15> r{};
  for (std::size_t i = 0; i < kCandidates; ++i) {
    const Reading& x = read[i];
    const std::array<double, 15> f{x.mean,
                                   x.min,
                                   x.max,
                                   x.first,
                                   x.seen,
                                   x.mean / panels,
                                   x.mod,
                                   x.shortfall,
                                   rank[i],
                                   x.mean - total / kCandidates,
                                   x.mean == lo ? 1.0 : 0.0,
                                   x.mean == hi ? 1.0 : 0.0,
                                   x.gap,
                                   x.within,
                                   x.outside};
    for (std::size_t k = 0; k < f.size(); ++k) r[k][i] = static_cast<float>(f[k]);
  }
  return r;
}

std::array<Row, 6> structure_rows(const Views& cands, const Context& ctx) {
  std::array<Row, 6> r{};
  std::array<double, kCandidates> number{};
  const double panels = std::max<double>(1.0, static_cast<double>(ctx.panels.size()));
  for (std::size_t i = 0; i < kCandidates; ++i) {
    const View& v = cands[i];
    double same_number = 0, same_slots = 0, occupied = 0, same_panel = 0;
    for (const View& p : ctx.panels) {
      same_number += p.slots.size() == v.slots.size();
      same_slots += p.mask == v.mask;
      occupied += std::popcount(p.mask & v.mask);
      same_panel += p == v;
    }
    number[i] = same_number;
    r[0][i] = static_cast<float>(same_number);
    r[1][i] = static_cast<float>(same_slots);
    r[2][i] = v.slots.empty() ? 0.0F : static_cast<float>(occupied / panels / v.slots.size());
    r[4][i] = static_cast<float>(static_cast<int>(same_number) % ctx.grid);
    r[5][i] = static_cast<float>(same_panel);
  }
  r[3] = ranks(number);
  return r;
}

}  // namespace

std::vector<std::string> bag_names() {
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
  return out;
}

void fill_bag(const Problem& p, Table t) {
  const std::size_t comps = std::min(p.candidates[0].components.size(), kComponentSlots);
  const auto families = static_cast<std::size_t>(family_count(p));
  for (std::size_t c = 0; c < kComponentSlots; ++c) {
    if (c >= comps) {
      t.skip((kFamilies.size() + 2) * kValueNames.size() + kStructureNames.size());
      continue;
    }
    const Context ctx = context_of(p, c);
    Views cands;
    for (std::size_t i = 0; i < kCandidates; ++i)
      cands[i] = view_of(p.candidates[i].components.at(c), static_cast<int>(families));
    std::vector<std::array<Row, 15>> pooled;
    for (std::size_t f = 0; f < families; ++f) {
      if (f < 4)
        t.put_all(value_rows(ctx.bags[f], cands, f, ctx));
      else
        pooled.push_back(value_rows(ctx.bags[f], cands, f, ctx));
    }
    put_pooled(t, pooled);
    t.put_all(structure_rows(cands, ctx));
  }
}

}  // namespace rave::engine::audit_detail
