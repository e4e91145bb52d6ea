#pragma once
// What changed in the problems rave generates, by version, from rave 0.3.0 on: a dataset whose
// rave.json names an older rave cannot be made again by this one where a later change touches its
// variant (the same seed gives other problems), so `rave check` says which change instead of
// replaying (jobs/dataset_replay.hpp); datasets no change touches (the 3 x 3 originals) replay.
//
//   std::string why = generator_changes_since("0.3.0", engine::Variant{.grid = 5},
//                                             engine::AnswerStrategy::kIRaven);
//   // "rave 0.4.0 draws the rules of ... directly ..."; "" when the dataset still replays
#include <string>
#include <string_view>

#include "engine/answers/answer_set.hpp"
#include "engine/model/variant.hpp"

namespace rave::jobs {

/// The changes after `version` ("MAJOR.MINOR.PATCH") up to this rave that alter problems of
/// `variant` with `answers`, joined by "; " ("" when none, or when `version` is not such a number).
std::string generator_changes_since(std::string_view version, const engine::Variant& variant,
                                    engine::AnswerStrategy answers);

/// Whether rave `made_by` generates problems of `variant` with `answers` byte for byte as rave
/// `current` does: both versions parse, `made_by` is not newer, and no recorded change between
/// them touches the variant (so a dataset of `made_by` may be resumed by `current`).
bool generates_alike(std::string_view made_by, std::string_view current,
                     const engine::Variant& variant, engine::AnswerStrategy answers);

}  // namespace rave::jobs
