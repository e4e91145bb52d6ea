#include "apps/cli_util.hpp"

#include <sstream>
#include <thread>

#include "common/error.hpp"

namespace rave::apps {
namespace {

std::vector<std::string> split_words(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (const auto& word : words) {
    std::stringstream stream(word);
    std::string part;
    while (std::getline(stream, part, ','))
      if (!part.empty()) out.push_back(part);
  }
  return out;
}

}  // namespace

std::vector<engine::ConfigId> parse_config_list(const std::vector<std::string>& words) {
  std::vector<engine::ConfigId> ids;
  for (const auto& word : split_words(words)) {
    if (word == "all") return {};
    const auto id = engine::find_configuration(word);
    if (!id)
      throw UsageError("unknown configuration '" + word + "'; known: " + engine::configuration_names());
    ids.push_back(*id);
  }
  return ids;
}

engine::AnswerStrategy parse_answer_strategy(const std::string& word) {
  const auto strategy = engine::parse_strategy(word);
  if (!strategy) throw UsageError("unknown answer-set strategy '" + word + "'; known: raven, iraven, fair");
  return *strategy;
}

int default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

}  // namespace rave::apps
