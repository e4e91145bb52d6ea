#include "cli/perception_text.hpp"

#include <algorithm>
#include <cstdio>

namespace rave::cli {
namespace {

using engine::Entity;

// "Type 2 Size 2|3 Color 5": each attribute with every level the readings give it.
std::string entity_text(const std::vector<Entity>& readings) {
  std::string out = "slot " + std::to_string(readings.front().slot);
  const char* names[] = {" Type ", " Size ", " Color "};
  for (int a = 0; a < 3; ++a) {
    std::vector<int> levels;
    for (const Entity& e : readings) {
      const int level = a == 0 ? e.type : a == 1 ? e.size : e.color;
      if (std::find(levels.begin(), levels.end(), level) == levels.end()) levels.push_back(level);
    }
    out += names[a];
    for (std::size_t i = 0; i < levels.size(); ++i) {
      if (i > 0) out += '|';
      out += std::to_string(levels[i]);
    }
  }
  return out;
}

std::string panel_name(int i, int context) {
  return i < context ? "context " + std::to_string(i + 1)
                     : "candidate " + std::to_string(i - context);
}

int exact_panels(const perception::PerceivedProblem& p) {
  int n = 0;
  for (const auto& panel : p.panels) n += panel.exact;
  return n;
}

}  // namespace

std::vector<std::string> parse_lines(const perception::PerceivedProblem& p) {
  if (!p.recognised) return {"not read: " + p.failure};
  const auto& config = engine::configuration(p.config);
  char head[160];
  std::snprintf(head, sizeof head,
                "perceived %s: %d of %d panels re-render identically, largest residual %.2f",
                std::string(config.paper_name).c_str(), exact_panels(p), p.panel_count(),
                p.max_residual());
  std::vector<std::string> lines{head};
  for (int i = 0; i < p.panel_count(); ++i) {
    std::string line = panel_name(i, p.context_panels()) + ":";
    const auto& readings = p.panels[static_cast<std::size_t>(i)].readings;
    for (std::size_t c = 0; c < readings.size(); ++c) {
      line += std::string(c ? " |" : "") + " " + std::string(config.components[c].name) + ":";
      for (std::size_t j = 0; j < readings[c].size(); ++j)
        line += std::string(j ? "," : "") + " " + entity_text(readings[c][j]);
    }
    lines.push_back(line);
  }
  return lines;
}

nlohmann::ordered_json perception_json(const perception::PerceivedProblem& p) {
  nlohmann::ordered_json j{{"recognised", p.recognised}};
  if (!p.recognised) {
    j["failure"] = p.failure;
    return j;
  }
  j["configuration"] = engine::configuration(p.config).folder;
  j["exact"] = p.exact;
  j["exact_panels"] = exact_panels(p);
  j["max_residual"] = p.max_residual();
  nlohmann::ordered_json counts = nlohmann::ordered_json::array();
  for (const auto& alternatives : p.alternatives) counts.push_back(alternatives.size());
  j["readings"] = counts;
  return j;
}

}  // namespace rave::cli
