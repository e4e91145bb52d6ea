#pragma once
// Problems as text prompts for language models, in the convention of lm-raven (Hu et al., ACL 2023)
// and IBM's I-RAVEN / I-RAVEN-X code (Hersche, Camposampiero et al.), docs/evaluation.md:
//  - an entity is the tuple (Type + 2, (Size + 1) / 10, Color * 10) of its levels (Type + 2 is the
//    triangle's 3 corners up to the circle's 7; with `angle`, Angle * 100 is appended);
//  - a single-slot component is its entity; a multi-slot component is the list of its grid cells in
//    row-major order, `-` for an empty cell; several components are joined as "A x / B y";
//  - the matrix is "row 1: p1, p2, p3; row 2: ...; row 3: p7, p8, " (the last cell left open) and
//  the
//    candidates are "Answer #0: ..." lines.
// The disentangled form has one prompt per component and attribute: Type, Size and Color levels as
// plain integers (Type + 2, Size + 1, Color), for grids the sorted distinct values, the occupancy
// `layout` list and the `number` of entities. Panel counts come from the problem (an N x N matrix
// has N * N - 1 context panels) and grids from the configuration's slot table, so larger variants
// need no change here.
//
//   TextPrompt t = entangled_prompt(problem, {});
//   send(t.prompt);                              // multiple choice: the model names "Answer #k"
//   for (auto& c : t.choices) score(t.context + c + ";");   // single-candidate protocol (lm-raven)
#include <string>
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::evaluation {

/// Switches of the text form.
struct TextOptions {
  bool angle = false;  ///< append Angle (level * 100) to each entity, and an `angle` sub-prompt
  double smooth =
      1.0;  ///< `--smooth P`: Type, Size, Color as distributions (smooth.hpp); 1 = the true levels
};

/// One prompt: the open matrix, the candidates and the whole multiple-choice text.
struct TextPrompt {
  std::string context;               ///< "row 1: a, b, c; row 2: d, e, f; row 3: g, h, "
  std::vector<std::string> choices;  ///< one text per candidate, in candidate order
  std::string prompt;                ///< context, the numbered answers, and "Correct Answer #"
};

/// One sub-prompt of the disentangled form.
struct AttributePrompt {
  std::string component;  ///< the component's name ("Grid", "Left", "Out", ...)
  std::string attribute;  ///< "type", "size", "color", "angle", "layout" or "number"
  TextPrompt text;
};

/// The entangled prompt of a problem (all attributes of all components per panel).
TextPrompt entangled_prompt(const engine::Problem& problem, const TextOptions& options);
/// The disentangled prompts: per component, one per attribute (grids add `layout` and `number`).
std::vector<AttributePrompt> disentangled_prompts(const engine::Problem& problem,
                                                  const TextOptions& options);

}  // namespace rave::evaluation
