// The drawing module (engine/render/internal/drawing_module.hpp): found beside the build's
// executables, of this build's layout, and drawing what OpenCV draws.
#include "engine/render/internal/drawing_module.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "engine/render/sheet.hpp"

namespace rave::engine::internal {
namespace {

TEST(DrawingModuleTest, LoadsThisBuildsModule) {
  const DrawingModule& m = drawing_module();
  EXPECT_EQ(m.abi, kDrawingModuleAbi);
  EXPECT_EQ(m.size, sizeof(DrawingModule));
  EXPECT_EQ(std::filesystem::path(drawing_module_path()).filename(), "librave_opencv.so");
  EXPECT_TRUE(std::filesystem::exists(drawing_module_path()));
}

TEST(DrawingModuleTest, DrawsThroughTheModule) {
  Image frame{};
  ShapeGeometry square{};
  square.type = kSquare;
  square.center = {80, 80};
  square.half_side = 10;
  drawing_module().draw_shape(square, 100, 255, frame.data());
  EXPECT_EQ(frame[80 * kPanelSize + 80], 100);  // filled
  EXPECT_EQ(frame[70 * kPanelSize + 80], 255);  // outlined
  EXPECT_EQ(frame[40 * kPanelSize + 40], 0);    // untouched
  const std::vector<Image> panels(kContextPanels + kCandidates, frame);
  const GrayImage sheet = problem_sheet(panels, 3);
  EXPECT_GT(sheet.width, 3 * kPanelSize);
  EXPECT_TRUE(
      std::any_of(sheet.pixels.begin(), sheet.pixels.end(), [](auto v) { return v == 100; }));
}

}  // namespace
}  // namespace rave::engine::internal
