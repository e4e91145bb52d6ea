#pragma once
// Render styles (docs/rendering.md#styles): how a problem's panels are drawn. The default,
// `original`, is the original generator's OpenCV drawing at 160 pixels, byte for byte
// (engine/render/render.hpp); every other style is drawn by rave's own anti-aliased renderer
// (engine/render/styled.hpp) at any panel size from 32 to 1024 pixels, with its stroke width,
// background, outline gray and fill palette, and can draw what the original cannot: more than 5
// levels per attribute and confounders (engine/model/look.hpp). A style is named by a preset and
// optional parameters, `NAME[:key=value,...]`; its text (style_text) lists every parameter, so the
// text recorded in rave.json and the XML redraws the same pixels. `fresh` draws its parameters
// from its seed: a new look per seed.
//
//   RenderStyle s = parse_style("clean:size=448,stroke=3");
//   std::string recorded = style_text(s);   // "clean:size=448,aa=1,stroke=3,..."
//   parse_style(recorded) == s;
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rave::engine {

/// Panel sides a style may take, in pixels.
inline constexpr int kMinStyleSize = 32;
inline constexpr int kMaxStyleSize = 1024;

/// How fill grays are spaced between a style's first and last fill.
enum class Palette {
  kLinear,  ///< equal gray steps (the original's table is 224, 196, ..., 0)
  kLstar,   ///< equal steps of CIE lightness L*: perceptually even
};

/// Every parameter of a style; equal styles draw equal pixels.
struct RenderStyle {
  std::string name = "original";  ///< the preset its parameters started from
  int size = 160;                 ///< panel side in pixels
  bool antialias = false;         ///< coverage-weighted edges (else each pixel in or out)
  double stroke = 2;              ///< outline width in pixels of a 160-pixel panel (scales)
  int background = 255;           ///< gray of the empty panel
  int line = 0;                   ///< gray of outlines and separators
  Palette palette = Palette::kLinear;
  int first = 224;         ///< gray of the first filled Color level (level 1; level 0 is unfilled)
  int last = 0;            ///< gray of the last Color level
  double step = 1;         ///< pixels: adjacent levels' geometry must differ by at least this
  int gray_step = 4;       ///< adjacent grays (and any fill against the background) differ by this
  std::uint64_t seed = 0;  ///< `fresh`: the parameters not given are drawn from it
  friend bool operator==(const RenderStyle&, const RenderStyle&) = default;

  bool is_original() const { return name == "original"; }
  /// Outline width in pixels of this style's panels.
  double stroke_px() const { return stroke * size / 160.0; }
};

/// The presets, in the order `rave generate --help` lists them.
std::vector<std::string_view> style_names();
/// Parses `NAME[:key=value,...]` (keys: size, aa, stroke, background, line, palette, first, last,
/// step, gray_step, seed). Throws ParameterError("style", ...) naming the bad word; `original`
/// takes no parameters.
RenderStyle parse_style(std::string_view text);
/// The style's text with every parameter ("original" alone for the original).
std::string style_text(const RenderStyle& style);

}  // namespace rave::engine
