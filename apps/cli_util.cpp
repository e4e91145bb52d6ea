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
    ids.push_back(engine::configuration_named(word));
  }
  return ids;
}

engine::AnswerStrategy parse_answer_strategy(const std::string& word) {
  return engine::strategy_named(word);
}

int default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

}  // namespace rave::apps
