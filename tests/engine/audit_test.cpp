// The context-blind audit (docs/answer-sets.md#the-context-blind-shortcut): the rule on hand-made
// candidate sets, then its accuracy on generated answer sets of each strategy (RAVEN ~98%, I-RAVEN
// ~1/8, RAVEN-FAIR low).
#include "engine/audit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "engine/answers/answer_set.hpp"
#include "engine/generate.hpp"
#include "engine/model/configuration.hpp"
#include "engine/render/render.hpp"
#include "tests/engine/support/answer_support.hpp"
#include "tests/engine/support/reference_support.hpp"

namespace rave::engine {
namespace {

Panel one_entity(int slot, int type, int size, int color, int angle = 3) {
  return Panel{{ComponentPanel{
      0, {Entity{.slot = slot, .type = type, .size = size, .color = color, .angle = angle}}}}};
}

TEST(SharedValues, CountsNumberSlotSetAndTuplesPerComponent) {
  const Panel a{
      {ComponentPanel{0,
                      {Entity{.slot = 0, .type = 1, .size = 2, .color = 3, .angle = 0},
                       Entity{.slot = 2, .type = 4, .size = 2, .color = 3, .angle = 5}}}}};
  Panel b = a;
  EXPECT_EQ(shared_values(a, b), 5);
  std::swap(b.components[0].entities[0].slot, b.components[0].entities[1].slot);
  EXPECT_EQ(shared_values(a, b), 5);  // the slot *set* is compared; angles never count
  b.components[0].entities[1].type = 5;
  EXPECT_EQ(shared_values(a, b), 4);
  b.components[0].entities.pop_back();
  EXPECT_EQ(shared_values(a, b), 0);  // count, set and every tuple now differ
  const Panel two{{a.components[0], a.components[0]}};
  EXPECT_EQ(shared_values(two, two), 10);
  EXPECT_EQ(shared_values(two, a), 5);  // compared up to the smaller component count
}

TEST(ContextBlindChoice, FindsTheCentreOfAStar) {
  std::array<Panel, 8> c;
  c.fill(one_entity(0, 3, 3, 3));
  c[0] = one_entity(0, 1, 3, 3);
  c[1] = one_entity(0, 3, 1, 3);
  c[2] = one_entity(0, 3, 3, 1);
  c[3] = one_entity(0, 4, 3, 3);
  c[4] = one_entity(0, 3, 4, 3);
  c[6] = one_entity(0, 3, 3, 4);
  c[7] = one_entity(0, 5, 3, 3);
  EXPECT_EQ(context_blind_choice(c), 5);
  const auto scores = context_blind_scores(c);
  EXPECT_EQ(scores[5], 7 * 4);  // 3 attributes + Number + slot set, minus the changed one
  // c0 (Type 1): Number + slot set with all 7, plus Size and Color with the other two Type
  // distractors and the centre, one of the two with the remaining four: 14 + 3 * 2 + 4 * 1.
  EXPECT_EQ(scores[0], 14 + 6 + 4);
}

TEST(ContextBlindChoice, BreaksTiesTowardTheLowestIndex) {
  std::array<Panel, 8> c;
  for (int i = 0; i < 8; ++i) c[static_cast<std::size_t>(i)] = one_entity(0, 1 + i % 5, i % 6, i);
  const auto scores = context_blind_scores(c);
  const int best = *std::max_element(scores.begin(), scores.end());
  const int first =
      static_cast<int>(std::find(scores.begin(), scores.end(), best) - scores.begin());
  EXPECT_EQ(context_blind_choice(c), first);
  c.fill(one_entity(0, 3, 3, 3));
  EXPECT_EQ(context_blind_choice(c), 0);
}

TEST(ContextBlindAudit, SkipsProblemsWithoutTargetAndSplitsByConfiguration) {
  std::array<Panel, 8> c;
  c.fill(one_entity(0, 3, 3, 3));
  c[2] = one_entity(0, 1, 3, 3);
  Problem hit, miss, unknown;
  hit.candidates = miss.candidates = unknown.candidates = c;
  hit.target = 0;
  miss.target = 2;
  miss.config = ConfigId::kUpDown;
  const std::vector<Problem> problems{hit, miss, unknown};
  const BlindAudit audit = context_blind_audit(problems);
  EXPECT_EQ(audit.problems, 2);
  EXPECT_EQ(audit.hits, 1);
  EXPECT_DOUBLE_EQ(audit.accuracy(), 0.5);
  const auto by = context_blind_audit_by_config(problems);
  EXPECT_EQ(by[0].hits, 1);
  EXPECT_EQ(by[static_cast<std::size_t>(config_index(ConfigId::kUpDown))].problems, 1);
  EXPECT_EQ(by[static_cast<std::size_t>(config_index(ConfigId::kUpDown))].hits, 0);
  EXPECT_EQ(context_blind_audit({}).accuracy(), 0.0);
}

// Generated problems: `per_config` of each configuration, answer sets from one strategy.
std::vector<Problem> generated(AnswerStrategy strategy, int per_config, std::uint64_t seed) {
  std::vector<Problem> out;
  for (const Configuration& config : all_configurations()) {
    int k = 0;
    for (const Matrix& m : testing::sample_matrices(config.id, per_config, seed)) {
      Rng rng =
          Rng::for_problem(seed + 1, config_index(config.id), static_cast<std::uint64_t>(k++));
      AnswerSet set = build_answer_set(m, strategy, rng, render_panel);
      Problem p;
      p.config = m.config;
      p.candidates = std::move(set.candidates);
      p.target = set.target;
      out.push_back(std::move(p));
    }
  }
  return out;
}

// Runs the audit, prints overall and per-configuration accuracy, records it as a test property.
double audit_and_report(AnswerStrategy strategy, const std::vector<Problem>& problems) {
  const BlindAudit all = context_blind_audit(problems);
  const auto by = context_blind_audit_by_config(problems);
  std::ostringstream line;
  line << std::fixed << std::setprecision(1) << "context-blind audit, " << strategy_name(strategy)
       << ": " << 100 * all.accuracy() << "% of " << all.problems << " (";
  for (const Configuration& config : all_configurations()) {
    const BlindAudit& a = by[static_cast<std::size_t>(config_index(config.id))];
    line << config.paper_name << " " << 100 * a.accuracy() << "%"
         << (config.id == ConfigId::kOutInGrid ? ")" : ", ");
  }
  std::cout << line.str() << "\n";
  ::testing::Test::RecordProperty(
      std::string("blind_accuracy_") + std::string(strategy_name(strategy)), line.str());
  return all.accuracy();
}

TEST(ContextBlindAudit, RavenAnswerSetsGiveTheAnswerAway) {
  const auto problems = generated(AnswerStrategy::kRaven, 40, 2024);    // 280 problems
  EXPECT_GE(audit_and_report(AnswerStrategy::kRaven, problems), 0.93);  // spec: 98.5%
}

TEST(ContextBlindAudit, IRavenAnswerSetsAreAtChance) {
  const auto problems = generated(AnswerStrategy::kIRaven, 40, 2024);  // 280 problems
  // Chance is 1/8; 280 problems: sigma = 2.0%, so [5%, 20%] is about +-3.7 sigma.
  const double accuracy = audit_and_report(AnswerStrategy::kIRaven, problems);
  EXPECT_GE(accuracy, 0.05);
  EXPECT_LE(accuracy, 0.20);
}

TEST(ContextBlindAudit, FairAnswerSetsAreFarBelowRaven) {
  const auto problems = generated(AnswerStrategy::kFair, 30, 2024);    // 210 problems
  EXPECT_LT(audit_and_report(AnswerStrategy::kFair, problems), 0.40);  // spec: 23.9%
}

// The original generators' own files (70 RAVEN, 35 I-RAVEN, 35 RAVEN-FAIR problems,
// tests/fixtures).
TEST(ContextBlindAudit, ReferenceCorporaShowTheSameBias) {
  const auto report = [](const char* set) {
    const BlindAudit a = context_blind_audit(testing::read_reference_problems(set));
    std::cout << "context-blind audit, " << set << " reference: " << std::fixed
              << std::setprecision(1) << 100 * a.accuracy() << "% of " << a.problems << "\n";
    ::testing::Test::RecordProperty(std::string("blind_accuracy_reference_") + set,
                                    std::to_string(a.accuracy()));
    return a.accuracy();
  };
  EXPECT_GE(report("raven"), 0.85);   // expected ~98%: P(< 85% of 70) is tiny
  EXPECT_LE(report("iraven"), 0.35);  // expected 1/8 of 35: 4.4 +- 2 hits
  EXPECT_LE(report("fair"), 0.50);    // expected ~24% of 35
}

// "Values seen in the context": the candidate whose levels the context shows most, ties split.
TEST(ValuesSeen, PicksTheCandidateTheContextShowsAndSplitsTies) {
  Problem p;
  for (Panel& c : p.context) c = one_entity(0, 3, 2, 7);
  for (Panel& c : p.candidates) c = one_entity(0, 4, 2, 1);  // one of three levels seen
  p.candidates[5] = one_entity(0, 3, 2, 7);                  // all three seen
  p.target = 5;
  EXPECT_EQ(values_seen_shares(p)[5].seen, 3);
  EXPECT_EQ(values_seen_shares(p)[0].seen, 1);
  EXPECT_DOUBLE_EQ(values_seen_credit(p), 1.0);
  p.target = 2;
  EXPECT_DOUBLE_EQ(values_seen_credit(p), 0.0);
  p.candidates[5] = one_entity(0, 4, 2, 1);  // all alike: an eighth each
  EXPECT_DOUBLE_EQ(values_seen_credit(p), 1.0 / 8);
  p.target.reset();
  EXPECT_DOUBLE_EQ(values_seen_credit(p), 0.0);
}

// A variant's answer sets (Matrix::balanced_answers): I-RAVEN's and RAVEN-FAIR's at chance under
// both audits, where the originals' draws gave 49% and 60% (values seen, --values 1000) and 26%
// (RAVEN-FAIR's context-blind). 7 x 30 problems per case; chance 12.5%, sigma 2.3%. At 10 x 10 on
// the original tables (10 levels or fewer over 100 panels) the context shows most levels, so a
// value seen is weak evidence and the rule reads 17.5-20.1% (700 problems, seed 77; rave 0.4.0
// read 18.6-18.9% there): its bound is 22%.
TEST(ValuesSeen, VariantAnswerSetsShowNeitherShortcut) {
  for (const Variant& v : {Variant{.grid = 4, .values = 1000}, Variant{.grid = 10}}) {
    for (const AnswerStrategy strategy : {AnswerStrategy::kIRaven, AnswerStrategy::kFair}) {
      double seen = 0;
      int blind = 0, problems = 0;
      for (const Configuration& config : all_configurations())
        for (std::uint64_t k = 0; k < 30; ++k, ++problems) {
          const Problem p = generate_problem(config.id, strategy, 77, k, v, Split::kTrain);
          seen += values_seen_credit(p);
          blind += context_blind_choice(p.candidates) == *p.target;
        }
      const std::string what = std::string(strategy_name(strategy)) + " grid " +
                               std::to_string(v.grid) + " values " + std::to_string(v.values);
      EXPECT_LE(seen / problems, v.values == 0 ? 0.22 : 0.20) << what;
      EXPECT_LE(static_cast<double>(blind) / problems, 0.20) << what;
    }
  }
}

}  // namespace
}  // namespace rave::engine
