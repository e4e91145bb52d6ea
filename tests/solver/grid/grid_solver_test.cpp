// The grid solver (solver/grid/grid_solver.hpp) on problems rave generates: N x N matrices, wide
// value ranges, confounders and value regimes in every configuration with every answer strategy.
// The answer is always among the consistent candidates (the rules hold on every row), a unique
// verdict is always the answer, the rules in the file are never read, and on 3x3 problems it agrees
// with the 3x3 heuristic about the answer.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "engine/generate.hpp"
#include "solver/grid/grid_solver.hpp"
#include "solver/heuristic.hpp"
#include "solver/solver.hpp"
#include "solver/z3_backend.hpp"

namespace rave::solver {
namespace {

using engine::AnswerStrategy;
using engine::ConfigId;
using engine::Variant;

constexpr std::array<AnswerStrategy, 3> kStrategies{AnswerStrategy::kRaven, AnswerStrategy::kIRaven,
                                                    AnswerStrategy::kFair};

struct Tally {
  int problems = 0, unique = 0, correct = 0;
};

// Solves `per_config` problems of every configuration and strategy under `variant`; every answer
// must be consistent, and a unique verdict must be the answer.
Tally solve_all(const Variant& variant, engine::Split split, int per_config) {
  GridSolver solver;
  Tally t;
  for (int c = 0; c < engine::kNumConfigs; ++c)
    for (AnswerStrategy strategy : kStrategies)
      for (int k = 0; k < per_config; ++k) {
        const auto id = static_cast<ConfigId>(c);
        const engine::Problem p = engine::generate_problem(
            id, strategy, 5, static_cast<std::uint64_t>(k), variant, split);
        const Solution s = solver.solve(p);
        const std::string where = std::string(engine::configuration(id).folder) + " " +
                                  std::string(engine::strategy_name(strategy)) + " k " +
                                  std::to_string(k);
        EXPECT_TRUE((s.consistent >> *p.target) & 1u) << where << ": the answer is not consistent";
        if (s.verdict == Verdict::kUnique) {
          EXPECT_EQ(s.answer, p.target) << where;
        }
        EXPECT_GT(solver.reading(*p.target).count, 0) << where;
        ++t.problems;
        t.unique += s.verdict == Verdict::kUnique;
        t.correct += s.answer == p.target;
      }
  return t;
}

TEST(GridSolver, LargeGridsKeepTheAnswerConsistent) {
  for (int grid : {4, 5, 10}) {
    const Tally t = solve_all(Variant{.grid = grid}, engine::Split::kTrain, 3);
    EXPECT_GT(t.correct, t.problems * 9 / 10) << "grid " << grid;
  }
}

TEST(GridSolver, WideValuesConfoundersAndRegimes) {
  solve_all(Variant{.grid = 5, .values = 100}, engine::Split::kTrain, 2);
  solve_all(Variant{.values = 1000, .confounders = 5}, engine::Split::kTrain, 2);
  for (engine::Split split : {engine::Split::kTrain, engine::Split::kTest}) {
    solve_all(Variant{.regime = engine::Regime::kInterpolation}, split, 2);
    solve_all(Variant{.grid = 4, .regime = engine::Regime::kExtrapolation}, split, 2);
  }
}

// The 3x3 originals read by the grid solver: the answer is consistent and, where the heuristic's
// verdict is unique, the grid solver picks the same candidate.
TEST(GridSolver, AgreesWithTheHeuristicOnOriginalProblems) {
  GridSolver grid;
  HeuristicSolver heuristic;
  int agree = 0, unique = 0;
  for (int c = 0; c < engine::kNumConfigs; ++c)
    for (AnswerStrategy strategy : kStrategies)
      for (std::uint64_t k = 0; k < 4; ++k) {
        const engine::Problem p =
            engine::generate_problem(static_cast<ConfigId>(c), strategy, 9, k);
        const Solution g = grid.solve(p), h = heuristic.solve(p);
        EXPECT_TRUE((g.consistent >> *p.target) & 1u)
            << engine::configuration(p.config).folder << " k " << k;
        if (h.verdict != Verdict::kUnique) continue;
        ++unique;
        agree += g.answer == h.answer;
      }
  EXPECT_GT(agree, unique * 9 / 10);
}

TEST(GridSolver, NeverReadsTheRulesUnlessTold) {
  const engine::Problem p =
      engine::generate_problem(ConfigId::kDistributeNine, AnswerStrategy::kIRaven, 3, 1,
                               Variant{.grid = 5}, engine::Split::kTrain);
  engine::Problem blind = p;
  blind.rules.clear();
  GridSolver solver;
  const Solution a = solver.solve(p), b = solver.solve(blind);
  EXPECT_EQ(a.consistent, b.consistent);
  EXPECT_EQ(a.answer, b.answer);
  GridSolver told({.use_rules = true});
  EXPECT_TRUE((told.solve(p).consistent >> *p.target) & 1u);
  EXPECT_THROW(told.solve(blind), InputError);
}

// Z3 decides N x N problems from the same rule checks: the same consistent sets, verdicts and,
// where several candidates compete, the same first choice (it maximises what the heuristic ranks
// by).
TEST(GridSolver, Z3ProvesTheSameConsistentSets) {
  GridSolver grid;
  Z3Solver z3;
  int ambiguous = 0;
  for (int c = 0; c < engine::kNumConfigs; ++c)
    for (AnswerStrategy strategy : kStrategies)
      for (std::uint64_t k = 0; k < 3; ++k) {
        const engine::Problem p =
            engine::generate_problem(static_cast<ConfigId>(c), strategy, 8, k,
                                     Variant{.grid = 4, .values = 20}, engine::Split::kTrain);
        const Solution g = grid.solve(p), z = z3.solve(p);
        EXPECT_EQ(z.consistent, g.consistent)
            << engine::configuration(p.config).folder << " k " << k;
        EXPECT_EQ(z.verdict, g.verdict);
        EXPECT_EQ(z.answer, g.answer);
        EXPECT_GT(z3.checks(), 0);
        if (z.answer) {
          EXPECT_EQ(z3.reading(*z.answer).count, static_cast<int>(p.context[0].components.size()));
        }
        ambiguous += z.verdict == Verdict::kAmbiguous;
      }
  RecordProperty("ambiguous", ambiguous);
}

TEST(GridSolver, BothBackendsReadVariants) {
  const engine::Problem p =
      engine::generate_problem(ConfigId::kLeftRight, AnswerStrategy::kRaven, 3, 2,
                               Variant{.grid = 6, .values = 50}, engine::Split::kTrain);
  EXPECT_TRUE(needs_grid_solver(p));
  EXPECT_FALSE(needs_grid_solver(
      engine::generate_problem(ConfigId::kLeftRight, AnswerStrategy::kRaven, 3, 2)));
  for (Backend backend : {Backend::kHeuristic, Backend::kZ3}) {
    Solver solver(backend);
    const Solution s = solver.solve(p);
    EXPECT_TRUE((s.consistent >> *p.target) & 1u) << backend_name(backend);
    EXPECT_GT(solver.reading(*p.target).count, 0);
  }
  HeuristicSolver heuristic;  // every user of the heuristic backend reads variants too
  EXPECT_EQ(heuristic.solve(p).consistent, GridSolver().solve(p).consistent);
  EXPECT_GT(heuristic.reading(*p.target).count, 0);
}

}  // namespace
}  // namespace rave::solver
