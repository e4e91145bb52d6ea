#include "perception/styled_entity.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "perception/styled_cell.hpp"

namespace rave::perception {
namespace {

using engine::Channel;
using engine::EntityLook;
using engine::EntityRaster;

constexpr int kBins = 90;        // most directions from the slot's centre the outline is sampled in
constexpr int kShapesTried = 6;  // (Type, Angle) fits followed, best first
constexpr double kFringe = 0.25;  // the outermost differing pixels lie this far beyond the outline

// A trial: the levels being compared.
struct Trial {
  engine::Entity entity;
  std::vector<int> confounders;
};

// The outermost boundary pixel (one that differs, next to one that does not) in each direction
// from the centre: where the outline ends. The directions are as many as keep about two pixels of
// the outermost boundary in each.
std::vector<std::pair<int, int>> outline_samples(const SlotCell& cell) {
  const int side = cell.side();
  const double cx = cell.place().cx, cy = cell.place().cy;
  std::vector<std::pair<int, double>> boundary;  // pixel, squared distance
  double farthest = 0;
  for (const int p : cell.diff) {
    const int x = p % side, y = p / side;
    const auto same = [&](int q) { return cell.image()[q] == cell.canvas()[q]; };
    if (!((x > 0 && same(p - 1)) || (x + 1 < side && same(p + 1)) || (y > 0 && same(p - side)) ||
          (y + 1 < side && same(p + side))))
      continue;
    const double dx = x + 0.5 - cx, dy = y + 0.5 - cy, d = dx * dx + dy * dy;
    boundary.emplace_back(p, d);
    farthest = std::max(farthest, d);
  }
  const int bins = std::clamp(static_cast<int>(std::numbers::pi * std::sqrt(farthest)), 12, kBins);
  std::vector<double> far(static_cast<std::size_t>(bins), -1);
  std::vector<int> at(static_cast<std::size_t>(bins), -1);
  for (const auto& [p, d] : boundary) {
    const double angle = std::atan2(p / side + 0.5 - cy, p % side + 0.5 - cx) + std::numbers::pi;
    const auto bin = static_cast<std::size_t>(
        std::min(bins - 1, static_cast<int>(angle / (2 * std::numbers::pi) * bins)));
    if (d > far[bin]) far[bin] = d, at[bin] = p;
  }
  std::vector<std::pair<int, int>> out;
  for (const int p : at)
    if (p >= 0) out.emplace_back(p % side, p / side);
  return out;
}

struct ShapeFit {
  int type, angle;
  double spread, reach;  // of the samples along the shape's normals: max - min, and their mean
};

ShapeFit fit_shape(const engine::LevelLooks& looks, const SlotCell& cell, int type, int angle,
                   const std::vector<std::pair<int, int>>& samples) {
  EntityLook look;
  look.sides = looks.sides(type);
  look.scale = 0;  // inradius 0: edge_distance is the projection on the normals itself
  look.angle = engine::kAngleValues[static_cast<std::size_t>(angle)];
  const EntityRaster raster(cell.place(), look, looks.style());
  double lo = 1e300, hi = -1e300, sum = 0;
  for (const auto& [x, y] : samples) {
    const double m = raster.edge_distance(x, y);
    lo = std::min(lo, m), hi = std::max(hi, m), sum += m;
  }
  return {type, angle, hi - lo, samples.empty() ? 0 : sum / static_cast<double>(samples.size())};
}

// The (Type, Angle) pairs the layout allows, best fitting first.
std::vector<ShapeFit> shape_fits(const engine::LevelLooks& looks, const StyledComponent& part,
                                 const SlotCell& cell) {
  const auto samples = outline_samples(cell);
  std::vector<ShapeFit> fits;
  for (int t = part.type.min; t <= part.type.max; ++t)
    for (int a = part.layout->angle.min; a <= part.layout->angle.max; ++a)
      fits.push_back(fit_shape(looks, cell, t, a, samples));
  std::stable_sort(fits.begin(), fits.end(),
                   [](const ShapeFit& a, const ShapeFit& b) { return a.spread < b.spread; });
  if (fits.size() > kShapesTried) fits.resize(kShapesTried);
  return fits;
}

int nearest_level(int lo, int hi, auto value, double want) {
  int best = lo;
  for (int l = lo; l <= hi; ++l)
    if (std::abs(value(l) - want) < std::abs(value(best) - want)) best = l;
  return best;
}

// The most common image gray among `pixels`, and the share that equals the canvas.
std::pair<int, double> common_gray(const SlotCell& cell, const std::vector<int>& pixels) {
  std::array<int, 256> count{};
  int same = 0;
  for (const int p : pixels) {
    ++count[cell.image()[p]];
    same += cell.image()[p] == cell.canvas()[p];
  }
  const int mode = static_cast<int>(std::max_element(count.begin(), count.end()) - count.begin());
  return {mode,
          pixels.empty() ? 0.0 : static_cast<double>(same) / static_cast<double>(pixels.size())};
}

}  // namespace

EntityReader::EntityReader(const engine::LevelLooks& looks, int confounders)
    : looks_(looks),
      confounders_(confounders),
      widest_(confounders > 0 ? looks.channel(Channel::kStrokeWidth, looks.confounder_levels() - 1)
                              : looks.style().stroke_px()) {}

EntityLook EntityReader::look(const SlotReading& r, bool outer) const {
  return looks_.look(r.entity, r.confounders, outer);
}

namespace {

// The guess and the descent from it, for one reader, one slot and one shape fit.
class Search {
 public:
  Search(const engine::LevelLooks& looks, const StyledComponent& part, const SlotCell& cell,
         int confounders)
      : looks_(looks),
        part_(part),
        cell_(cell),
        drawn_(std::min(confounders, part.outer ? 2 : 4)) {}

  Trial guess(const ShapeFit& fit, int slot) const;
  long score(const Trial& t, const std::vector<int>& pixels, long stop = LONG_MAX) const {
    const EntityLook look = looks_.look(t.entity, t.confounders, part_.outer);
    return cell_.score(EntityRaster(cell_.place(), look, looks_.style()), pixels, stop);
  }
  // Moves one level at a time (attribute by attribute, steps 1 to 3) while the score falls.
  long descend(Trial& t, const std::vector<int>& pixels) const;

 private:
  int levels(int axis) const;  // axis: 0 Size, 1 Color, 2.. confounder channels
  int& level(Trial& t, int axis) const;
  int lowest(int axis) const;
  double inradius(const Trial& t) const {
    const int sides = looks_.sides(t.entity.type);
    return cell_.place().unit * looks_.scale(t.entity.size) *
           (sides == 0 ? 1.0 : std::cos(std::numbers::pi / sides));
  }
  void guess_size(Trial& t, const ShapeFit& fit) const;
  void guess_grays(Trial& t) const;
  void guess_marks(Trial& t) const;

  const engine::LevelLooks& looks_;
  const StyledComponent& part_;
  const SlotCell& cell_;
  int drawn_;
};

int Search::levels(int axis) const {
  if (axis == 0) return part_.size.max + 1;
  if (axis == 1) return part_.color.max + 1;
  return looks_.confounder_levels();
}
int Search::lowest(int axis) const {
  return axis == 0 ? part_.size.min : axis == 1 ? part_.color.min : 0;
}
int& Search::level(Trial& t, int axis) const {
  if (axis == 0) return t.entity.size;
  if (axis == 1) return t.entity.color;
  return t.confounders[static_cast<std::size_t>(axis - 2)];
}

void Search::guess_size(Trial& t, const ShapeFit& fit) const {
  const double stroke = looks_.look(t.entity, t.confounders, part_.outer).stroke;
  const int sides = looks_.sides(t.entity.type);
  const double inr = sides == 0 ? 1.0 : std::cos(std::numbers::pi / sides);
  const double scale = (fit.reach - stroke / 2 - kFringe) / inr / cell_.place().unit;
  t.entity.size = nearest_level(
      part_.size.min, part_.size.max, [&](int l) { return looks_.scale(l); }, scale);
}

void Search::guess_grays(Trial& t) const {
  const EntityLook look = looks_.look(t.entity, t.confounders, part_.outer);
  const EntityRaster raster(cell_.place(), look, looks_.style());
  const double a = raster.inradius(), w = look.stroke;
  std::vector<int> inside, line;
  const engine::PixelBox box = raster.box(cell_.side());
  for (const int p : cell_.sparse) {
    const int x = p % cell_.side(), y = p / cell_.side();
    if (x < box.x0 || x >= box.x1 || y < box.y0 || y >= box.y1) continue;
    const double d = raster.edge_distance(x, y), m = d + a;
    const double r = std::hypot(x + 0.5 - cell_.place().cx, y + 0.5 - cell_.place().cy);
    if (std::abs(d) < w / 2 - 0.75) line.push_back(p);
    const bool marks = drawn_ >= 3 && (r < (engine::kDotSpan.last + 0.05) * a ||
                                       (drawn_ >= 4 && m > 0.3 * a && m < 0.72 * a));
    if (d < -w / 2 - 1 && !marks) inside.push_back(p);
  }
  if (part_.color.max > part_.color.min && !inside.empty()) {
    const auto [gray, same] = common_gray(cell_, inside);
    t.entity.color = same > 0.5 && part_.color.min == 0
                         ? 0
                         : nearest_level(
                               std::max(1, part_.color.min), part_.color.max,
                               [&](int l) { return looks_.fill(l); }, gray);
  }
  if (drawn_ >= 2 && !line.empty())
    t.confounders[1] = nearest_level(
        0, looks_.confounder_levels() - 1,
        [&](int l) { return looks_.channel(Channel::kLineGray, l); },
        common_gray(cell_, line).first);
}

void Search::guess_marks(Trial& t) const {
  if (drawn_ < 3) return;
  const EntityLook look = looks_.look(t.entity, t.confounders, part_.outer);
  const EntityRaster raster(cell_.place(), look, looks_.style());
  const double a = raster.inradius();
  double dot = 0, ring = 0, ring_n = 0;
  const engine::PixelBox box = raster.box(cell_.side());
  for (const int p : cell_.sparse) {  // a quarter of the pixels: each counts for four
    if (cell_.image()[p] != look.mark) continue;
    const int x = p % cell_.side(), y = p / cell_.side();
    if (x < box.x0 || x >= box.x1 || y < box.y0 || y >= box.y1) continue;
    const double r = std::hypot(x + 0.5 - cell_.place().cx, y + 0.5 - cell_.place().cy);
    const double m = raster.edge_distance(x, y) + a;
    if (r < (engine::kDotSpan.last + 0.05) * a) dot += 4;
    if (drawn_ >= 4 && m > 0.3 * a && m < 0.72 * a) ring += m, ring_n += 1;
  }
  const int last = looks_.confounder_levels() - 1;
  const double dot_fraction = std::sqrt(dot / std::numbers::pi) / a;
  t.confounders[2] = nearest_level(
      0, last, [&](int l) { return looks_.channel(Channel::kDot, l); }, dot_fraction);
  if (drawn_ >= 4 && ring_n > 0)
    t.confounders[3] = nearest_level(
        0, last, [&](int l) { return looks_.channel(Channel::kRing, l); }, ring / ring_n / a);
}

// Size follows from the outline's reach once its width is known, and the grays and marks from
// both; each outline width is tried, and the guess whose drawing best explains the edges kept.
Trial Search::guess(const ShapeFit& fit, int slot) const {
  Trial t{engine::Entity{slot, fit.type, part_.size.min, part_.color.min, fit.angle},
          std::vector<int>(static_cast<std::size_t>(drawn_), 0)};
  const int widths = drawn_ >= 1 ? looks_.confounder_levels() : 1;
  Trial best = t;
  long best_score = LONG_MAX;
  for (int l = 0; l < widths; ++l) {
    Trial trial = t;
    if (drawn_ >= 1) trial.confounders[0] = l;
    guess_size(trial, fit);
    guess_grays(trial);
    guess_marks(trial);
    if (widths == 1) return trial;
    if (const long s = score(trial, cell_.edges, best_score); s < best_score)
      best_score = s, best = std::move(trial);
  }
  return best;
}

long Search::descend(Trial& t, const std::vector<int>& pixels) const {
  long best = score(t, pixels);
  const int axes = 2 + drawn_;
  for (bool moved = true; moved && best > 0;) {
    moved = false;
    for (int axis = 0; axis < axes && best > 0; ++axis)
      for (const int step : {-1, 1, -2, 2, -3, 3}) {
        Trial next = t;
        int& l = level(next, axis);
        l += step;
        if (l < lowest(axis) || l >= levels(axis)) continue;
        if (const long s = score(next, pixels, best); s < best) {
          best = s, t = std::move(next), moved = true;
          break;
        }
      }
  }
  return best;
}

}  // namespace

std::optional<SlotReading> EntityReader::search(const StyledLayout& layout, int component, int slot,
                                                const SlotCell& cell) const {
  if (cell.diff.empty()) return std::nullopt;
  const StyledComponent& part = layout.component(component);
  const Search search(looks_, part, cell, confounders_);
  SlotReading best{.entity = {}, .confounders = {}, .sad = LONG_MAX};
  const std::vector<ShapeFit> fits = shape_fits(looks_, part, cell);
  // No one shape's outline: several entities, or pixels this slot's entity cannot draw.
  if (fits.empty() || fits.front().spread > std::max(4.0, 0.25 * fits.front().reach) + widest_)
    return best;
  for (const ShapeFit& fit : fits) {
    Trial t = search.guess(fit, slot);
    search.descend(t, cell.edges);  // the edges first: most of the pixels a change moves
    const long full = search.descend(t, cell.all);
    if (full < best.sad) best = {t.entity, t.confounders, full};
    if (best.sad == 0) break;
  }
  best.confounders.resize(static_cast<std::size_t>(confounders_), 0);
  return best;
}

std::optional<SlotReading> EntityReader::read(const StyledLayout& layout, int component, int slot,
                                              const std::uint8_t* image,
                                              const std::uint8_t* canvas) const {
  constexpr std::size_t kMaxKnown = 1 << 16;
  const StyledComponent& part = layout.component(component);
  const engine::EntityPlace& place = part.places[static_cast<std::size_t>(slot)];
  const double reach = place.unit * looks_.scale(part.size.max) + widest_ + 3;
  const SlotCell cell(layout, component, slot, image, canvas, looks_.style().size, reach);
  const std::uint64_t key =
      cell.key() ^
      (static_cast<std::uint64_t>(engine::config_index(layout.config())) << 56 |
       static_cast<std::uint64_t>(component) << 48 | static_cast<std::uint64_t>(slot) << 40);
  {
    std::lock_guard lock(mutex_);
    if (const auto it = known_.find(key); it != known_.end()) return it->second;
  }
  std::optional<SlotReading> r = search(layout, component, slot, cell);
  std::lock_guard lock(mutex_);
  if (known_.size() >= kMaxKnown) known_.clear();
  known_.emplace(key, r);
  return r;
}

}  // namespace rave::perception
