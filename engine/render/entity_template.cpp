// Entity templates (engine/render/internal/entity_template.hpp): building one from the original's
// OpenCV drawing and the fixed-point warp of engine/render/warp.hpp (the process-wide cache is
// engine/render/template_cache.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/error.hpp"
#include "common/pyformat.hpp"
#include "engine/model/attributes.hpp"
#include "engine/render/entity_geometry.hpp"
#include "engine/render/internal/entity_template.hpp"
#include "engine/render/internal/opencv_reference.hpp"
#include "engine/render/warp.hpp"

namespace rave::engine::internal {
namespace {

constexpr std::uint8_t kFillClass = 1, kLineClass = 2;

struct Box {
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;  // inclusive
  bool empty() const { return x1 < x0 || y1 < y0; }
};

Box ink_extent(const Image& frame) {
  Box b{.x0 = kPanelSize, .y0 = kPanelSize, .x1 = -1, .y1 = -1};
  for (int y = 0; y < kPanelSize; ++y) {
    const std::uint8_t* row = frame.data() + y * kPanelSize;
    std::uint64_t any = 0;
    for (int i = 0; i < kPanelSize; i += 8) {
      std::uint64_t word;
      std::memcpy(&word, row + i, 8);
      any |= word;
    }
    if (any == 0) continue;
    int first = 0, last = kPanelSize - 1;
    while (row[first] == 0) ++first;
    while (row[last] == 0) --last;
    b = {std::min(b.x0, first), std::min(b.y0, y), std::max(b.x1, last), std::max(b.y1, y)};
  }
  return b;
}

// Destination pixels whose 2x2 source neighbourhood can meet `src`: the forward image of `src`
// grown by 2 source pixels (a sample point lies within 1/32 pixel of the exact inverse image and
// its neighbourhood spans one more pixel), rounded outwards, grown by 1, clipped to the panel.
Box reachable(const Affine& forward, const Box& src) {
  double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
  for (int cx : {src.x0 - 2, src.x1 + 2})
    for (int cy : {src.y0 - 2, src.y1 + 2}) {
      const auto& m = forward.m;
      const double x = m[0] * cx + m[1] * cy + m[2], y = m[3] * cx + m[4] * cy + m[5];
      lo_x = std::min(lo_x, x);
      hi_x = std::max(hi_x, x);
      lo_y = std::min(lo_y, y);
      hi_y = std::max(hi_y, y);
    }
  auto clip = [](double v) { return std::clamp(static_cast<int>(v), 0, kPanelSize - 1); };
  return {clip(std::floor(lo_x) - 1), clip(std::floor(lo_y) - 1), clip(std::ceil(hi_x) + 1),
          clip(std::ceil(hi_y) + 1)};
}

struct WeightPair {
  int fill = 0, line = 0;
};

WeightPair weigh(const FixedPointWarp& warp, const FixedPointWarp::Row& grid_row,
                 const Image& classes, int x) {
  const SamplePoint p = warp.sample(grid_row, x);
  const auto& w = bilinear_weights()[static_cast<std::size_t>(p.weights)];
  WeightPair out;
  for (int k = 0; k < 4; ++k) {
    const int sx = p.sx + (k & 1), sy = p.sy + (k >> 1);
    if (sx < 0 || sy < 0 || sx >= kPanelSize || sy >= kPanelSize) continue;
    const std::uint8_t c = classes[static_cast<std::size_t>(sy * kPanelSize + sx)];
    if (c == kFillClass) out.fill += w[static_cast<std::size_t>(k)];
    if (c == kLineClass) out.line += w[static_cast<std::size_t>(k)];
  }
  return out;
}

// Appends a run of mask ones at flat index `start` (0-based), merging with the previous run.
void add_run(std::vector<int>& runs, int start, int length) {
  if (!runs.empty() && runs[runs.size() - 2] + runs.back() == start)
    runs.back() += length;
  else
    runs.insert(runs.end(), {start, length});
}

std::string rle_text(const std::vector<int>& runs) {
  std::string out = "[";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(i % 2 == 0 ? runs[i] + 1 : runs[i]);  // 1-based starts
  }
  return out + "]";
}

enum class PixelKind { kZero, kWeighted, kFill, kLine };
constexpr int kMinSolidRun = 4;  // shorter fill/line/zero runs inside a row stay weighted

// What a pixel with these weights gives for every fill value a Color level can produce.
PixelKind classify(WeightPair w) {
  if (w.fill == 0 && w.line == 0) return PixelKind::kZero;
  if (w.line == 0 && w.fill == 1 << 15) return PixelKind::kFill;
  if (w.line == 1 << 15) return PixelKind::kLine;
  bool zero = true, fill = true, line = true;
  for (int gray : kColorValues) {
    const int f = 255 - gray;
    const int v = (f * w.fill + 255 * w.line + (1 << 14)) >> 15;
    zero = zero && v == 0;
    fill = fill && v == f;
    line = line && v == 255;
  }
  return zero   ? PixelKind::kZero
         : line ? PixelKind::kLine
         : fill ? PixelKind::kFill
                : PixelKind::kWeighted;
}

void add_segment(EntityTemplate& t, int y, int x, PixelKind kind, const WeightPair* w, int length) {
  TemplateSegment s{.y = static_cast<std::int16_t>(y),
                    .x = static_cast<std::int16_t>(x),
                    .length = static_cast<std::int16_t>(length),
                    .kind = kind == PixelKind::kFill   ? SegmentKind::kFill
                            : kind == PixelKind::kLine ? SegmentKind::kLine
                                                       : SegmentKind::kWeighted,
                    .offset = static_cast<std::int32_t>(t.weights.size() / 2)};
  if (!t.segments.empty() && s.kind == SegmentKind::kWeighted) {
    TemplateSegment& last = t.segments.back();
    if (last.kind == SegmentKind::kWeighted && last.y == y && last.x + last.length == x) {
      last.length = static_cast<std::int16_t>(last.length + length);
      s.length = 0;
    }
  }
  if (s.length > 0) t.segments.push_back(s);
  if (kind != PixelKind::kWeighted) return;
  for (int i = 0; i < length; ++i) {
    t.weights.push_back(static_cast<std::int16_t>(w[i].fill - kWeightBias));
    t.weights.push_back(static_cast<std::int16_t>(w[i].line - kWeightBias));
  }
}

// One destination row: splits it into runs of one pixel kind; short solid runs and short zero
// gaps between weighted pixels are stored weighted, other zero runs are dropped. Also collects the
// mask runs (the mask is 1 where the entity filled with 255 warps to exactly 255).
void add_row(EntityTemplate& t, std::vector<int>& runs, int y, int x0,
             const std::vector<WeightPair>& row) {
  const int n = static_cast<int>(row.size());
  for (int i = 0; i < n; ++i) {
    const WeightPair w = row[static_cast<std::size_t>(i)];
    if ((255 * (w.fill + w.line) + (1 << 14)) >> 15 == 255)
      add_run(runs, y * kPanelSize + x0 + i, 1);
  }
  int i = 0;
  while (i < n) {
    const PixelKind kind = classify(row[static_cast<std::size_t>(i)]);
    int j = i + 1;
    while (j < n && classify(row[static_cast<std::size_t>(j)]) == kind) ++j;
    const bool inner = i > 0 && j < n;
    PixelKind stored = kind;
    if (j - i < kMinSolidRun && (kind != PixelKind::kZero || inner)) stored = PixelKind::kWeighted;
    if (stored != PixelKind::kZero)
      add_segment(t, y, x0 + i, stored, &row[static_cast<std::size_t>(i)], j - i);
    i = j;
  }
}

std::string bbox_json(const std::array<double, 4>& box) {
  std::string out = "[";
  for (std::size_t i = 0; i < box.size(); ++i) {
    if (i > 0) out += ", ";
    append_py_float(out, box[i]);
  }
  return out + "]";
}

}  // namespace

EntityTemplate build_entity_template(const Slot& slot, const Entity& entity) {
  RAVE_CHECK(entity.angle >= 0 && entity.angle < static_cast<int>(kAngleValues.size()),
             "Angle level out of range");
  const ShapeGeometry shape = shape_geometry(slot, entity.type, entity.size);
  EntityTemplate t;
  std::vector<int> runs;
  Image classes{};
  draw_shape(shape, kFillClass, kLineClass, classes.data());
  const Box src = ink_extent(classes);
  if (!src.empty()) {
    const Affine forward =
        rotation_matrix(shape.center, kAngleValues[static_cast<std::size_t>(entity.angle)]);
    const FixedPointWarp warp(forward);
    const Box dst = reachable(forward, src);
    std::vector<WeightPair> row(static_cast<std::size_t>(dst.x1 - dst.x0 + 1));
    for (int y = dst.y0; y <= dst.y1; ++y) {
      const FixedPointWarp::Row grid_row = warp.row(y);
      for (int x = dst.x0; x <= dst.x1; ++x)
        row[static_cast<std::size_t>(x - dst.x0)] = weigh(warp, grid_row, classes, x);
      add_row(t, runs, y, dst.x0, row);
    }
  }
  t.mask_rle = rle_text(runs);
  if (entity.type != kShapeNone) t.real_bbox_json = bbox_json(real_bbox(slot, entity));
  return t;
}

}  // namespace rave::engine::internal
