#pragma once
// The per-candidate features of the learner audit (`rave check --shortcuts`,
// docs/answer-sets.md#the-learner-audit): everything one candidate can be told apart from the other
// seven by, without the rows and columns of the matrix. Two views:
//  - blind: the 8 candidates alone (the context is never read): per component and per attribute
//    (Type, Size, Color, Angle, and the confounders pooled as their mean and maximum), the values
//    themselves, in-panel uniformity (distinct values), how many other candidates share the value
//    tuple, multiset, set, mean and each entity's value, and the candidate's rank and distances
//    among the 8; per component the entity count, slot set and slot occupancy shared with the
//    others; and the candidate's distance profile (how many blocks differ from each other
//    candidate) with the "most shared values" score of engine/audit.hpp.
//  - bag: the context as a bag of values (no rows, no columns, no panel order): for each value of
//    the candidate, how often the context shows it (raw, per panel, modulo the matrix side, its rank
//    among the 8), how far it lies from the context's other values, and how often the context shows
//    the candidate's entity count and slot set.
// Learning is Python's (faces/python/rave/shortcuts.py); this is the part that reads every problem at C++
// speed. A component the configuration lacks reads as zeros, so every problem has the same width.
//
//   std::vector<float> blind(kCandidates * blind_feature_names().size());
//   std::vector<float> bag(kCandidates * bag_feature_names().size());
//   shortcut_features(problem, blind, bag);       // row-major: candidate, feature
#include <span>
#include <string>
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::engine {

/// The names of the blind features, in their order ("c0.type.same_tuple", "dist.sum", ...).
const std::vector<std::string>& blind_feature_names();
/// The names of the bag features ("c0.type.ctx_min", "c1.number.ctx", ...).
const std::vector<std::string>& bag_feature_names();

/// Fills `blind` (kCandidates x blind names) and `bag` (kCandidates x bag names), row-major.
/// Either may be empty to skip it; a span of another size is a caller bug (std::logic_error).
void shortcut_features(const Problem& problem, std::span<float> blind, std::span<float> bag);

}  // namespace rave::engine
