// The solver sees what a picture shows and nothing else (issue: order-free abduction). On the
// problems made by the original generators and on rave's own, each of these leaves the answer (up
// to the renumbering of the candidates), the verdict, the consistent set and every score as they
// were: entities shuffled within panels, entities in slot order, candidates permuted, the Rules
// element removed, Uniformity levels rewritten, the file renamed. And the solver never reads the
// target: erasing it (and predict, and I-RAVEN's modification lists) changes nothing either.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>

#include "common/atomic_file.hpp"
#include "common/random.hpp"
#include "engine/encode.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/generate.hpp"
#include "solver/solver.hpp"
#include "tests/support/test_support.hpp"

namespace rave::solver {
namespace {

using engine::Problem;
using Permutation = std::array<int, 8>;  // new candidate k is old candidate perm[k]

constexpr Permutation kIdentity{0, 1, 2, 3, 4, 5, 6, 7};

void for_each_component(Problem& p, const std::function<void(engine::ComponentPanel&)>& f) {
  for (int i = 0; i < 16; ++i)
    for (auto& component : p.panel(i).components) f(component);
}

Problem shuffled_entities(Problem p, Rng& rng) {
  for_each_component(
      p, [&](engine::ComponentPanel& c) { rng.shuffle(std::span<engine::Entity>(c.entities)); });
  return p;
}

Problem slot_order(Problem p) {
  for_each_component(p, [](engine::ComponentPanel& c) {
    std::sort(c.entities.begin(), c.entities.end(),
              [](const auto& a, const auto& b) { return a.slot < b.slot; });
  });
  return p;
}

Problem uniformity_rewritten(Problem p, Rng& rng) {
  const int level = rng.below(4);
  for_each_component(p, [&](engine::ComponentPanel& c) { c.uniformity = level; });
  return p;
}

Problem without_rules(Problem p) {
  p.rules.clear();
  return p;
}

Problem without_answer_key(Problem p) {
  p.target.reset();
  p.predict.reset();
  p.modified.reset();
  return p;
}

Problem permuted(const Problem& p, const Permutation& perm) {
  Problem out = p;
  for (int k = 0; k < 8; ++k) {
    out.candidates[k] = p.candidates[perm[k]];
    if (p.modified) (*out.modified)[k] = (*p.modified)[perm[k]];
    if (p.target && perm[k] == *p.target) out.target = k;
  }
  return out;
}

Permutation random_permutation(Rng& rng) {
  Permutation perm = kIdentity;
  rng.shuffle(std::span<int>(perm));
  return perm;
}

// `got` solved the problem with candidates permuted by `perm`; `want` solved the original.
void expect_same(const Solution& want, const Solution& got, const Permutation& perm,
                 const std::string& what) {
  EXPECT_EQ(got.verdict, want.verdict) << what;
  ASSERT_EQ(got.answer.has_value(), want.answer.has_value()) << what;
  if (want.answer) {
    EXPECT_EQ(perm[*got.answer], *want.answer) << what;
  }
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ((got.consistent >> k) & 1u, (want.consistent >> perm[k]) & 1u)
        << what << " candidate " << k;
    EXPECT_EQ(got.log_score[k], want.log_score[perm[k]]) << what << " candidate " << k;
  }
}

// Solves `p` and every variant with `solver`; returns the original's solution.
Solution expect_invariant(Solver& solver, const Problem& p, Rng& rng, const std::string& name) {
  const Solution want = solver.solve(p);
  expect_same(want, solver.solve(shuffled_entities(p, rng)), kIdentity,
              name + " entities shuffled");
  expect_same(want, solver.solve(slot_order(p)), kIdentity, name + " entities in slot order");
  expect_same(want, solver.solve(without_rules(p)), kIdentity, name + " without Rules");
  expect_same(want, solver.solve(uniformity_rewritten(p, rng)), kIdentity,
              name + " Uniformity rewritten");
  expect_same(want, solver.solve(without_answer_key(p)), kIdentity, name + " target erased");
  const Permutation perm = random_permutation(rng);
  const Problem moved = shuffled_entities(permuted(p, perm), rng);
  expect_same(want, solver.solve(moved), perm, name + " candidates permuted");
  return want;
}

struct Tally {
  int problems = 0, correct = 0, ambiguous = 0;
};

// The fixture XMLs of one reference set, targets from its manifest.
Tally check_reference(const std::string& set, Backend backend) {
  Tally t;
  Solver solver(backend);
  Rng rng(31);
  for (const auto& ref : testing::reference_problems(set)) {
    Problem p = engine::read_problem(ref.xml, engine::TargetSource::kNone);
    p.target = ref.target;
    const Solution s = expect_invariant(solver, p, rng, ref.xml.string());
    ++t.problems;
    t.correct += s.answer == p.target;
    t.ambiguous += s.verdict == Verdict::kAmbiguous;
  }
  return t;
}

class ReferenceInvariance : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceInvariance, HeuristicAnswersEveryVariantAlikeAndCorrectly) {
  const Tally t = check_reference(GetParam(), Backend::kHeuristic);
  EXPECT_GE(t.problems, 35);
  EXPECT_EQ(t.correct, t.problems);
}

TEST_P(ReferenceInvariance, Z3AnswersEveryVariantAlikeAndCorrectly) {
  const Tally t = check_reference(GetParam(), Backend::kZ3);
  EXPECT_GE(t.problems, 35);
  EXPECT_EQ(t.correct, t.problems);
}

// A renamed file (no npz beside it, so no target) is solved exactly as the original.
TEST_P(ReferenceInvariance, RenamedFilesAreSolvedAlike) {
  const auto scratch = testing::scratch_dir("renamed");
  Solver solver;
  int k = 0;
  for (const auto& ref : testing::reference_problems(GetParam())) {
    const std::filesystem::path& file = ref.xml;
    const Problem p = engine::read_problem(file);
    const auto renamed = scratch / ("problem " + std::to_string(k++) + ".xml");
    write_file_atomic(renamed, engine::write_problem_xml(p));
    const Problem again = engine::read_problem(renamed);
    expect_same(solver.solve(p), solver.solve(again), kIdentity, file.string() + " renamed");
  }
  EXPECT_GE(k, 35);
}

INSTANTIATE_TEST_SUITE_P(Reference, ReferenceInvariance,
                         ::testing::Values("raven", "iraven", "fair"),
                         [](const auto& info) { return std::string(info.param); });

// The same on rave's own problems, every configuration and answer strategy, rules told or not.
TEST(GeneratedInvariance, EveryVariantIsSolvedAlike) {
  Rng rng(5);
  for (bool use_rules : {false, true}) {
    Solver solver(Backend::kHeuristic, {.use_rules = use_rules});
    for (auto strategy : {engine::AnswerStrategy::kRaven, engine::AnswerStrategy::kIRaven,
                          engine::AnswerStrategy::kFair})
      for (int c = 0; c < engine::kNumConfigs; ++c)
        for (std::uint64_t k = 0; k < 20; ++k) {
          const Problem p =
              engine::generate_problem(static_cast<engine::ConfigId>(c), strategy, 99, k);
          const std::string name =
              std::string(engine::configuration(p.config).folder) + " " + std::to_string(k);
          if (!use_rules) {
            expect_invariant(solver, p, rng, name);
            continue;
          }
          const Solution want = solver.solve(p);  // rules kept: every other variant
          expect_same(want, solver.solve(shuffled_entities(p, rng)), kIdentity,
                      name + " shuffled, rules told");
          const Permutation perm = random_permutation(rng);
          expect_same(want, solver.solve(permuted(p, perm)), perm, name + " permuted, rules told");
          expect_same(want, solver.solve(without_answer_key(p)), kIdentity,
                      name + " target erased, rules told");
        }
  }
}

// Told to use the rules of a problem that has none: a clear error, not a silent rule-free solve.
TEST(GeneratedInvariance, UsingUnknownRulesIsAnInputError) {
  const Problem p = without_rules(engine::generate_problem(engine::ConfigId::kCenterSingle,
                                                           engine::AnswerStrategy::kRaven, 1, 0));
  for (Backend backend : {Backend::kHeuristic, Backend::kZ3}) {
    Solver solver(backend, {.use_rules = true});
    try {
      solver.solve(p);
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_EQ(e.place(), "Data/Rules");
      EXPECT_NE(std::string(e.what()).find("unknown"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace rave::solver
