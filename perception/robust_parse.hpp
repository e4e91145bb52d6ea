#pragma once
// One panel read when its pixels are not exactly a rendering (noise, resampling): per slot, the
// entity (or none) whose drawing over what lies below is closest to the image in the sum of
// absolute differences over the slot's region. The fill is estimated first from the median of a
// small patch at the slot's centre, so only the Types, Sizes and Angles of the two nearest Color
// levels are drawn and compared. Readings that render identically to the chosen one are kept as
// in the exact parse. Much slower than the exact parse (milliseconds per panel); used only where
// that fails.
//
//   double residual = 0;
//   PanelParse p = parse_panel_robust(ConfigId::kDistributeNine, image.data(), residual);
//   // residual: mean absolute difference per pixel between the image and p.panel's render
#include <cstdint>

#include "perception/panel_parse.hpp"

namespace rave::perception {

/// Parses `image` as a panel of `config` by least absolute difference; `residual` gets the mean
/// absolute difference per pixel between the image and the parse's render (255 when a component
/// ends with an entity count its layout does not allow). The result's `exact` says whether that
/// render equals the image.
PanelParse parse_panel_robust(engine::ConfigId config, const std::uint8_t* image, double& residual);

/// The mean absolute difference per pixel between two panels.
double mean_absolute_difference(const std::uint8_t* a, const std::uint8_t* b);

}  // namespace rave::perception
