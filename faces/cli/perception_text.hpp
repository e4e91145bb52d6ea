#pragma once
// What perception read, for people and for JSON (`rave solve --show-parse`, `rave perceive`): per
// panel its entities slot by slot, a reading that renders identically written as alternatives
// ("Size 2|3"), and how well the parse explains the pixels.
//
//   for (const std::string& line : parse_lines(perceived)) std::printf("  %s\n", line.c_str());
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perception/perceive.hpp"

namespace rave::cli {

/// A summary line, then one line per panel: "context 4: Grid: slot 0 Type 2 Size 3 Color 5, ...".
std::vector<std::string> parse_lines(const perception::PerceivedProblem& perceived);
/// {"configuration", "exact", "exact_panels", "max_residual", "readings": per panel its count}.
nlohmann::ordered_json perception_json(const perception::PerceivedProblem& perceived);

}  // namespace rave::cli
