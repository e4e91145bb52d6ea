#include "solver/explain.hpp"

#include "engine/model/configuration.hpp"

namespace rave::solver {
namespace {

std::string rule_with_noise(const ComponentReading& c, int group) {
  std::string text = rule_text(c.rules[group]);
  if (group > 0 && c.noise[group - 1]) text += " (noise)";
  return text;
}

std::string component_name(const engine::Problem& problem, int component) {
  const auto& config = engine::configuration(problem.config);
  return std::string(config.components[component].name);
}

// Whether some reading has another rule for component c's group g than the first (or lacks c).
bool group_differs(const std::vector<std::pair<int, Reading>>& readings, const Reading& first,
                   int c, int g) {
  for (const auto& [i, r] : readings)
    if (r.count <= c ||
        rule_with_noise(r.components[c], g) != rule_with_noise(first.components[c], g))
      return true;
  return false;
}

// Each reading's rule for component c's group g and its candidate, joined by " | ".
std::string group_choices(const std::vector<std::pair<int, Reading>>& readings, int c, int g) {
  std::string out;
  for (std::size_t k = 0; k < readings.size(); ++k) {
    const auto& [i, r] = readings[k];
    if (k > 0) out += " | ";
    out += (r.count > c ? rule_with_noise(r.components[c], g) : std::string("?")) + " (candidate " +
           std::to_string(i) + ")";
  }
  return out;
}

}  // namespace

std::vector<std::string> explain_lines(const engine::Problem& problem, const Reading& reading) {
  std::vector<std::string> lines;
  for (int c = 0; c < reading.count; ++c)
    for (int g = 0; g < 4; ++g)
      lines.push_back(component_name(problem, c) + ": " +
                      rule_with_noise(reading.components[c], g));
  return lines;
}

std::string reading_text(const engine::Problem& problem, const Reading& reading) {
  std::string out;
  for (int c = 0; c < reading.count; ++c) {
    if (c > 0) out += "; ";
    out += component_name(problem, c) + ":";
    for (int g = 0; g < 4; ++g)
      out += (g == 0 ? " " : ", ") + rule_with_noise(reading.components[c], g);
  }
  return out;
}

std::string competing_readings(const engine::Problem& problem,
                               const std::vector<std::pair<int, Reading>>& readings) {
  std::string out;
  if (readings.empty()) return out;
  const Reading& first = readings.front().second;
  for (int c = 0; c < first.count; ++c)
    for (int g = 0; g < 4; ++g) {
      if (!group_differs(readings, first, c, g)) continue;
      if (!out.empty()) out += "; ";
      out += component_name(problem, c) + ": " + group_choices(readings, c, g);
    }
  if (!out.empty()) return out;
  out = "same rules (candidates";
  for (std::size_t k = 0; k < readings.size(); ++k)
    out += (k == 0 ? " " : ", ") + std::to_string(readings[k].first);
  return out + ")";
}

}  // namespace rave::solver
