// What a Constant attribute and Angle mean (docs/rules.md, docs/solver.md#details-that-decide):
//  - uniform layout: all entities of a row's three panels carry one level (regenerated entities
//    are exact copies of the reference's first entity);
//  - non-uniform, group 0 copies entities (Constant, Progression Position, Distribute_Three
//    Position): col2 and col3 copy col1's entities, matched by slot, by slot + v, or (moved to
//    other slot sets) by the levels they show in the three rows (MoveFit);
//  - non-uniform, group 0 regenerates entities: every level is drawn afresh (noise).
// Build_view already rejected panels with levels outside the layout's ranges.
#include <algorithm>

#include "solver/abduction/fits.hpp"
#include "solver/abduction/likelihood.hpp"
#include "solver/abduction/semantics.hpp"

namespace rave::solver {
namespace {

bool fits_uniform(int attr, const ComponentView& view) {
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    const int level = view.panels[a].common[attr];
    if (level < 0 || view.panels[a + 1].common[attr] != level) return false;
    if (r < 2 && view.panels[a + 2].common[attr] != level) return false;
  }
  return true;
}

// Signatures (MoveFit) of up to kMaxSlots entities.
struct Signatures {
  std::array<std::uint16_t, kMaxSlots> v{};
  int n = 0;
  void sort() { std::sort(v.begin(), v.begin() + n); }
  bool operator==(const Signatures& o) const {
    return n == o.n && std::equal(v.begin(), v.begin() + n, o.v.begin());
  }
};

int level_nibble(const PanelView& p, int attr, int slot) {
  return static_cast<int>((p.by_slot[attr] >> (4 * slot)) & 0xFu);
}

// log of the product of m! over the runs (m equal values) of a sorted list.
double log_runs(const Signatures& sorted) {
  double s = 0;
  int run = 0;
  for (int i = 0; i < sorted.n; ++i) {
    run = i > 0 && sorted.v[i] == sorted.v[i - 1] ? run + 1 : 1;
    s += log_int(run);  // m! = 1 x 2 x ... x m: one factor per member of the run
  }
  return s;
}

bool fits_copies(const CarryKey& key, int attr, int slots, const ComponentView& view) {
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    if (!carry_copies(key, attr, slots, view.panels[a], view.panels[a + 1])) return false;
    if (r < 2 && !carry_copies(key, attr, slots, view.panels[a + 1], view.panels[a + 2]))
      return false;
  }
  return true;
}

using SetPanels = std::array<std::array<int, 3>, 3>;  // [set][row]: the panel showing it, 8: 9th

// Which panel shows each of row 1's slot sets in each row (the 9th panel the one set row 3 lacks);
// the index of that set, or -1 when a row does not show all three sets once.
int place_sets(const std::array<std::uint16_t, 3>& sets, const ComponentView& view,
               SetPanels& panel_at) {
  for (auto& rows : panel_at) rows.fill(-1);
  for (int i = 0; i < 8; ++i) {
    int x = 0;
    while (x < 3 && sets[x] != view.panels[i].mask) ++x;
    if (x == 3 || panel_at[x][i / 3] >= 0) return -1;
    panel_at[x][i / 3] = i;
  }
  int answer = 0;
  while (answer < 3 && panel_at[answer][2] >= 0) ++answer;
  if (answer == 3) return -1;
  panel_at[answer][2] = 8;
  return answer;
}

// The signature of one slot of set x: its level nibble in each row's panel (none for the 9th).
std::uint16_t slot_signature(const SetPanels& panel_at, int x, int attr, int slot,
                             const ComponentView& view) {
  int sig = 0;
  for (int r = 0; r < 3; ++r)
    if (panel_at[x][r] != 8)
      sig |= level_nibble(view.panels[panel_at[x][r]], attr, slot) << (4 * r);
  return static_cast<std::uint16_t>(sig);
}

}  // namespace

// The slot signatures of the two sets row 3 shows whole and of the answer's partial one.
struct MoveSignatures {
  Signatures full[2], partial;
  // Sorted, the two full sets are equal multisets and the partial one is the full one restricted
  // to rows 1-2.
  bool agree() {
    for (Signatures* list : {&full[0], &full[1], &partial}) list->sort();
    Signatures projected = full[0];
    for (int k = 0; k < projected.n; ++k) projected.v[k] &= 0xFFu;
    projected.sort();
    return full[0] == full[1] && projected == partial;
  }
};

// The signatures of set x's slots into `into`; for the answer's set, each also into partial[slot].
void collect_signatures(std::uint16_t set, const SetPanels& panel_at, int x, int attr,
                        const ComponentView& view, Signatures& into, std::uint16_t* partial) {
  for (int slot = 0; slot < kMaxSlots; ++slot) {
    if (!((set >> slot) & 1u)) continue;
    into.v[into.n++] = slot_signature(panel_at, x, attr, slot, view);
    if (partial) partial[slot] = into.v[into.n - 1];
  }
}

// The three slot sets are row 1's; which set each panel shows is found by its mask (every row
// must show all three: Latin rows, as the Distribute_Three Position fit also requires). The
// signatures of the two sets that row 3 shows whole must be equal multisets; the 9th panel's set
// must show the same multiset restricted to rows 1-2. Fixing one full set's order, the moves that
// fit the context number prod over full signatures m! times prod over partial ones m!; those that
// also fit a completing 9th panel, prod over full signatures (m!)^2.
bool fit_move(int attr, const ComponentView& view, MoveFit& out, double& log_ratio) {
  const std::array<std::uint16_t, 3> sets{view.panels[0].mask, view.panels[1].mask,
                                          view.panels[2].mask};
  SetPanels panel_at;
  const int answer = place_sets(sets, view, panel_at);
  if (answer < 0) return false;
  MoveSignatures sig;
  for (int x = 0, f = 0; x < 3; ++x)
    collect_signatures(sets[x], panel_at, x, attr, view, x == answer ? sig.partial : sig.full[f++],
                       x == answer ? out.partial.data() : nullptr);
  if (!sig.agree()) return false;
  out.answer_mask = sets[answer];
  out.count = sig.full[0].n;
  out.expected = sig.full[0].v;
  log_ratio = log_runs(sig.full[0]) - log_runs(sig.partial);
  return true;
}

bool move_accepts(const MoveFit& fit, int attr, const PanelView& panel) {
  if (panel.mask != fit.answer_mask) return false;
  Signatures got;
  for (int slot = 0; slot < kMaxSlots; ++slot)
    if ((fit.answer_mask >> slot) & 1u)
      got.v[got.n++] =
          static_cast<std::uint16_t>(fit.partial[slot] | level_nibble(panel, attr, slot) << 8);
  got.sort();
  Signatures want;
  want.v = fit.expected;
  want.n = fit.count;
  return got == want;
}

CarryReading carry_reading(const CarryKey& key) {
  if (key.uniform) return CarryReading::kUniform;
  return key.carry == Carry::kRegenerate ? CarryReading::kNoise : CarryReading::kCopies;
}

CarryFit fit_carry(const CarryKey& key, int attr, engine::Range range, int slots,
                   const ComponentView& view) {
  const CarryReading reading = carry_reading(key);
  CarryFit f;
  double move_ratio = 0;
  switch (reading) {
    case CarryReading::kUniform: f.fits = fits_uniform(attr, view); break;
    case CarryReading::kCopies:
      f.fits = key.carry == Carry::kMove ? fit_move(attr, view, f.move, move_ratio)
                                         : fits_copies(key, attr, slots, view);
      break;
    case CarryReading::kNoise: f.fits = true; break;
  }
  if (!f.fits) return f;
  f.noise = reading == CarryReading::kNoise;
  f.log_lik = carry_context_log_lik(reading, range, context_counts(view)) + move_ratio;
  f.log_per_entity = carry_entity_log_lik(reading, range);
  return f;
}

}  // namespace rave::solver
