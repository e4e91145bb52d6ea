// The lm-raven / I-RAVEN text convention of text_prompt.hpp.
#include "evaluation/text_prompt.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "common/error.hpp"
#include "common/pyformat.hpp"
#include "engine/model/configuration.hpp"
#include "evaluation/smooth.hpp"

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
  values.erase(std::unique(values.begin(), values.end(),
                           [](double a, double b) { return std::abs(a - b) < 1e-9; }),
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

// The grid shapes of each configuration's components, made once: layouts are fixed tables.
const std::vector<GridShape>& grid_shapes(const engine::Problem& problem) {
  static const auto shapes = [] {
    std::array<std::vector<GridShape>, engine::kNumConfigs> out;
    for (const engine::Configuration& config : engine::all_configurations())
      for (const auto& c : config.components)
        out[static_cast<std::size_t>(engine::config_index(config.id))].push_back(
            grid_shape(c.layout));
    return out;
  }();
  return shapes[static_cast<std::size_t>(engine::config_index(problem.config))];
}

// How entities are written: with Angle or not, and with smoothed levels (smooth.hpp) when smooth
// < 1.
struct EntityStyle {
  const engine::Problem* problem = nullptr;
  int component = 0;
  bool angle = false;
  double smooth = 1.0;
};

void append_int(std::string& out, int value) {
  char buffer[16];
  out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

// Level `level` of attribute `attr` (0 Type, 1 Size, 2 Color) shown by `show(out, level)`, or its
// smoothed distribution "{5: 0.8, 4: 0.1, 6: 0.1}" (true level first).
template <class Show>
void append_level(std::string& out, int attr, int level, const EntityStyle& style,
                  const Show& show) {
  if (style.smooth >= 1.0) return show(out, level);
  out += '{';
  const auto d = smoothed_level(*style.problem, style.component, attr, level, style.smooth);
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i) out += ", ";
    show(out, d[i].level);
    out += ": ";
    append_py_float(out, d[i].p);
  }
  out += '}';
}

void append_entity(std::string& out, const engine::Entity& e, const EntityStyle& style) {
  out += '(';
  append_level(out, 0, e.type, style, [](std::string& o, int l) { append_int(o, l + 2); });
  out += ',';
  append_level(out, 1, e.size, style, [](std::string& o, int l) { append_py_tenths(o, l + 1); });
  out += ',';
  append_level(out, 2, e.color, style, [](std::string& o, int l) { append_int(o, l * 10); });
  if (style.angle) {
    out += ',';
    append_int(out, e.angle * 100);
  }
  out += ')';
}

// The entities of a component by grid cell (nullptr = empty cell).
std::vector<const engine::Entity*> cells_of(const engine::ComponentPanel& component,
                                            const GridShape& g) {
  std::vector<const engine::Entity*> cells(static_cast<std::size_t>(g.cells), nullptr);
  for (const auto& e : component.entities) {
    RAVE_CHECK(e.slot >= 0 && static_cast<std::size_t>(e.slot) < g.cell_of_slot.size(),
               "slot outside its layout");
    cells[static_cast<std::size_t>(g.cell_of_slot[static_cast<std::size_t>(e.slot)])] = &e;
  }
  return cells;
}

void append_component(std::string& out, const engine::ComponentPanel& component, const GridShape& g,
                      const EntityStyle& style) {
  if (!g.grid()) {
    if (component.entities.empty())
      out += '-';
    else
      append_entity(out, component.entities.front(), style);
    return;
  }
  out += '[';
  const auto cells = cells_of(component, g);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) out += ", ";
    if (cells[i])
      append_entity(out, *cells[i], style);
    else
      out += '-';
  }
  out += ']';
}

std::string panel_text(const engine::Problem& problem, const engine::Panel& panel,
                       const std::vector<GridShape>& shapes, const TextOptions& options) {
  std::string out;
  out.reserve(128);  // a 3x3 grid of entities: about 150 characters
  for (std::size_t c = 0; c < panel.components.size(); ++c) {
    if (panel.components.size() > 1) {
      if (c) out += " / ";
      out += static_cast<char>('A' + c);
      out += ' ';
    }
    const EntityStyle style{&problem, static_cast<int>(c), options.angle, options.smooth};
    append_component(out, panel.components[c], shapes[c], style);
  }
  return out;
}

// "row 1: a, b, c; row 2: d, e, f; row 3: g, h, " for the N * N - 1 context cells.
std::string matrix_context(const std::vector<std::string>& cells) {
  const auto side =
      static_cast<std::size_t>(std::lround(std::sqrt(static_cast<double>(cells.size() + 1))));
  RAVE_CHECK(side * side == cells.size() + 1, "the context is not an N x N matrix less one panel");
  std::size_t length = 2;
  for (const std::string& c : cells) length += c.size() + 10;
  std::string out;
  out.reserve(length);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i % side == 0) {
      out += i ? "; row " : "row ";
      append_int(out, static_cast<int>(i / side + 1));
      out += ": ";
    } else {
      out += ", ";
    }
    out += cells[i];
  }
  out += ", ";
  return out;
}

TextPrompt make_prompt(const std::vector<std::string>& context, std::vector<std::string> choices) {
  TextPrompt t{matrix_context(context), std::move(choices), {}};
  std::size_t length = t.context.size() + 80;
  for (const std::string& c : t.choices) length += c.size() + 16;
  t.prompt.reserve(length);
  t.prompt += t.context;
  t.prompt += "\nSelect the correct Answer from the following list\n";
  for (std::size_t i = 0; i < t.choices.size(); ++i) {
    t.prompt += "Answer #";
    append_int(t.prompt, static_cast<int>(i));
    t.prompt += ": ";
    t.prompt += t.choices[i];
    t.prompt += '\n';
  }
  t.prompt += "Correct Answer #";
  return t;
}

// Python's str() of a list of ints: "[3, 5]".
std::string int_list(const std::vector<int>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

// An entity attribute of the disentangled form: its file level and how it is shown (Type + 2, Size
// + 1).
struct Attribute {
  const char* name;
  int index;  ///< 0 Type, 1 Size, 2 Color (smoothed), 3 Angle (never)
  int (*level)(const engine::Entity&);
  int offset;
};

std::vector<Attribute> entity_attributes(bool angle) {
  std::vector<Attribute> out{{"type", 0, [](const engine::Entity& e) { return e.type; }, 2},
                             {"size", 1, [](const engine::Entity& e) { return e.size; }, 1},
                             {"color", 2, [](const engine::Entity& e) { return e.color; }, 0}};
  if (angle) out.push_back({"angle", 3, [](const engine::Entity& e) { return e.angle; }, 0});
  return out;
}

// One attribute of one component as text: the level of a single entity, or a grid's sorted distinct
// levels ("[3, 5]"); smoothed levels as distributions.
std::string attribute_text(const engine::ComponentPanel& component, const GridShape& g,
                           const Attribute& a, const EntityStyle& style) {
  thread_local std::vector<int> values;  // scratch: one component's levels at a time
  values.clear();
  for (const auto& e : component.entities) values.push_back(a.level(e));
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.empty()) return g.grid() ? "[]" : "-";
  const auto show = [&a](std::string& o, int l) { append_int(o, l + a.offset); };
  std::string out = g.grid() ? "[" : "";
  for (std::size_t i = 0; i < values.size() && (g.grid() || i == 0); ++i) {
    if (i) out += ", ";
    if (a.index < 3)
      append_level(out, a.index, values[i], style, show);
    else
      show(out, values[i]);
  }
  return g.grid() ? out + "]" : out;
}

std::string layout_text(const engine::ComponentPanel& component, const GridShape& g) {
  std::vector<int> occupied;
  for (const auto* cell : cells_of(component, g)) occupied.push_back(cell != nullptr);
  return int_list(occupied);
}

// The prompt of component c with each panel's part shown by `text(ComponentPanel) -> string`.
template <class PanelText>
TextPrompt component_prompt(const engine::Problem& problem, std::size_t c, const PanelText& text) {
  std::vector<std::string> context, choices;
  context.reserve(problem.context.size());
  choices.reserve(problem.candidates.size());
  for (const auto& p : problem.context) context.push_back(text(p.components[c]));
  for (const auto& p : problem.candidates) choices.push_back(text(p.components[c]));
  return make_prompt(context, std::move(choices));
}

}  // namespace

TextPrompt entangled_prompt(const engine::Problem& problem, const TextOptions& options) {
  const auto& shapes = grid_shapes(problem);
  std::vector<std::string> context, choices;
  for (const auto& p : problem.context) context.push_back(panel_text(problem, p, shapes, options));
  for (const auto& p : problem.candidates)
    choices.push_back(panel_text(problem, p, shapes, options));
  return make_prompt(context, std::move(choices));
}

std::vector<AttributePrompt> disentangled_prompts(const engine::Problem& problem,
                                                  const TextOptions& options) {
  const auto& shapes = grid_shapes(problem);
  const auto& components = engine::configuration(problem.config).components;
  std::vector<AttributePrompt> out;
  for (std::size_t c = 0; c < components.size(); ++c) {
    const GridShape& g = shapes[c];
    const std::string name(components[c].name);
    const EntityStyle style{&problem, static_cast<int>(c), options.angle, options.smooth};
    for (const auto& a : entity_attributes(options.angle))
      out.push_back(
          {name, a.name, component_prompt(problem, c, [&](const engine::ComponentPanel& cp) {
             return attribute_text(cp, g, a, style);
           })});
    if (!g.grid()) continue;
    out.push_back(
        {name, "layout", component_prompt(problem, c, [&](const engine::ComponentPanel& cp) {
           return layout_text(cp, g);
         })});
    out.push_back(
        {name, "number", component_prompt(problem, c, [](const engine::ComponentPanel& cp) {
           return std::to_string(cp.entities.size());
         })});
  }
  return out;
}

}  // namespace rave::evaluation
