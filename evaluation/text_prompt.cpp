// The lm-raven / I-RAVEN text convention of text_prompt.hpp.
#include "evaluation/text_prompt.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "common/error.hpp"
#include "common/pyformat.hpp"
#include "engine/model/configuration.hpp"

namespace rave::evaluation {
namespace {

// Row-major grid cell of each slot of a layout: rows are the distinct slot centres' y, columns
// the distinct x (ceil(centre * side) in the original convention, for any regular grid).
struct GridShape {
  int cells = 1;
  std::vector<int> cell_of_slot;
  bool grid() const { return cell_of_slot.size() > 1; }
};

std::vector<double> distinct_sorted(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end(), [](double a, double b) { return std::abs(a - b) < 1e-9; }),
               values.end());
  return values;
}

int rank_of(const std::vector<double>& sorted, double v) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), v - 1e-9);
  return static_cast<int>(it - sorted.begin());
}

GridShape grid_shape(const engine::LayoutSpec& layout) {
  std::vector<double> ys, xs;
  for (const auto& s : layout.slots) ys.push_back(s.y), xs.push_back(s.x);
  ys = distinct_sorted(std::move(ys));
  xs = distinct_sorted(std::move(xs));
  GridShape g{static_cast<int>(ys.size() * xs.size()), {}};
  for (const auto& s : layout.slots)
    g.cell_of_slot.push_back(rank_of(ys, s.y) * static_cast<int>(xs.size()) + rank_of(xs, s.x));
  return g;
}

std::vector<GridShape> grid_shapes(const engine::Problem& problem) {
  std::vector<GridShape> out;
  for (const auto& c : engine::configuration(problem.config).components) out.push_back(grid_shape(c.layout));
  return out;
}

void append_entity(std::string& out, const engine::Entity& e, bool angle) {
  out += '(';
  out += std::to_string(e.type + 2);
  out += ',';
  append_py_float(out, (e.size + 1) / 10.0);
  out += ',';
  out += std::to_string(e.color * 10);
  if (angle) out += ',' + std::to_string(e.angle * 100);
  out += ')';
}

// The entities of a component by grid cell (nullptr = empty cell).
std::vector<const engine::Entity*> cells_of(const engine::ComponentPanel& component, const GridShape& g) {
  std::vector<const engine::Entity*> cells(static_cast<std::size_t>(g.cells), nullptr);
  for (const auto& e : component.entities) {
    RAVE_CHECK(e.slot >= 0 && static_cast<std::size_t>(e.slot) < g.cell_of_slot.size(), "slot outside its layout");
    cells[static_cast<std::size_t>(g.cell_of_slot[static_cast<std::size_t>(e.slot)])] = &e;
  }
  return cells;
}

void append_component(std::string& out, const engine::ComponentPanel& component, const GridShape& g, bool angle) {
  if (!g.grid()) {
    if (component.entities.empty()) out += '-';
    else append_entity(out, component.entities.front(), angle);
    return;
  }
  out += '[';
  const auto cells = cells_of(component, g);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) out += ", ";
    if (cells[i]) append_entity(out, *cells[i], angle);
    else out += '-';
  }
  out += ']';
}

std::string panel_text(const engine::Panel& panel, const std::vector<GridShape>& shapes, bool angle) {
  std::string out;
  for (std::size_t c = 0; c < panel.components.size(); ++c) {
    if (panel.components.size() > 1) {
      if (c) out += " / ";
      out += static_cast<char>('A' + c);
      out += ' ';
    }
    append_component(out, panel.components[c], shapes[c], angle);
  }
  return out;
}

// "row 1: a, b, c; row 2: d, e, f; row 3: g, h, " for the N * N - 1 context cells.
std::string matrix_context(const std::vector<std::string>& cells) {
  const auto side = static_cast<std::size_t>(std::lround(std::sqrt(static_cast<double>(cells.size() + 1))));
  RAVE_CHECK(side * side == cells.size() + 1, "the context is not an N x N matrix less one panel");
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i % side == 0) out += (i ? "; row " : "row ") + std::to_string(i / side + 1) + ": ";
    else out += ", ";
    out += cells[i];
  }
  return out + ", ";
}

TextPrompt make_prompt(const std::vector<std::string>& context, std::vector<std::string> choices) {
  TextPrompt t{matrix_context(context), std::move(choices), {}};
  t.prompt = t.context + "\nSelect the correct Answer from the following list\n";
  for (std::size_t i = 0; i < t.choices.size(); ++i) t.prompt += "Answer #" + std::to_string(i) + ": " + t.choices[i] + "\n";
  t.prompt += "Correct Answer #";
  return t;
}

// Python's str() of a list of ints: "[3, 5]".
std::string int_list(const std::vector<int>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

using Level = std::function<int(const engine::Entity&)>;

struct Attribute {
  const char* name;
  Level level;
};

std::vector<Attribute> entity_attributes(bool angle) {
  std::vector<Attribute> out{{"type", [](const engine::Entity& e) { return e.type + 2; }},
                             {"size", [](const engine::Entity& e) { return e.size + 1; }},
                             {"color", [](const engine::Entity& e) { return e.color; }}};
  if (angle) out.push_back({"angle", [](const engine::Entity& e) { return e.angle; }});
  return out;
}

// One attribute of one component as text: the level of a single entity, or a grid's sorted distinct levels.
std::string attribute_text(const engine::ComponentPanel& component, const GridShape& g, const Level& level) {
  if (!g.grid()) return component.entities.empty() ? "-" : std::to_string(level(component.entities.front()));
  std::vector<int> values;
  for (const auto& e : component.entities) values.push_back(level(e));
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return int_list(values);
}

std::string layout_text(const engine::ComponentPanel& component, const GridShape& g) {
  std::vector<int> occupied;
  for (const auto* cell : cells_of(component, g)) occupied.push_back(cell != nullptr);
  return int_list(occupied);
}

using PanelText = std::function<std::string(const engine::ComponentPanel&)>;

TextPrompt component_prompt(const engine::Problem& problem, std::size_t c, const PanelText& text) {
  std::vector<std::string> context, choices;
  for (const auto& p : problem.context) context.push_back(text(p.components[c]));
  for (const auto& p : problem.candidates) choices.push_back(text(p.components[c]));
  return make_prompt(context, std::move(choices));
}

}  // namespace

TextPrompt entangled_prompt(const engine::Problem& problem, const TextOptions& options) {
  const auto shapes = grid_shapes(problem);
  std::vector<std::string> context, choices;
  for (const auto& p : problem.context) context.push_back(panel_text(p, shapes, options.angle));
  for (const auto& p : problem.candidates) choices.push_back(panel_text(p, shapes, options.angle));
  return make_prompt(context, std::move(choices));
}

std::vector<AttributePrompt> disentangled_prompts(const engine::Problem& problem, const TextOptions& options) {
  const auto shapes = grid_shapes(problem);
  const auto& components = engine::configuration(problem.config).components;
  std::vector<AttributePrompt> out;
  for (std::size_t c = 0; c < components.size(); ++c) {
    const GridShape& g = shapes[c];
    const std::string name(components[c].name);
    for (const auto& a : entity_attributes(options.angle))
      out.push_back({name, a.name, component_prompt(problem, c, [&](const engine::ComponentPanel& cp) {
                       return attribute_text(cp, g, a.level);
                     })});
    if (!g.grid()) continue;
    out.push_back({name, "layout", component_prompt(problem, c, [&](const engine::ComponentPanel& cp) {
                     return layout_text(cp, g);
                   })});
    out.push_back({name, "number", component_prompt(problem, c, [](const engine::ComponentPanel& cp) {
                     return std::to_string(cp.entities.size());
                   })});
  }
  return out;
}

}  // namespace rave::evaluation
