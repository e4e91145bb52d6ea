#pragma once
// Small helpers shared by the subcommands: parsing configuration lists and answer strategies into
// engine values with errors that name the offending word.
#include <string>
#include <vector>

#include "engine/answers/answer_set.hpp"
#include "engine/model/configuration.hpp"

namespace rave::apps {

/// "center_single,O-IG" -> ids (comma or space separated; "all" or empty -> all seven); UsageError
/// naming the unknown word otherwise.
std::vector<engine::ConfigId> parse_config_list(const std::vector<std::string>& words);
/// "raven" | "iraven" | "fair"; UsageError otherwise.
engine::AnswerStrategy parse_answer_strategy(const std::string& word);
/// Default worker count: the hardware's threads (at least 1).
int default_threads();

}  // namespace rave::apps
