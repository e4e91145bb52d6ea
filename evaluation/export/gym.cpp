#include "evaluation/export/gym.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <utility>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/png.hpp"
#include "engine/generate.hpp"
#include "engine/model/resize.hpp"
#include "engine/render/render.hpp"
#include "engine/render/sheet.hpp"
#include "engine/rules/variant_rules.hpp"
#include "evaluation/export/vlm.hpp"
#include "evaluation/items.hpp"
#include "solver/solver.hpp"

namespace rave::evaluation {
namespace {

// As `rave generate`'s jobs::kMaxDraws: a problem none of whose draws passes is an error.
constexpr std::uint64_t kMaxDraws = 1000;
constexpr int kMaxImageSize = 4096;
// `rave generate`'s default splits: k mod 10 of 8 and 9 is test, 6 and 7 val.
constexpr int kValTenths = 2;
constexpr int kTestTenths = 2;

// Whether shown candidate `target` differs from every other (texts, or panels).
template <class Shown>
bool shown_apart(const std::vector<Shown>& shown, std::size_t first, int target) {
  const Shown& answer = shown[first + static_cast<std::size_t>(target)];
  for (std::size_t i = first; i < shown.size(); ++i)
    if (i != first + static_cast<std::size_t>(target) && shown[i] == answer) return false;
  return true;
}

// A resizer to `side` per thread (its coefficients are computed once per size).
const engine::PanelResizer& resizer(int side) {
  thread_local std::map<int, std::unique_ptr<engine::PanelResizer>> by_side;
  auto& slot = by_side[side];
  if (!slot) slot = std::make_unique<engine::PanelResizer>(engine::kPanelSize, side);
  return *slot;
}

std::string panel_png(const engine::Image& panel, int side) {
  if (side == engine::kPanelSize)
    return engine::encode_gray_png(panel, engine::kPanelSize, engine::kPanelSize);
  thread_local std::vector<std::uint8_t> resized;
  resized.resize(static_cast<std::size_t>(side) * static_cast<std::size_t>(side));
  resizer(side)(panel.data(), resized.data());
  return engine::encode_gray_png(resized, side, side);
}

// The question and images of `problem` in the spec's form; false when the answer is shown like
// another candidate (the same text, or the same pixels).
bool show(const GymSpec& spec, const engine::Problem& problem, GymItem& item) {
  if (spec.form == GymForm::kText) {
    const TextPrompt t = entangled_prompt(problem, spec.text);
    item.question = std::string(system_prompt(spec.text.style)) + "\n" + t.prompt;
    item.images.clear();
    return shown_apart(t.choices, 0, item.target);
  }
  thread_local std::vector<engine::Image> panels;
  engine::render_problem(problem, panels);
  const int grid = problem.grid();
  item.images.clear();
  if (spec.form == GymForm::kSheet) {
    item.question = sheet_prompt(grid);
    const engine::SheetOptions answer_free{.answer = std::nullopt,
                                           .first_label = candidate_label(0)};
    item.images.push_back(engine::encode_gray_png(engine::problem_sheet(panels, answer_free)));
  } else {
    item.question = panels_prompt(grid);
    for (const engine::Image& panel : panels)
      item.images.push_back(panel_png(panel, spec.image_size));
  }
  return shown_apart(panels, problem.context.size(), item.target);
}

// Draw `attempt` of the entry's problem, shown; whether its answer is proved unique and shown
// apart from the other candidates.
bool draw(const GymSpec& spec, GymItem& item) {
  const engine::Problem problem = engine::generate_problem(
      item.config, spec.answers, spec.seed, item.k, spec.variant, item.split, item.attempt);
  RAVE_CHECK(problem.target.has_value(), "a generated problem has its answer");
  item.target = *problem.target;
  const solver::Solution s = solver::solve_rule_free(problem);
  item.verdict = s.verdict;
  const bool apart = show(spec, problem, item);
  item.rules = rule_labels(problem);
  item.rewarded = solver::proves_answer_unique(problem, s) && apart;
  return item.rewarded;
}

}  // namespace

std::string_view gym_form_name(GymForm form) {
  switch (form) {
    case GymForm::kText: return "text";
    case GymForm::kSheet: return "sheet";
    case GymForm::kPanels: return "panels";
  }
  return "text";
}

std::optional<GymForm> parse_gym_form(std::string_view name) {
  for (const auto form : {GymForm::kText, GymForm::kSheet, GymForm::kPanels})
    if (gym_form_name(form) == name) return form;
  return std::nullopt;
}

void check_gym_spec(const GymSpec& spec) {
  if (spec.configs.empty()) throw UsageError("configs names no configuration");
  engine::check_variant(spec.variant);
  if (spec.form != GymForm::kText && !spec.variant.drawable())
    throw UsageError("the " + std::string(gym_form_name(spec.form)) + " form needs values <= " +
                     std::to_string(engine::kMaxDrawableValues) + " (Type has " +
                     std::to_string(engine::kMaxDrawableValues) + " shapes); values " +
                     std::to_string(spec.variant.values) + " has the text form only");
  if (spec.image_size < 1 || spec.image_size > kMaxImageSize)
    throw UsageError("image_size must be in 1.." + std::to_string(kMaxImageSize) + ", not " +
                     std::to_string(spec.image_size));
  if (spec.text.rows_shown != 0)
    throw UsageError(
        "the text form shows every row (rows_shown 0): the uniqueness proof is over "
        "the whole matrix");
  check_text_options(spec.text);
  for (const auto id : spec.configs)
    for (const auto split : {engine::Split::kTrain, engine::Split::kVal, engine::Split::kTest})
      if (std::string why = engine::variant_rules_defect(id, spec.variant, split); !why.empty())
        throw UsageError(why);
}

GymItem gym_item(const GymSpec& spec, std::uint64_t index) {
  GymItem item;
  const std::size_t c = spec.configs.size();
  item.config = spec.configs[index % c];
  item.k = index / c;
  item.split = engine::split_of(item.k, kValTenths, kTestTenths);
  for (item.attempt = 0; item.attempt < kMaxDraws; ++item.attempt)
    if (draw(spec, item) || !spec.redraw) return item;
  throw Error("problem " + std::to_string(item.k) + " of " +
              std::string(engine::configuration(item.config).folder) + ": none of " +
              std::to_string(kMaxDraws) + " draws has an answer proved unique");
}

std::vector<GymItem> gym_items(const GymSpec& spec, std::span<const std::uint64_t> indices,
                               int threads) {
  std::vector<GymItem> out(indices.size());
  parallel_for_index(indices.size(), threads,
                     [&](std::size_t i) { out[i] = gym_item(spec, indices[i]); });
  return out;
}

}  // namespace rave::evaluation
