// The renderer against OpenCV and against the original's files: the fixed-point warp against
// cv::warpAffine, every entity template against a full-frame OpenCV layer, random crowded panels
// against the full-frame reference renderer, and every panel of every reference problem against
// the npz `image` the original wrote.
#include "engine/render/render.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "common/random.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/model/attributes.hpp"
#include "engine/render/internal/entity_template.hpp"
#include "engine/render/internal/opencv_reference.hpp"
#include "engine/render/warp.hpp"
#include "tests/engine/support/reference_support.hpp"

namespace rave::engine {
namespace {

// "" when equal, else the count of differing pixels and the first one.
std::string compare(const std::uint8_t* got, const std::uint8_t* want) {
  int count = 0, first = -1;
  for (int i = 0; i < kPanelSize * kPanelSize; ++i)
    if (got[i] != want[i]) count += 1, first = first < 0 ? i : first;
  if (count == 0) return "";
  std::ostringstream out;
  out << count << " pixels differ, first at (x=" << first % kPanelSize
      << ", y=" << first / kPanelSize << "): got " << int(got[first]) << ", want "
      << int(want[first]);
  return out.str();
}

Panel single_entity_panel(ConfigId config, int component, const Entity& e) {
  Panel panel;
  panel.components.resize(configuration(config).components.size());
  panel.components[static_cast<std::size_t>(component)].entities.push_back(e);
  return panel;
}

TEST(Warp, WeightTableKeepsOpenCVsSaturatedFirstEntry) {
  const auto& w = bilinear_weights();
  EXPECT_EQ(w[0], (std::array<std::int16_t, 4>{32767, 0, 0, 1}));
  EXPECT_EQ(w[32 * 16 + 16], (std::array<std::int16_t, 4>{8192, 8192, 8192, 8192}));
  for (const auto& row : w) EXPECT_EQ(row[0] + row[1] + row[2] + row[3], 1 << 15);
}

TEST(Warp, MatchesCvWarpAffineOnRandomImagesAndAngles) {
  Rng rng(20240611);
  for (int trial = 0; trial < 300; ++trial) {
    Image src{};
    const int x0 = rng.uniform_int(0, 150), y0 = rng.uniform_int(0, 150);
    for (int y = y0; y < std::min(kPanelSize, y0 + rng.uniform_int(1, 60)); ++y)
      for (int x = x0; x < std::min(kPanelSize, x0 + rng.uniform_int(1, 60)); ++x)
        src[static_cast<std::size_t>(y * kPanelSize + x)] =
            static_cast<std::uint8_t>(rng.uniform_int(0, 255));
    const double degrees = trial % 3 == 0 ? kAngleValues[static_cast<std::size_t>(rng.below(8))]
                                          : rng.uniform01() * 720 - 360;
    const Affine forward =
        rotation_matrix({rng.uniform_int(0, 159), rng.uniform_int(0, 159)}, degrees);
    const Image got = warp_bilinear(forward, src), want = internal::warp_reference(forward, src);
    ASSERT_EQ(compare(got.data(), want.data()), "") << "trial " << trial << ", angle " << degrees;
  }
}

TEST(Render, EveryTemplateMatchesAFullFrameOpenCVLayer) {
  // Every configuration slot, Type, Size and Angle; the colour cycles so all ten appear.
  int checked = 0;
  for (const Configuration& c : all_configurations())
    for (std::size_t k = 0; k < c.components.size(); ++k)
      for (int slot = 0; slot < static_cast<int>(c.components[k].layout.slots.size()); ++slot)
        for (int type = 1; type <= 5; ++type)
          for (int size = 0; size <= 5; ++size)
            for (int angle = 0; angle <= 7; ++angle) {
              const Entity e{.slot = slot,
                             .type = type,
                             .size = size,
                             .color = (checked++) % 10,
                             .angle = angle};
              const int comp = static_cast<int>(k);
              const Panel panel = single_entity_panel(c.id, comp, e);
              const Image got = render_panel(c.id, panel),
                          want = internal::render_panel_reference(c.id, panel);
              ASSERT_EQ(compare(got.data(), want.data()), "")
                  << c.folder << " component " << k << " slot " << slot << " type " << type
                  << " size " << size << " color " << e.color << " angle " << angle;
            }
  EXPECT_EQ(checked, 25 * 240);
}

TEST(Render, MaskIsTheBlackFilledLayerAtExactly255) {
  Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const ConfigId id = static_cast<ConfigId>(rng.below(kNumConfigs));
    const Configuration& c = configuration(id);
    const int k = rng.below(static_cast<int>(c.components.size()));
    const int slots =
        static_cast<int>(c.components[static_cast<std::size_t>(k)].layout.slots.size());
    const Entity e{.slot = rng.below(slots),
                   .type = rng.uniform_int(1, 5),
                   .size = rng.below(6),
                   .color = rng.below(10),
                   .angle = rng.below(8)};
    const Image black = internal::render_entity_reference(
        c.components[static_cast<std::size_t>(k)].layout.slots[static_cast<std::size_t>(e.slot)], e,
        9);
    std::string want = "[";
    for (int i = 0; i < kPanelSize * kPanelSize;) {
      if (black[static_cast<std::size_t>(i)] != 255) {
        ++i;
        continue;
      }
      int j = i;
      while (j < kPanelSize * kPanelSize && black[static_cast<std::size_t>(j)] == 255) ++j;
      if (want.size() > 1) want += ',';
      want += std::to_string(i + 1) + "," + std::to_string(j - i);
      i = j;
    }
    want += "]";
    ASSERT_EQ(entity_marks(id, k, e).mask, want) << c.folder << " trial " << trial;
  }
}

TEST(Render, CrowdedRandomPanelsMatchTheFullFrameReference) {
  Rng rng(99);
  for (int trial = 0; trial < 300; ++trial) {
    const ConfigId id = static_cast<ConfigId>(trial % kNumConfigs);
    const Configuration& c = configuration(id);
    Panel panel;
    for (const auto& comp : c.components) {
      ComponentPanel cp;
      const int n = static_cast<int>(comp.layout.slots.size());
      for (int slot : rng.sample(n, rng.uniform_int(1, n)))
        cp.entities.push_back(
            {slot, rng.uniform_int(1, 5), rng.below(6), rng.below(10), rng.below(8)});
      panel.components.push_back(cp);
    }
    const Image got = render_panel(id, panel), want = internal::render_panel_reference(id, panel);
    ASSERT_EQ(compare(got.data(), want.data()), "") << c.folder << " trial " << trial;
  }
}

// Every panel of every reference problem, re-rendered from its XML alone, equals the npz `image`
// the original wrote: the 16 panels' bytes have the sha256 the manifest records for it.
void expect_reference_panels(std::string_view set) {
  int problems = 0, identical = 0;
  for (const auto& ref : ::rave::testing::reference_problems(set)) {
    const std::string image = testing::render_image(read_problem_xml(ref.xml));
    ASSERT_EQ(image.size(), std::size_t{kPanels} * kPanelSize * kPanelSize);
    const bool same = ::rave::testing::sha256_hex(image) == ref.image_sha256;
    EXPECT_TRUE(same) << ref.xml << ": the 16 rendered panels differ from the original image";
    problems += 1, identical += same;
  }
  std::cout << set << " reference: " << identical << " of " << problems
            << " images (16 panels each) identical\n";
}

TEST(RenderConformance, RavenReference) { expect_reference_panels("raven"); }
TEST(RenderConformance, IRavenReference) { expect_reference_panels("iraven"); }
TEST(RenderConformance, FairReference) { expect_reference_panels("fair"); }

}  // namespace
}  // namespace rave::engine
