// The prompt styles of text_prompt.hpp: IBM's `rpm_dataset.Shape / Grid / Branch / Component /
// RPM` and lm-raven's classes of the same names, followed step by step (including the order of
// numpy's draws for uncertain values: the shown context panels first, then the candidates).
#include "evaluation/export/text_prompt.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "common/error.hpp"
#include "common/pyformat.hpp"
#include "engine/model/configuration.hpp"
#include "evaluation/export/numpy_random.hpp"

namespace rave::evaluation {
namespace {

// Row-major grid cell of each slot of a layout: rows are the distinct slot centres' y, columns
// the distinct x (ceil(centre * side) in the sources' `Grid._coords`, for any regular grid).
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

void append_int(std::string& out, long long value) {
  char buffer[24];
  out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

// A value as the sources hold it: a Python int, or a float (a scaled Size).
struct PyValue {
  bool real = false;
  long long i = 0;
  double f = 0;
  static PyValue of(long long v) { return {false, v, 0}; }
  static PyValue tenths(long long k) { return {true, k, static_cast<double>(k) / 10.0}; }
};

// "{}".format(v): an int's digits or a float's repr.
void append_value(std::string& out, const PyValue& v) {
  if (v.real)
    append_py_float(out, v.f);
  else
    append_int(out, v.i);
}

// "{:.2f}".format(p): correctly rounded, as glibc's printf rounds.
void append_fixed2(std::string& out, double p) {
  char buffer[32];
  const int n = std::snprintf(buffer, sizeof buffer, "%.2f", p);
  out.append(buffer, static_cast<std::size_t>(n));
}

// Python's round(p, 2): the double nearest the correctly rounded two-decimal text.
double round2(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", p);
  return std::strtod(buffer, nullptr);
}

// IBM's `Shape._uncertainty_conv(x)`: "<p0::x-1,px::x,p1::x+1>", wrapping at the range's ends.
void append_uncertain(std::string& out, const PyValue& x, double u, int range,
                      NumpyLegacyRandom& rng) {
  const double px = round2(rng.uniform(u, 1.0));
  std::array<double, 2> side{round2(rng.uniform(0.0, 1.0 - px)), 0.0};
  side[1] = 1.0 - px - side[0];
  if (rng.permutation2_swaps()) std::swap(side[0], side[1]);
  const bool positive = x.real ? x.f > 0 : x.i > 0;
  const bool below_top = x.real ? x.f < range - 1 : x.i < range - 1;
  const PyValue minus = positive ? (x.real ? PyValue{true, 0, x.f - 1.0} : PyValue::of(x.i - 1))
                                 : PyValue::of(range - 1);
  const PyValue plus =
      below_top ? (x.real ? PyValue{true, 0, x.f + 1.0} : PyValue::of(x.i + 1)) : PyValue::of(0);
  out += '<';
  append_fixed2(out, side[0]);
  out += "::";
  append_value(out, minus);
  out += ',';
  append_fixed2(out, px);
  out += "::";
  append_value(out, x);
  out += ',';
  append_fixed2(out, side[1]);
  out += "::";
  append_value(out, plus);
  out += '>';
}

// How the shapes of one component are written (the arguments of the source's `Shape`).
struct ShapeStyle {
  const TextOptions* options = nullptr;
  int confounders = 0;                  ///< `nconf`: only a lone center_single component has them
  NumpyLegacyRandom* random = nullptr;  ///< set when values are uncertain
  int range = 0;                        ///< `maxval_uncert`
};

// The values of `Shape.__str__`: Type, Size, Color, then Angle, or else the confounders.
std::vector<PyValue> shape_values(const engine::Entity& e, const engine::ComponentPanel& cp,
                                  std::size_t index, const ShapeStyle& s) {
  const TextOptions& o = *s.options;
  const long long size = e.size + (o.offset ? 1 : 0);
  std::vector<PyValue> v{PyValue::of(e.type + (o.offset ? 2 : 0)),
                         o.scaling ? PyValue::tenths(size) : PyValue::of(size),
                         PyValue::of(static_cast<long long>(e.color) * (o.scaling ? 10 : 1))};
  if (o.angle) {
    v.push_back(PyValue::of(static_cast<long long>(e.angle) * (o.scaling ? 100 : 1)));
  } else {
    const auto k = static_cast<std::size_t>(s.confounders);
    RAVE_CHECK(cp.confounders.size() >= (index + 1) * k, "an entity without its confounders");
    for (std::size_t j = index * k; j < (index + 1) * k; ++j)
      v.push_back(PyValue::of(cp.confounders[j]));
  }
  return v;
}

void append_shape(std::string& out, const engine::ComponentPanel& cp, std::size_t index,
                  const ShapeStyle& s) {
  const auto values = shape_values(cp.entities[index], cp, index, s);
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += i ? ',' : '(';
    if (s.random)
      append_uncertain(out, values[i], *s.options->uncertainty, s.range, *s.random);
    else
      append_value(out, values[i]);
  }
  out += ')';
}

// The entities of a component by grid cell (-1 = empty cell).
std::vector<int> cells_of(const engine::ComponentPanel& component, const GridShape& g) {
  std::vector<int> cells(static_cast<std::size_t>(g.cells), -1);
  for (std::size_t i = 0; i < component.entities.size(); ++i) {
    const int slot = component.entities[i].slot;
    RAVE_CHECK(slot >= 0 && static_cast<std::size_t>(slot) < g.cell_of_slot.size(),
               "slot outside its layout");
    auto& cell = cells[static_cast<std::size_t>(g.cell_of_slot[static_cast<std::size_t>(slot)])];
    if (cell < 0) cell = static_cast<int>(i);  // `coords.index` finds the first
  }
  return cells;
}

// `str(Shape)` of a lone shape, or `str(Grid)`: "[(..), -, ...]".
std::string component_text(const engine::ComponentPanel& cp, const GridShape& g,
                           const ShapeStyle& s) {
  std::string out;
  if (!g.grid()) {
    if (cp.entities.empty()) return "-";
    append_shape(out, cp, 0, s);
    return out;
  }
  out += '[';
  const auto cells = cells_of(cp, g);
  const ShapeStyle plain{s.options, 0, nullptr, 0};  // `Grid` passes neither nconf nor uncertainty
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) out += ", ";
    if (cells[i] < 0)
      out += '-';
    else
      append_shape(out, cp, static_cast<std::size_t>(cells[i]), plain);
  }
  out += ']';
  return out;
}

// Whether the source builds the problem as one component (`config[:13] == "center_single" or
// config[:10] == "distribute"`): then it passes nconf and uncertainty on.
bool single_component(const engine::Problem& problem) {
  return engine::configuration(problem.config).components.size() == 1;
}

bool lone_shape(const engine::Problem& problem) {
  return single_component(problem) && !grid_shapes(problem)[0].grid();
}

int shown_rows(const engine::Problem& problem, const TextOptions& o) {
  return o.rows_shown == 0 ? problem.grid() : o.rows_shown;
}

// `Branch._context`: the last K rows of the N x N matrix, relabelled "row 1" on, the open cell
// left as ", "; lm-raven's one-row form has no label.
std::string matrix_context(const std::vector<std::string>& shown, int side, bool unlabelled) {
  std::string out;
  std::size_t length = 16;
  for (const std::string& c : shown) length += c.size() + 10;
  out.reserve(length);
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const auto column = i % static_cast<std::size_t>(side);
    if (column == 0 && !unlabelled) {
      out += i ? "; row " : "row ";
      append_int(out, static_cast<long long>(i / static_cast<std::size_t>(side) + 1));
      out += ": ";
    } else if (i) {
      out += ", ";
    }
    out += shown[i];
  }
  out += ", ";
  return out;
}

// Which query a branch text is for: the entangled one, an attribute branch, or a master branch.
enum class Query { kEntangled, kAttribute, kMaster };

// IBM's query around the context: Solver_disc's answer set (ibm-2024: its closing line), or
// Solver_pred's bare context, "(" opening the missing panel in the entangled and master queries.
std::string ibm_query(const TextPrompt& t, const TextOptions& o, std::string_view prefix,
                      Query query) {
  std::string out = std::string(prefix) + t.context;
  if (o.classmode == ClassMode::kPred) return query == Query::kAttribute ? out : out + '(';
  const bool old = o.style == PromptStyle::kIbm2024;
  out += old ? "\nSelect the correct Answer from the following list\n" : "\nAnswer set:\n";
  for (std::size_t i = 0; i < t.choices.size(); ++i) {
    if (i) out += '\n';
    out += "Answer #";
    append_int(out, static_cast<long long>(i));
    out += ": ";
    out += t.choices[i];
  }
  if (old)
    out += query == Query::kEntangled ? "\nCorrect Answer #"
                                      : "\nSolution: The correct answer is Answer #";
  return out;
}

// The branch's texts in the source's order of evaluation (`Branch.__init__`: the shown context,
// then the candidates).
template <class PanelText>
TextPrompt branch_prompt(const engine::Problem& problem, const TextOptions& o, Query query,
                         const PanelText& text) {
  TextPrompt t;
  const int side = problem.grid(), rows = shown_rows(problem, o);
  std::vector<std::string> shown;
  for (std::size_t i = static_cast<std::size_t>((side - rows) * side); i < problem.context.size();
       ++i)
    shown.push_back(text(problem.context[i]));
  t.choices.reserve(problem.candidates.size());
  for (const auto& p : problem.candidates) t.choices.push_back(text(p));
  const bool lm = o.style == PromptStyle::kLmRaven;
  t.context = matrix_context(shown, side, lm && rows == 1);
  const std::string prefix = o.prefix ? *o.prefix : std::string(default_prefix(o.style));
  if (!lm) {
    t.prompt = ibm_query(t, o, prefix, query);
    return t;
  }
  for (const std::string& c : t.choices)
    t.choice_prompts.push_back(
        std::string(prefix).append(t.context).append(c).append(rows == 1 ? "" : ";"));
  return t;
}

// Solver_pred builds its RPM without nconf: no confounders in its queries.
int confounders_shown(const engine::Problem& problem, const TextOptions& o) {
  const bool shown = o.style == PromptStyle::kIbm2025 && o.classmode == ClassMode::kDisc;
  return shown && lone_shape(problem) ? problem.variant.confounders : 0;
}

int uncertainty_range(const engine::Problem& problem, const TextOptions& o) {
  if (o.uncertainty_range > 0) return o.uncertainty_range;
  return problem.variant.values > 0 ? problem.variant.values : engine::kDefaultConfounderLevels;
}

// Python's str() of a list of ints: "[3, 5]".
std::string int_list(const std::vector<int>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    append_int(out, values[i]);
  }
  return out + "]";
}

// A branch of `Component._update` other than master: the value of a lone shape, or a grid's sorted
// distinct values (`Grid.get_types` ...).
struct Branch {
  std::string name;
  std::function<std::string(const engine::ComponentPanel&)> text;
};

std::vector<int> distinct(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

Branch value_branch(std::string name, const GridShape& g,
                    const std::function<int(const engine::Entity&)>& of) {
  return {std::move(name), [grid = g.grid(), of](const engine::ComponentPanel& cp) {
            if (!grid) {
              if (cp.entities.empty()) return std::string("-");
              std::string out;
              append_int(out, of(cp.entities.front()));
              return out;
            }
            std::vector<int> v;
            for (const auto& e : cp.entities) v.push_back(of(e));
            return int_list(distinct(std::move(v)));
          }};
}

std::vector<Branch> attribute_branches(const engine::Problem& problem, const GridShape& g,
                                       const TextOptions& o) {
  const int t = o.offset ? 2 : 0, s = o.offset ? 1 : 0;
  std::vector<Branch> out{
      value_branch("type", g, [t](const engine::Entity& e) { return e.type + t; }),
      value_branch("size", g, [s](const engine::Entity& e) { return e.size + s; }),
      value_branch("color", g, [](const engine::Entity& e) { return e.color; })};
  if (o.angle)
    out.push_back(value_branch("angle", g, [](const engine::Entity& e) { return e.angle; }));
  const int k = confounders_shown(problem, o);
  for (int j = 0; j < k; ++j)
    out.push_back({"confounder" + std::to_string(j), [j](const engine::ComponentPanel& cp) {
                     std::string v;
                     append_int(v, cp.confounders.at(static_cast<std::size_t>(j)));
                     return v;
                   }});
  if (!g.grid()) return out;
  out.push_back({"layout", [g](const engine::ComponentPanel& cp) {
                   std::vector<int> occupied;
                   for (int cell : cells_of(cp, g)) occupied.push_back(cell >= 0);
                   return int_list(occupied);
                 }});
  out.push_back({"number", [](const engine::ComponentPanel& cp) {
                   return std::to_string(cp.entities.size());
                 }});
  return out;
}

// Solver_pred is IBM's (lm-raven has no generative query) and passes no uncertainty.
void check_pred_options(const TextOptions& o) {
  if (o.style == PromptStyle::kLmRaven)
    throw ParameterError("classmode",
                         " pred needs an ibm style (lm-raven's code has no Solver_pred)");
  if (o.uncertainty)
    throw ParameterError("uncertainty",
                         " is for classmode disc (IBM's Solver_pred passes none, and its Solver "
                         "refuses it)");
}

}  // namespace

std::string_view style_name(PromptStyle style) {
  switch (style) {
    case PromptStyle::kIbm2025: return "ibm-2025";
    case PromptStyle::kIbm2024: return "ibm-2024";
    case PromptStyle::kLmRaven: return "lm-raven";
  }
  return "";
}

std::optional<PromptStyle> parse_style(std::string_view name) {
  for (auto s : {PromptStyle::kIbm2025, PromptStyle::kIbm2024, PromptStyle::kLmRaven})
    if (style_name(s) == name) return s;
  return std::nullopt;
}

std::string_view classmode_name(ClassMode mode) {
  return mode == ClassMode::kPred ? "pred" : "disc";
}

std::optional<ClassMode> parse_classmode(std::string_view name) {
  for (auto m : {ClassMode::kDisc, ClassMode::kPred})
    if (classmode_name(m) == name) return m;
  return std::nullopt;
}

std::string_view default_prefix(PromptStyle style) {
  return style == PromptStyle::kLmRaven ? "let's think step by step. "
                                        : "Only return the missing numbers!\n";
}

std::string_view system_prompt(PromptStyle style) {
  return style == PromptStyle::kLmRaven ? "" : "Complete the Raven's progressive matrix:";
}

void check_text_options(const TextOptions& o, const engine::Problem* problem) {
  const std::string style(style_name(o.style));
  if (o.style != PromptStyle::kIbm2025) {
    if (!o.offset || !o.scaling)
      throw ParameterError(
          o.offset ? "no_scaling" : "no_offsets",
          " needs style ibm-2025 (" + style + "'s code always offsets and scales)");
    if (o.uncertainty)
      throw ParameterError("uncertainty", " needs style ibm-2025 (" + style + "'s code has none)");
  }
  if (o.classmode == ClassMode::kPred) check_pred_options(o);
  if (o.style == PromptStyle::kIbm2024 && o.classmode == ClassMode::kDisc && o.rows_shown != 3)
    throw ParameterError("style", " ibm-2024 shows 3 rows (its Solver_disc passes no nshow)");
  if (o.uncertainty && !(*o.uncertainty >= 0.0 && *o.uncertainty <= 1.0))
    throw ParameterError("uncertainty", " must lie in [0, 1]");
  if (o.rows_shown < 0) throw ParameterError("rows_shown", " must be 1..N or all");
  if (o.style == PromptStyle::kLmRaven && (o.rows_shown < 1 || o.rows_shown > 3))
    throw ParameterError("style",
                         " lm-raven shows 1, 2 or 3 rows (its n), not " +
                             (o.rows_shown ? std::to_string(o.rows_shown) : std::string("all")));
  if (!problem) return;
  const int n = problem->grid(), rows = shown_rows(*problem, o);
  if (rows > n)
    throw ParameterError("rows_shown", " " + std::to_string(rows) + " exceeds the problem's " +
                                           std::to_string(n) + " rows");
}

TextPrompt entangled_prompt(const engine::Problem& problem, const TextOptions& o) {
  check_text_options(o, &problem);
  // IBM's `RPM._update` writes a two-component matrix only through a 3x3, 3-row template; beyond
  // it (where its code fails or misplaces panels) the rows are written as `Branch` writes them.
  const auto& shapes = grid_shapes(problem);
  std::optional<NumpyLegacyRandom> random;
  const bool lone = lone_shape(problem);
  if (o.uncertainty && lone) random.emplace(o.uncertainty_seed);
  const ShapeStyle lone_style{&o, confounders_shown(problem, o), random ? &*random : nullptr,
                              uncertainty_range(problem, o)};
  const ShapeStyle plain{&o, 0, nullptr, 0};
  return branch_prompt(problem, o, Query::kEntangled, [&](const engine::Panel& panel) {
    if (single_component(problem))
      return component_text(panel.components[0], shapes[0], lone ? lone_style : plain);
    return "A " + component_text(panel.components[0], shapes[0], plain) + " / B " +
           component_text(panel.components[1], shapes[1], plain);
  });
}

std::vector<AttributePrompt> disentangled_prompts(const engine::Problem& problem,
                                                  const TextOptions& o) {
  check_text_options(o, &problem);
  if (o.uncertainty)
    throw ParameterError("uncertainty", " is for the entangled form only (as in IBM's code)");
  const auto& shapes = grid_shapes(problem);
  const auto& components = engine::configuration(problem.config).components;
  std::vector<AttributePrompt> out;
  for (std::size_t c = 0; c < components.size(); ++c) {
    const std::string name(components[c].name);
    const auto on = [c](const auto& text) {
      return [c, &text](const engine::Panel& p) { return text(p.components[c]); };
    };
    for (const Branch& b : attribute_branches(problem, shapes[c], o))
      out.push_back({name, b.name, branch_prompt(problem, o, Query::kAttribute, on(b.text))});
    const ShapeStyle master{&o, confounders_shown(problem, o), nullptr, 0};
    const auto master_text = [&](const engine::ComponentPanel& cp) {
      return component_text(cp, shapes[c], master);
    };
    out.push_back({name, "master", branch_prompt(problem, o, Query::kMaster, on(master_text))});
  }
  return out;
}

}  // namespace rave::evaluation
