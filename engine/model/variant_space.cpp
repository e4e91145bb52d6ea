#include "engine/model/variant_space.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "common/error.hpp"

namespace rave::engine {
namespace {

constexpr std::array<Attr, 3> kValueAttrs{Attr::kType, Attr::kSize, Attr::kColor};

Range& layout_range(LayoutSpec& layout, Attr attr) {
  return attr == Attr::kType ? layout.type : attr == Attr::kSize ? layout.size : layout.color;
}

// One value-regime side of a range of at least two levels: the sampling range and its map.
struct Side {
  Range range;
  LevelMap map;
};

Side regime_side(Range r, Regime regime, bool test) {
  if (r.size() < 2) return {r, {}};
  if (regime == Regime::kExtrapolation) {
    const int half = r.size() / 2;
    return test ? Side{{r.min + half, r.max}, {}} : Side{{r.min, r.min + half - 1}, {}};
  }
  const bool want_odd = !test;
  const int first = (r.min % 2 != 0) == want_odd ? r.min : r.min + 1;
  return {{0, (r.max - first) / 2}, {first, 2}};
}

std::unique_ptr<VariantSpace> build_space(ConfigId id, const Variant& v, bool test) {
  auto space = std::make_unique<VariantSpace>();
  space->config = configuration(id);
  for (ComponentSpec& component : space->config.components) {
    LevelMaps maps{};
    for (std::size_t a = 0; a < kValueAttrs.size(); ++a) {
      Range& range = layout_range(component.layout, kValueAttrs[a]);
      if (v.values != 0) range = widened_range(range, kValueAttrs[a], v.values);
      if (v.ibm_levels) range = {0, v.values};  // IBM's randint(0, maxval) includes maxval
      if (!is_value_regime(v.regime)) continue;
      const Side side = regime_side(range, v.regime, test);
      range = side.range;
      maps[a] = side.map;
      space->identity = space->identity && side.map.identity();
    }
    space->maps.push_back(maps);
  }
  return space;
}

}  // namespace

std::optional<int> LevelMap::index(int level) const {
  const int d = level - offset;
  if (d < 0 || d % stride != 0) return std::nullopt;
  return d / stride;
}

Range widened_range(Range r, Attr attr, int values) {
  RAVE_CHECK(values >= kMinValues, "widened_range: too few values");
  switch (attr) {
    case Attr::kType: return {r.min, values};
    case Attr::kSize:
      return {r.min * values / 6, r.max == kDefaultSizeRange.max ? values - 1 : r.max * values / 6};
    case Attr::kColor:
      return {r.min * values / 10,
              r.max == kDefaultColorRange.max ? values - 1 : r.max * values / 10};
    default: break;
  }
  RAVE_CHECK(false, "widened_range takes Type, Size or Color");
  return r;
}

const VariantSpace& variant_space(ConfigId id, const Variant& v, std::optional<Split> split) {
  const bool regime = is_value_regime(v.regime);
  RAVE_CHECK(!regime || split.has_value(), "a value regime needs the problem's split");
  const bool test = regime && *split == Split::kTest;
  if (!regime && v.values == 0) {  // the original ranges: no lock on the 3x3 hot path
    static const std::array<std::unique_ptr<VariantSpace>, kNumConfigs> originals = [] {
      std::array<std::unique_ptr<VariantSpace>, kNumConfigs> all;
      for (int c = 0; c < kNumConfigs; ++c)
        all[static_cast<std::size_t>(c)] = build_space(static_cast<ConfigId>(c), {}, false);
      return all;
    }();
    return *originals[static_cast<std::size_t>(config_index(id))];
  }
  using Key = std::tuple<int, int, int, bool, bool>;
  const Key key{config_index(id), v.values, regime ? static_cast<int>(v.regime) : 0, test,
                v.ibm_levels};
  static std::mutex mutex;
  static std::map<Key, std::unique_ptr<VariantSpace>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[key];
  if (!slot) slot = build_space(id, v, test);
  return *slot;
}

}  // namespace rave::engine
