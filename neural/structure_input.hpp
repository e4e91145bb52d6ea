#pragma once
// The Dynamic Residual Tree's per-problem input, as neural/ names it: the torch-free rows and
// indicator of engine/model/drt_input.hpp, which the Python package feeds its datasets from too.
// Rows index kLabelNames (neural/label_embeddings.hpp), which lists the same names in the same
// order.
//
//   DrtInput in = drt_input(engine::structure_tree(ConfigId::kOutInGrid));
//   in.labels == {Scene, Out_In, Out, Out_Center_Single, In, In_Distribute_Four};  in.indicator ==
//   1
#include "engine/model/drt_input.hpp"
#include "neural/options.hpp"

namespace rave::neural {

using engine::drt_input;
using engine::drt_input_from_tokens;
using engine::DrtInput;
using engine::kDrtRows;
static_assert(engine::kDrtLabels == kNumLabels, "one label table for neural/ and engine/");

}  // namespace rave::neural
