#pragma once
// Answer-set builders (docs/answer-sets.md, docs/answer-sets.md#i-raven-attribute-bisection-tree,
// docs/answer-sets.md#raven-fair-a-random-tree), pluggable over the same sampled matrix: they
// differ only after row 3 col 3 is fixed.
//  - kRaven: the original star around the answer (each distractor changes one attribute entry),
//    including its known bias (the answer is the candidates' mode).
//  - kIRaven: I-RAVEN's attribute bisection tree (3 levels -> 8 candidates at cube vertices).
//  - kFair: RAVEN-FAIR's random tree with rejection of accidentally valid or identical candidates.
//  - kBalanced: an exchangeable answer (docs/answer-sets.md#balanced-an-exchangeable-answer): the
//    cube of I-RAVEN's shape whose other values come from replicas of the answer (the matrix
//    sampled again under its rules), grouped so that the answer is a uniformly random candidate to
//    anything that sees the candidates alone. I-RAVEN's and RAVEN-FAIR's variants
//    (Matrix::balanced_answers) are built the same way, in their own shapes; the 3x3 originals
//    stay the originals' byte for byte.
//
// RAVEN-FAIR compares candidates by their images; the drawing comes from the caller
// (engine/render's render_panel, as generate_problem passes it), so the answer sets need no
// renderer of their own. The builders work on the matrix's last panel whatever the matrix side
// (docs/variants.md).
//
//   AnswerSet set = build_answer_set(matrix, AnswerStrategy::kIRaven, rng);
//   AnswerSet fair = build_answer_set(matrix, AnswerStrategy::kFair, rng, render_panel);
//   set.candidates[set.target] == matrix.answer();
#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/model/image.hpp"
#include "engine/rules/matrix.hpp"

namespace rave::engine {

enum class AnswerStrategy { kRaven, kIRaven, kFair, kBalanced };

/// "raven", "iraven", "fair", "balanced".
std::string_view strategy_name(AnswerStrategy strategy);
/// The strategy with that name (exact spelling as strategy_name), nullopt otherwise.
std::optional<AnswerStrategy> parse_strategy(std::string_view name);
/// parse_strategy, or UsageError "unknown answer-set strategy '<name>'; known: raven, iraven,
/// fair, balanced".
AnswerStrategy strategy_named(std::string_view name);

/// Eight shuffled candidates, the answer's index, and (I-RAVEN) each candidate's modifications.
struct AnswerSet {
  std::array<Panel, kCandidates> candidates;
  int target = 0;
  /// I-RAVEN only: per candidate (shuffled order), the (component, attribute) changes applied on
  /// its path from the answer, in order of application (XML `Modified_attributes`).
  std::optional<std::array<std::vector<Modification>, kCandidates>> modified;
  /// RAVEN-FAIR only: modification attempts that were dropped (no value left, accidentally valid
  /// under the original solver, or rendered like an existing candidate).
  int rejected = 0;
  /// An exchangeable set was asked for (kBalanced, or a variant's I-RAVEN or RAVEN-FAIR) and the
  /// answer's replicas offered none: built as the strategy's variant was before (a rare case whose
  /// answer is not exchangeable; docs/answer-sets.md#balanced-an-exchangeable-answer).
  bool fell_back = false;
  /// An exchangeable set whose replicas were drawn under rules drawn afresh within the classes of
  /// the matrix's own, because the pools under its own rules offered no shape.
  bool fresh_rules = false;
  /// Matrices drawn and put back before this one because a pool under their own rules offered no
  /// shape (generate_problem), and how many of their rule draws were put back with them.
  int matrix_redraws = 0;
  int rule_redraws = 0;
};

/// How a panel looks: RAVEN-FAIR rejects a candidate drawn like an existing one.
using PanelImageFn = Image (*)(ConfigId config, const Panel& panel);

/// Builds the candidates for `matrix` with one strategy, drawing only from `rng`; kFair compares
/// candidates by `draw`'s images, or by their symbols (entities by slot) when `draw` is null (a
/// variant whose levels have no drawing, or are mapped to file levels afterwards); the others
/// ignore it. Every rejection loop is bounded; running out of tries throws
/// std::logic_error (a bug, never seen on valid matrices). Always checked on return:
/// candidates[target] == matrix.answer(), no other candidate equals it, and no two candidates are
/// equal.
AnswerSet build_answer_set(const Matrix& matrix, AnswerStrategy strategy, Rng& rng,
                           PanelImageFn draw = nullptr);

/// Whether `strategy` builds an exchangeable set for `matrix`: kBalanced, and kIRaven and kFair on
/// a variant's matrix (`balanced_answers`; docs/answer-sets.md#balanced-an-exchangeable-answer).
bool draws_exchangeably(const Matrix& matrix, AnswerStrategy strategy);

/// For draws_exchangeably: the set from one pool of replicas under the matrix's own rules, or
/// nullopt when that pool offers no shape. The generator then draws another matrix rather than
/// another pool: the answer of a second pool would be conditioned on the first one's failure while
/// its replicas are not, so only a set from a matrix's first pool is exchangeable by construction.
/// Checked as build_answer_set's.
std::optional<AnswerSet> own_rule_answer_set(const Matrix& matrix, AnswerStrategy strategy,
                                             Rng& rng);

/// generate_problem's draws for an exchangeable set: matrices under one draw of rules, and draws of
/// rules, before it builds the last matrix's set with build_answer_set (pools under fresh rules,
/// then the fallback).
inline constexpr int kValueDraws = 8;
inline constexpr int kRuleDraws = 8;

}  // namespace rave::engine
