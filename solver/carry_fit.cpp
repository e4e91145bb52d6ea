// What a Constant attribute and Angle mean (docs/rules.md, docs/solver.md#details-that-decide):
//  - uniform layout: all entities of a row's three panels carry one level (regenerated entities
//    are exact copies of the reference's first entity);
//  - non-uniform, group 0 copies entities (Constant, Progression Position, Distribute_Three
//    Position): col2 and col3 copy col1's entities, matched by slot, by slot + v, by entity order;
//  - non-uniform, group 0 regenerates entities: every level is drawn afresh (noise).
// Build_view already rejected panels with levels outside the layout's ranges.
#include "solver/fits.hpp"
#include "solver/semantics.hpp"

namespace rave::solver {
namespace {

CarryFit fit_uniform(int attr, engine::Range range, const ComponentView& view) {
  CarryFit f;
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    const int level = view.panels[a].common[attr];
    if (level < 0 || view.panels[a + 1].common[attr] != level) return f;
    if (r < 2 && view.panels[a + 2].common[attr] != level) return f;
  }
  f.fits = true;
  f.log_lik = -3 * log_int(range.size());
  return f;
}

}  // namespace

CarryFit fit_carry(const CarryKey& key, int attr, engine::Range range, int slots,
                   const ComponentView& view) {
  if (key.uniform) return fit_uniform(attr, range, view);
  CarryFit f;
  const double per_entity = -log_int(range.size());
  if (key.carry == Carry::kRegenerate) {
    int entities = 0;
    for (int i = 0; i < 8; ++i) entities += view.panels[i].count;
    f.fits = true;
    f.noise = true;
    f.log_lik = entities * per_entity;
    f.log_per_entity = per_entity;
    return f;
  }
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    if (!carry_copies(key, attr, slots, view.panels[a], view.panels[a + 1])) return f;
    if (r < 2 && !carry_copies(key, attr, slots, view.panels[a + 1], view.panels[a + 2])) return f;
    f.log_lik += view.panels[a].count * per_entity;  // col1's levels are drawn, the rest copied
  }
  f.fits = true;
  return f;
}

}  // namespace rave::solver
