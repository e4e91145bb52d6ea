#pragma once
// Problems as text prompts for language models, written exactly as the public code of each source
// writes them (docs/evaluation.md#prompt-styles names each commit and what it leaves out):
//  - `kIbm2025`: IBM's I-RAVEN / I-RAVEN-X code (IBM/raven-large-language-models 5b3c5e4, Mar
//    2025, `rpm_dataset.RPM` and `Solver_disc`): the query is the prefix, the matrix, "\nAnswer
//    set:\n" and the "Answer #k: ..." lines; the system prompt is "Complete the Raven's progressive
//    matrix:". Offsets (+2 Type, +1 Size) and scaling (Size / 10, Color * 10, Angle * 100) can be
//    switched off, `rows_shown` shows the last K rows relabelled from 1, confounders follow the
//    three attributes, and `uncertainty` writes each value as IBM's "<p::v-1,p::v,p::v+1>" with
//    p ~ U[u, 1] drawn from numpy's stream seeded per problem (numpy_random.hpp).
//  - `kIbm2024`: the same repository's first version (2ada9bb, Dec 2024): offsets and scaling
//    always on, no confounders or uncertainty, "\nSelect the correct Answer from the following
//    list\n" ... "\nCorrect Answer #" ("\nSolution: The correct answer is Answer #" per attribute).
//  - `kLmRaven`: lm-raven (hxiaoyang/lm-raven 500e6f7, Hu et al. ACL 2023, `inference.py`): no
//    multiple-choice text: the context after "let's think step by step. " and one prompt per
//    candidate (context + candidate + ";", no ";" with one row), rows_shown 1, 2 or 3 (of 3x3
//    matrices in its code; an N x N one gets N cells a row here, an extension).
// An entity is the tuple of its values; a grid component is its cells in row-major order ("-" when
// empty); two components are joined as "A x / B y" (beyond IBM's 3x3, 3-row template for them,
// rave writes their rows as for one component: an extension, docs/evaluation.md#prompt-styles). The
// disentangled form has one prompt per component and branch (type, size, color, angle, confounderK,
// layout, number, master), the branches of the source's `Component`.
// `classmode` is IBM's: `kDisc` (`Solver_disc`, above) or `kPred` (`Solver_pred._merge` /
// `_split`, the protocol of every model config IBM ships): a generative query, the prefix and the
// context with no answer set, "(" after it in the entangled query and on the master branch; the
// model writes the missing panel's numbers, matched to the candidates afterwards. Its RPM is built
// without nconf or uncertainty, so it shows no confounders and takes no uncertain values.
//
//   TextOptions o{.style = PromptStyle::kIbm2025, .offset = false};
//   TextPrompt t = entangled_prompt(problem, o);
//   send(t.system, t.prompt);                   // IBM: the model answers "Answer #k"
//   for (auto& p : t.choice_prompts) score(p);  // lm-raven: one log-probability per candidate
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::evaluation {

/// Whose code a prompt reproduces.
enum class PromptStyle { kIbm2025, kIbm2024, kLmRaven };
std::string_view style_name(PromptStyle style);  ///< "ibm-2025", "ibm-2024", "lm-raven"
std::optional<PromptStyle> parse_style(std::string_view name);

/// IBM's `classmode`: which of its solvers sends the query (ibm styles only).
enum class ClassMode { kDisc, kPred };
std::string_view classmode_name(ClassMode mode);  ///< "disc", "pred"
std::optional<ClassMode> parse_classmode(std::string_view name);

/// Switches of the text forms (the sources' own parameters, named as they name them).
struct TextOptions {
  PromptStyle style = PromptStyle::kIbm2025;
  int rows_shown = 3;   ///< IBM's `nshow`, lm-raven's `n`: the last K rows; 0 = all N
  bool offset = true;   ///< IBM's `offset`: Type + 2, Size + 1
  bool scaling = true;  ///< IBM's `scaling`: Size / 10, Color * 10, Angle * 100
  bool angle = false;   ///< `add_angle`: Angle after Color, and an `angle` branch
  /// IBM's `uncertainty` u: every value of the entangled form as a distribution, p ~ U[u, 1].
  std::optional<double> uncertainty = {};
  int uncertainty_range = 0;               ///< IBM's `maxval_uncert`; 0 = the problem's values
  std::uint32_t uncertainty_seed = 0;      ///< numpy's seed for this problem's draws
  std::optional<std::string> prefix = {};  ///< the style's own when unset
  ClassMode classmode = ClassMode::kDisc;  ///< IBM's: pred = Solver_pred's generative query
};

/// Throws UsageError when the options are outside what the style's code takes (naming the
/// option); `problem` is checked too when given (matrix size, two components).
void check_text_options(const TextOptions& options, const engine::Problem* problem = nullptr);
/// The prefix the style's code puts before the matrix.
std::string_view default_prefix(PromptStyle style);
/// IBM's system prompt ("" for lm-raven).
std::string_view system_prompt(PromptStyle style);

/// One prompt: the open matrix, the candidates, and what a model is sent.
struct TextPrompt {
  std::string context;               ///< "row 1: a, b, c; row 2: d, e, f; row 3: g, h, "
  std::vector<std::string> choices;  ///< one text per candidate, in candidate order
  std::string prompt;  ///< IBM: the whole query (prefix, matrix, answer set; pred: no answer set)
  std::vector<std::string> choice_prompts;  ///< lm-raven: prefix + context + choice (+ ";")
};

/// One sub-prompt of the disentangled form.
struct AttributePrompt {
  std::string component;  ///< the component's name ("Grid", "Left", "Out", ...)
  std::string attribute;  ///< the source's branch: "type", ..., "confounder0", ..., "master"
  TextPrompt text;
};

/// The entangled prompt of a problem (all attributes of all components per panel).
TextPrompt entangled_prompt(const engine::Problem& problem, const TextOptions& options);
/// The disentangled prompts: per component, one per branch.
std::vector<AttributePrompt> disentangled_prompts(const engine::Problem& problem,
                                                  const TextOptions& options);

}  // namespace rave::evaluation
