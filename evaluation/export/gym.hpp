#pragma once
// The problems of the RL environment (faces/python/rave/gym.py, docs/rl.md), made on the fly: entry i of
// a set is problem k = i / C of configuration configs[i % C] (C configurations, interleaved) as
// `rave generate --seed S --unique-only` makes it: redrawn from the further streams of (seed,
// configuration, k) until the rule-free solver proves its answer unique, or, with `redraw` off,
// the first draw, marked unrewarded when the proof fails. Its question is a text `rave export`
// writes (ibm-2025, disc: the matrix and "Answer #0".."Answer #7", every row shown) or an image
// form of `rave show --vlm` (the answer-free sheet, or every panel as its own image at any size)
// with that form's prompt; nothing here writes prompt text of its own.
//
//   GymSpec spec{.configs = {engine::ConfigId::kCenterSingle}, .seed = 1};
//   GymItem item = gym_item(spec, 0);        // item.question, item.target, item.rewarded
//   std::vector<GymItem> more = gym_items(spec, {0, 1, 2, 3}, /*threads=*/2);  // same bytes for any count
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/answers/answer_set.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"
#include "engine/model/variant.hpp"
#include "evaluation/export/text_prompt.hpp"
#include "solver/solution.hpp"

namespace rave::evaluation {

/// How a problem is shown: the exporter's text, the answer-free sheet (one image, candidates
/// labelled 1..8), or the panels (N*N-1 context images, then the 8 candidates).
enum class GymForm { kText, kSheet, kPanels };
std::string_view gym_form_name(GymForm form);  ///< "text", "sheet", "panels"
std::optional<GymForm> parse_gym_form(std::string_view name);

/// What every entry of a set shares.
struct GymSpec {
  std::vector<engine::ConfigId> configs = {};  ///< interleaved: entry i is of configs[i % C]
  engine::AnswerStrategy answers = engine::AnswerStrategy::kIRaven;
  std::uint64_t seed = 0;
  engine::Variant variant = {};
  GymForm form = GymForm::kText;
  int image_size = 224;  ///< kPanels: each panel's side in pixels (160 is the renderer's own)
  /// kText: the exporter's options; `rows_shown` must be 0 (every row: the proof is over all).
  TextOptions text = {.rows_shown = 0, .prefix = std::string()};
  bool redraw = true;  ///< redraw until the answer is proved unique; else keep and mark
};

/// One entry.
struct GymItem {
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  std::uint64_t k = 0;  ///< problem k of `config`: `rave generate`'s RAVEN_<k>_<split>
  engine::Split split = engine::Split::kTrain;
  std::uint64_t attempt = 0;  ///< the draw kept (0: the first; `--unique-only`'s redraws after)
  int target = 0;             ///< the answer's 0-based index among the candidates
  solver::Verdict verdict = solver::Verdict::kNone;  ///< the rule-free solver's, on the draw kept
  bool rewarded = false;  ///< the answer is proved unique and is shown unlike every other candidate
  std::string question;   ///< the text a model is sent
  std::vector<std::string> images = {};  ///< the image forms' PNG files, in the prompt's order
  std::vector<std::string> rules = {};   ///< "Attribute Rule" labels (rule_labels, items.hpp)
};

/// Throws UsageError naming what is wrong: no configuration, an image form of values above 5, an
/// image size outside 1..4096, rows other than all, a variant that leaves some configuration no
/// rule.
void check_gym_spec(const GymSpec& spec);
/// Entry `index` (spec checked by the caller).
GymItem gym_item(const GymSpec& spec, std::uint64_t index);
/// Entries `indices` on `threads` workers, in the order given; the same bytes for any count.
std::vector<GymItem> gym_items(const GymSpec& spec, std::span<const std::uint64_t> indices,
                               int threads);

}  // namespace rave::evaluation
