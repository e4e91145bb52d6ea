// The wording of the perception probes (evaluation/export/probes.hpp, docs/probes.md): the question of a
// probe in the sheet form (panels named by their place) or the panels form (by image number).
#include <string>
#include <vector>

#include "common/error.hpp"
#include "engine/model/configuration.hpp"
#include "evaluation/export/internal/probe_facts.hpp"
#include "evaluation/export/internal/probe_names.hpp"
#include "evaluation/export/probes.hpp"

namespace rave::evaluation {
namespace {

using internal::component_words;

std::string panel_words(const engine::Problem& p, int panel, ProbeForm form) {
  const int context = static_cast<int>(p.context.size()), n = p.grid();
  const bool sheet = form == ProbeForm::kSheet;
  const std::string image = "image " + std::to_string(panel + 1);
  if (panel >= context) {
    const std::string label = "candidate " + std::to_string(panel - context + 1);
    return sheet ? label : image + " (" + label + ")";
  }
  const std::string place =
      "row " + std::to_string(panel / n + 1) + ", column " + std::to_string(panel % n + 1);
  return sheet ? "the panel in " + place : image + " (" + place + ")";
}

std::string join(const std::vector<std::string>& words, const char* last) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? last : ", ") + words[i];
  return out;
}

std::string one_of(const std::vector<std::string>& choices) {
  return " Answer with one of: " + join(choices, ", ") + ".";
}

// "the shapes" of a grid component without the article.
std::string grid_noun(engine::ConfigId config, int component) {
  return component_words(config, component).substr(4);
}

std::string count_question(const engine::Problem& p, const Probe& q, ProbeForm form) {
  const auto [least, most] = internal::count_range(p.config);
  const bool outer = engine::configuration(p.config).components.size() == 2 &&
                     !internal::single_entity(p.config, 1);
  return "How many shapes are there in " + panel_words(p, q.panels[0], form) +
         (outer ? ", the large outer shape included" : "") + "? Answer with a number from " +
         std::to_string(least) + " to " + std::to_string(most) + ".";
}

std::string empty_question(const engine::Problem& p, const Probe& q, ProbeForm form) {
  const std::string side = q.choices.size() == 4 ? "2x2" : "3x3";
  return "In " + panel_words(p, q.panels[0], form) + ", " + component_words(p.config, q.component) +
         " sit in a " + side + " grid of places, all but one place filled. Which place is empty?" +
         one_of(q.choices);
}

std::string look_question(const engine::Problem& p, const Probe& q, ProbeForm form) {
  const std::string what =
      component_words(p.config, q.component) + " in " + panel_words(p, q.panels[0], form);
  if (q.type == ProbeType::kShape) return "What shape is " + what + "?" + one_of(q.choices);
  return "Is " + what + " white (an outline with nothing inside), gray or black?" +
         one_of(q.choices);
}

std::string same_question(const engine::Problem& p, const Probe& q, ProbeForm form) {
  const std::string a = panel_words(p, q.panels[0], form), b = panel_words(p, q.panels[1], form);
  const std::string attr(probe_attr_name(*q.attribute));
  const std::string yes_no = " Answer yes or no.";
  if (internal::single_entity(p.config, q.component)) {
    const std::string who = component_words(p.config, q.component);
    return "Does " + who + " in " + a + " have the same " + attr + " as " + who + " in " + b + "?" +
           yes_no;
  }
  const std::string noun = grid_noun(p.config, q.component);
  if (q.attribute == ProbeAttr::kNumber)
    return "Are there as many " + noun + " in " + a + " as in " + b + "?" + yes_no;
  if (q.attribute == ProbeAttr::kPosition)
    return "Do the " + noun + " of " + a + " and of " + b + " fill the same places?" + yes_no;
  return "In " + a + " all the " + noun + " have one " + attr + ", and in " + b +
         " too. Is it the same " + attr + " in both?" + yes_no;
}

std::string row_question(const engine::Problem& p, const Probe& q, ProbeForm form) {
  std::vector<std::string> names;
  for (ProbeAttr a : q.attributes) names.emplace_back(probe_attr_name(a));
  const std::string images = form == ProbeForm::kSheet
                                 ? ""
                                 : " (images " + std::to_string(q.panels.front() + 1) + " to " +
                                       std::to_string(q.panels.back() + 1) + ")";
  const bool places = !internal::single_entity(p.config, q.component);
  return "Look at the " + std::to_string(q.panels.size()) + " panels of row " +
         std::to_string(q.row) + " of the matrix, from left to right" + images +
         ". Which of these change from panel to panel for " +
         component_words(p.config, q.component) + ": " + join(names, " and ") + "?" +
         (places ? " (Position is where they are, when their number stays the same.)" : "") +
         " Answer with the ones that change, separated by commas, or with none.";
}

std::string difference_words(ProbeAttr attr) {
  switch (attr) {
    case ProbeAttr::kNumber: return "the number of shapes";
    case ProbeAttr::kPosition: return "where the shapes are";
    default: return "the " + std::string(probe_attr_name(attr)) + " of its shapes";
  }
}

std::string difference_question(const engine::Problem& p, const Probe& q, ProbeForm form) {
  const int answer = q.panels[0] - static_cast<int>(p.context.size()) + 1;
  const std::string named = form == ProbeForm::kSheet
                                ? "Candidate " + std::to_string(answer)
                                : "Candidate " + std::to_string(answer) + " (image " +
                                      std::to_string(q.panels[0] + 1) + ")";
  return named + " is the correct answer. Exactly one other candidate differs from it in " +
         difference_words(*q.attribute) +
         " alone, everything else the same (rotation aside). Which one? Answer with the number "
         "of the candidate (1-8) only.";
}

}  // namespace

std::string probe_question(const engine::Problem& problem, const Probe& probe, ProbeForm form) {
  switch (probe.type) {
    case ProbeType::kCount: return count_question(problem, probe, form);
    case ProbeType::kEmptyPosition: return empty_question(problem, probe, form);
    case ProbeType::kShape:
    case ProbeType::kColor: return look_question(problem, probe, form);
    case ProbeType::kSame: return same_question(problem, probe, form);
    case ProbeType::kRowChange: return row_question(problem, probe, form);
    case ProbeType::kOneDifference: return difference_question(problem, probe, form);
  }
  RAVE_CHECK(false, "unknown probe type");
  return {};
}

}  // namespace rave::evaluation
