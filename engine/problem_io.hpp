#pragma once
// Loading a problem the way the tools need it: the XML holds the panels and rules, the npz beside
// it holds `target` and `predict`. I-RAVEN XMLs also reveal the answer (the candidate with no
// modifications).
//
//   Problem p = read_problem_with_target("d/center_single/RAVEN_0_train.xml");
//   if (p.target) ...   // from RAVEN_0_train.npz when it exists
#include <filesystem>
#include <optional>

#include "engine/problem.hpp"

namespace rave::engine {

/// `a/b/RAVEN_0_train.xml` -> `a/b/RAVEN_0_train.npz`, and back.
std::filesystem::path sibling_npz(const std::filesystem::path& xml);
std::filesystem::path sibling_xml(const std::filesystem::path& npz);
/// The answer an I-RAVEN XML reveals: the one candidate without modifications, if unique.
std::optional<int> target_from_modifications(const Problem& problem);
/// Reads the XML, then target/predict from the sibling npz when it exists (its errors propagate:
/// a corrupt npz beside the XML is bad input too), else the target from modifications.
Problem read_problem_with_target(const std::filesystem::path& xml);

}  // namespace rave::engine
