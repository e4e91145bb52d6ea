// Scoring: the solver's own answers give 100%, the context-blind choice gives the audit's rate,
// missing / duplicated / unknown ids are reported (duplicates refused with the line), answers that
// are no candidate are refused, shuffled exports are mapped back, tied single-candidate scores
// share.
#include "evaluation/scoring/score.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/audit.hpp"
#include "engine/formats/problem_files.hpp"
#include "evaluation/export/export.hpp"
#include "evaluation/shuffle.hpp"
#include "solver/heuristic.hpp"
#include "tests/engine/support/reference_support.hpp"
#include "tests/support/test_support.hpp"

#include "evaluation/scoring/report.hpp"
#include "evaluation/scoring/score_subset.hpp"

namespace rave::evaluation {
namespace {

// A key of 4 center_single test items (answers 0..3) and 2 distribute_four test items (answers 5,
// 6); item 1 is ambiguous.
AnswerKey small_key() {
  std::vector<Item> items;
  for (int k = 0; k < 4; ++k)
    items.push_back({.id = "center_single/RAVEN_" + std::to_string(k) + "_test",
                     .config = engine::ConfigId::kCenterSingle,
                     .split = "test",
                     .answer = k,
                     .verdict = k == 1 ? solver::Verdict::kAmbiguous : solver::Verdict::kUnique,
                     .solver_answer = k,
                     .blind_answer = 0});
  for (int k = 0; k < 2; ++k)
    items.push_back({.id = "distribute_four/RAVEN_" + std::to_string(k) + "_test",
                     .config = engine::ConfigId::kDistributeFour,
                     .split = "test",
                     .answer = 5 + k,
                     .verdict = solver::Verdict::kUnique,
                     .solver_answer = 5 + k,
                     .blind_answer = 5});
  return AnswerKey("sets/small", std::move(items));
}

PredictionFile file_of(std::vector<Prediction> predictions) {
  std::size_t line = 0;
  for (auto& p : predictions) p.line = ++line;
  return {"p.jsonl", "", std::move(predictions)};
}

std::string error_of(const AnswerKey& key, const PredictionFile& f, const ScoreOptions& o = {}) {
  try {
    score_file(key, f, o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Score, CountsCorrectMissingAndUnknown) {
  const AnswerKey key = small_key();
  const auto f = file_of(
      {{.id = "center_single/RAVEN_0_test", .answer = 0},
       {.id = "sets/small/center_single/RAVEN_1_test.xml", .answer = 1},  // a path works too
       {.id = "center_single/RAVEN_2_test.npz", .answer = 7},
       {.id = "center_single/RAVEN_9_test", .answer = 1},  // unknown
       {.id = "distribute_four/RAVEN_0_test", .answer = 5}});
  const FileScore s = score_file(key, f, {});
  EXPECT_EQ(s.total.scored, 4);
  EXPECT_EQ(s.total.missing, 2);  // center 3 and 2x2 1: their groups are answered
  EXPECT_DOUBLE_EQ(s.total.correct, 3);
  EXPECT_NEAR(s.total.accuracy(), 50.0, 1e-12);          // 3 of 6
  EXPECT_NEAR(s.per_config[0].accuracy(), 50.0, 1e-12);  // 2 of 4
  EXPECT_NEAR(s.per_config[1].accuracy(), 50.0, 1e-12);  // 1 of 2
  EXPECT_TRUE(std::isnan(s.per_config[2].accuracy()));   // 3x3Grid: no items
  EXPECT_EQ(s.unique.items(), 5);                        // item 1 is ambiguous
  EXPECT_NEAR(s.unique.accuracy(), 40.0, 1e-12);         // 2 of 5
  EXPECT_EQ(s.unknown, 1);
  EXPECT_EQ(s.unknown_ids, std::vector<std::string>{"center_single/RAVEN_9_test"});
  EXPECT_EQ(s.outside(), 0);
}

// "seconds" travel from the lines to the score (per configuration) and the table's times line.
TEST(Score, AnswerTimesGiveTheMedianTimePerProblem) {
  const AnswerKey key = small_key();
  const auto text = std::string(
      "{\"id\": \"center_single/RAVEN_0_test\", \"answer\": 0, \"seconds\": 4.0}\n"
      "{\"id\": \"center_single/RAVEN_1_test\", \"answer\": 2, \"seconds\": 10}\n"
      "{\"id\": \"center_single/RAVEN_2_test\", \"answer\": 2}\n"
      "{\"id\": \"distribute_four/RAVEN_0_test\", \"answer\": 5, \"seconds\": 7.5}\n");
  const PredictionFile f = parse_predictions(text, "human.jsonl");
  const FileScore s = score_file(key, f, {});
  EXPECT_EQ(s.seconds[0], (std::vector<double>{4.0, 10.0}));
  EXPECT_EQ(s.seconds[1], (std::vector<double>{7.5}));
  Report r;
  r.rows.push_back(file_row(s, "human.jsonl"));
  r.rows.front().label = "Human";
  EXPECT_NE(report_table(r).find("time per problem of Human (median s over 3 answers): 7.5; "
                                 "Center 7.0, 2x2Grid 7.5\n"),
            std::string::npos)
      << report_table(r);
  EXPECT_THROW(parse_predictions("{\"id\": \"a\", \"answer\": 1, \"seconds\": -2}\n", "x"),
               InputError);
  EXPECT_THROW(parse_predictions("{\"id\": \"a\", \"answer\": 1, \"seconds\": \"3\"}\n", "x"),
               InputError);
  Prediction p{.id = "a", .answer = 1};
  p.seconds = 2.5;
  EXPECT_EQ(prediction_line(p, "Human"), R"({"id":"a","answer":1,"seconds":2.5,"model":"Human"})");
}

// A study participant's file (rave study export) lists the problems shown to them; they are scored
// on those they answered, not on every problem of the groups (issue 41, H1: 3 perfect participants
// scored 20%).
TEST(Score, AParticipantIsScoredOnTheProblemsTheyAnswered) {
  const AnswerKey key = small_key();
  const PredictionFile f = parse_predictions(
      R"({"id": "center_single/RAVEN_0_test", "answer": 0, "model": "Human", "participant": 3}
{"id": "distribute_four/RAVEN_1_test", "answer": 6, "model": "Human", "participant": 3}
{"id": "center_single/RAVEN_2_test", "answer": null, "model": "Human", "participant": 3}
)",
      "participant-3.jsonl");
  const FileScore s = score_file(key, f, {});
  EXPECT_EQ(s.total.items(), 2) << "scored on the 2 answered, not the 6 of their groups";
  EXPECT_EQ(s.total.missing, 0);
  EXPECT_NEAR(s.total.accuracy(), 100.0, 1e-12);
  EXPECT_EQ(s.outside(), 4);
  EXPECT_EQ(s.per_config[0].items(), 1);
  // An ordinary model's file with the same lines is scored on its groups, its null counted wrong.
  const FileScore model =
      score_file(key,
                 parse_predictions(R"({"id": "center_single/RAVEN_0_test", "answer": 0}
{"id": "center_single/RAVEN_2_test", "answer": null}
)",
                                   "model.jsonl"),
                 {});
  EXPECT_EQ(model.total.items(), 4);
  EXPECT_EQ(model.total.missing, 3);
}

TEST(Score, AParticipantsUnansweredProblemsAreCountedApart) {
  const AnswerKey key = small_key();
  const PredictionFile f =
      parse_predictions(R"({"id": "center_single/RAVEN_0_test", "answer": 1, "participant": 2}
{"id": "center_single/RAVEN_2_test", "answer": null, "participant": 2}
{"id": "distribute_four/RAVEN_0_test", "answer": null, "participant": 2}
)",
                        "participant-2.jsonl");
  ASSERT_EQ(f.participant, std::optional<std::int64_t>(2));
  const FileScore s = score_file(key, f, {});
  EXPECT_EQ(s.participant, std::optional<std::int64_t>(2));
  EXPECT_EQ(s.unanswered, 2);
  EXPECT_EQ(s.total.items(), 1);
  EXPECT_NEAR(s.total.accuracy(), 0.0, 1e-12);
  // --subset narrows a participant's problems further; the Solver row is on what they answered.
  const FileScore in_subset = score_file(
      key, f,
      {.selection = Selection::kSubset, .subset = std::vector<std::uint8_t>{0, 0, 1, 0, 1, 1}});
  EXPECT_EQ(in_subset.total.items(), 0);
  EXPECT_EQ(in_subset.skipped, 1);
  const FileScore solver = player_score(key, s.evaluated, Player::kSolver);
  EXPECT_EQ(solver.total.items(), 1);
}

TEST(Score, GroupsNeverAnsweredAreLeftOut) {
  const AnswerKey key = small_key();
  const FileScore s =
      score_file(key, file_of({{.id = "center_single/RAVEN_3_test", .answer = 3}}), {});
  EXPECT_EQ(s.total.items(), 4);
  EXPECT_EQ(s.outside(), 2);
  EXPECT_TRUE(std::isnan(s.per_config[1].accuracy()));
  EXPECT_NEAR(s.total.accuracy(), 25.0, 1e-12);
}

TEST(Score, DuplicatesAndNonCandidatesAreRefusedWithTheLine) {
  const AnswerKey key = small_key();
  EXPECT_EQ(
      error_of(key, file_of({{.id = "center_single/RAVEN_0_test", .answer = 0},
                             {.id = "center_single/RAVEN_1_test", .answer = 1},
                             {.id = "center_single/RAVEN_0_test.xml", .answer = 2}})),
      "p.jsonl:line 3: a second answer for center_single/RAVEN_0_test (the first is on line 1)");
  EXPECT_EQ(error_of(key, file_of({{.id = "center_single/RAVEN_0_test", .answer = 8}})),
            "p.jsonl:line 1: answer 8 is outside 0..7");
  EXPECT_EQ(error_of(key, file_of({{.id = "center_single/RAVEN_0_test", .scores = {1, 2}}})),
            "p.jsonl:line 1: 2 scores for 8 candidates");
  EXPECT_EQ(error_of(key, file_of({{.id = "center_single/RAVEN_0_test", .answer = 1}}),
                     {.protocol = Protocol::kSingleCandidate}),
            "p.jsonl:line 1: no \"scores\" or \"logprobs\" (the single-candidate protocol needs "
            "one per candidate)");
}

TEST(Score, TiedTopScoresShareTheCredit) {
  EXPECT_DOUBLE_EQ(top_score_credit({0, 1, 1, 0, 1, 0, 0, 1}, 2), 0.25);
  EXPECT_DOUBLE_EQ(top_score_credit({0, 1, 1, 0, 1, 0, 0, 1}, 0), 0.0);
  EXPECT_DOUBLE_EQ(top_score_credit({0, 1, 3, 0, 1, 0, 0, 1}, 2), 1.0);
  const AnswerKey key = small_key();
  const FileScore s = score_file(
      key, file_of({{.id = "center_single/RAVEN_0_test", .scores = {5, 5, 0, 0, 0, 0, 0, 0}}}),
      {.protocol = Protocol::kSingleCandidate});
  EXPECT_DOUBLE_EQ(s.total.correct, 0.5);
}

TEST(Score, ShuffledAnswersAreMappedBack) {
  const AnswerKey key = small_key();
  std::vector<Prediction> predictions;
  for (const Item& item : key.items()) {  // name the answer's shown position
    const auto order = candidate_order(42, item.id, item.candidates);
    const auto shown = std::find(order.begin(), order.end(), *item.answer) - order.begin();
    predictions.push_back({.id = item.id, .answer = static_cast<int>(shown)});
  }
  EXPECT_DOUBLE_EQ(score_file(key, file_of(predictions), {.shuffle_seed = 42}).total.accuracy(),
                   100.0);
  EXPECT_LT(score_file(key, file_of(predictions), {}).total.accuracy(), 100.0);
}

TEST(Score, SelectionsGroupsAnsweredAndSubset) {
  const AnswerKey key = small_key();
  // Right on center 0 and 2x2 0, nothing else: groups charge the 4 unanswered problems.
  const PredictionFile f = file_of({{.id = "center_single/RAVEN_0_test", .answer = 0},
                                    {.id = "distribute_four/RAVEN_0_test", .answer = 5}});
  const FileScore groups = score_file(key, f, {});
  EXPECT_EQ(groups.total.items(), 6);
  EXPECT_NEAR(groups.total.accuracy(), 100.0 / 3, 1e-12);
  const FileScore answered = score_file(key, f, {.selection = Selection::kAnswered});
  EXPECT_EQ(answered.total.items(), 2);
  EXPECT_DOUBLE_EQ(answered.total.accuracy(), 100.0);
  EXPECT_EQ(answered.outside(), 4);
  // Subset "0" (problem 0 of each configuration) and center 3: center 3 is missing; the 2x2
  // line is inside; a line outside the subset is skipped, not scored.
  const Subset sub = parse_subset("0\ncenter_single/RAVEN_3_test  # comment\n7\n", "s.txt", key);
  EXPECT_EQ(sub.entries, 3);
  EXPECT_EQ(sub.absent, 1);  // no problem 7
  EXPECT_EQ(sub.first_absent, "7");
  EXPECT_EQ(sub.member, (std::vector<std::uint8_t>{1, 0, 0, 1, 1, 0}));
  const PredictionFile g = file_of({{.id = "center_single/RAVEN_0_test", .answer = 0},
                                    {.id = "center_single/RAVEN_1_test", .answer = 1}});
  const FileScore in_subset =
      score_file(key, g, {.selection = Selection::kSubset, .subset = sub.member});
  EXPECT_EQ(in_subset.total.scored, 1);
  EXPECT_EQ(in_subset.total.missing, 2);
  EXPECT_EQ(in_subset.skipped, 1);
  EXPECT_NEAR(in_subset.total.accuracy(), 100.0 / 3, 1e-12);
  // lm-raven's subset.json form: a JSON list of numbers and ids (1 names both configurations').
  const Subset json = parse_subset("[1, \"center_single/RAVEN_2_test\"]", "s.json", key);
  EXPECT_EQ(json.member, (std::vector<std::uint8_t>{0, 1, 1, 0, 0, 1}));
  try {
    parse_subset("[1, 2.5]", "s.json", key);
    ADD_FAILURE() << "a fractional entry was taken";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "s.json:element 1: an entry must be a problem number (an integer >= 0) or an "
                 "id, got 2.5");
  }
  EXPECT_EQ(problem_number("center_single/RAVEN_12_test"), 12u);
  EXPECT_EQ(problem_number("RAVEN_7"), 7u);
  EXPECT_FALSE(problem_number("center_single/example").has_value());
}

TEST(Score, ALinesShuffleSeedIsUndoneAndAConflictNamesTheLine) {
  const AnswerKey key = small_key();
  std::vector<Prediction> predictions;
  for (const Item& item : key.items()) {
    const auto order = candidate_order(9, item.id, item.candidates);
    const auto shown = std::find(order.begin(), order.end(), *item.answer) - order.begin();
    predictions.push_back(
        {.id = item.id, .answer = static_cast<int>(shown), .answers_shuffled = 9});
  }
  EXPECT_DOUBLE_EQ(score_file(key, file_of(predictions), {}).total.accuracy(), 100.0);
  EXPECT_DOUBLE_EQ(score_file(key, file_of(predictions), {.shuffle_seed = 9}).total.accuracy(),
                   100.0);
  EXPECT_EQ(error_of(key, file_of(predictions), {.shuffle_seed = 4}),
            "p.jsonl:line 1: \"answers_shuffled\": 9, but the shuffle seed given is 4");
}

TEST(Score, LmRavenTiesCountTheAnswerAmongTheMaxima) {
  EXPECT_DOUBLE_EQ(top_score_credit({0, 1, 1, 0, 1, 0, 0, 1}, 2, TieRule::kAny), 1.0);
  EXPECT_DOUBLE_EQ(top_score_credit({0, 1, 1, 0, 1, 0, 0, 1}, 0, TieRule::kAny), 0.0);
  // lm-raven's token log-probabilities: candidate 0 has mean -0.5 (sum -1), candidate 1 the
  // mean -0.4 but the sum -1.2; the others -3. Answer 0 wins by sum, loses by mean.
  const AnswerKey key = small_key();
  Prediction p{.id = "center_single/RAVEN_0_test"};
  p.logprobs = {{{-0.5, -0.5}, {-0.4, -0.4, -0.4}, {-3}, {-3}, {-3}, {-3}, {-3}, {-3}}};
  EXPECT_DOUBLE_EQ(
      score_file(key, file_of({p}), {.logprob_score = LogprobScore::kSum}).total.correct, 1.0);
  EXPECT_DOUBLE_EQ(score_file(key, file_of({p}), {}).total.correct, 0.0);
  // Two sub-prompts (lm-raven's b = 1 form) add their means: 0 gets -0.5 - 0.1, 1 gets -0.4 - 0.3.
  p.logprobs.push_back({{-0.1}, {-0.3}, {-3}, {-3}, {-3}, {-3}, {-3}, {-3}});
  EXPECT_DOUBLE_EQ(score_file(key, file_of({p}), {}).total.correct, 1.0);
  p.logprobs.back().pop_back();
  EXPECT_EQ(error_of(key, file_of({p}), {}),
            "p.jsonl:line 1: \"logprobs\" sub-prompt 1 has 7 token lists for 8 candidates");
}

TEST(Score, ReferencePlayersOnTheSmallKey) {
  const AnswerKey key = small_key();
  const std::vector<std::uint8_t> all(key.items().size(), 1);
  EXPECT_DOUBLE_EQ(player_score(key, all, Player::kSolver).total.accuracy(), 100.0);
  EXPECT_NEAR(player_score(key, all, Player::kContextBlind).total.accuracy(), 200.0 / 6,
              1e-12);  // items 0 and 2x2 0
}

// On the original generators' problems: the solver's answers score 100%, and the context-blind
// choice scores exactly the rate of the context-blind audit (what `rave check` prints).
class ReferenceScore : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceScore, SolverAndContextBlindRates) {
  const std::filesystem::path dir = engine::testing::reference_set_dir(GetParam());
  const AnswerKey key = AnswerKey::load(dir, 1);
  std::vector<Prediction> solver_lines, blind_lines;
  std::vector<engine::Problem> problems;
  solver::HeuristicSolver heuristic;
  for (const auto& file : engine::collect_problem_files({dir})) {
    problems.push_back(engine::read_problem(file));
    solver_lines.push_back(
        {.id = file.string(),
         .answer = heuristic.solve(problems.back()).answer});  // as rave solve --json
    blind_lines.push_back(
        {.id = file.string(), .answer = engine::context_blind_choice(problems.back().candidates)});
  }
  const FileScore solved = score_file(key, file_of(solver_lines), {});
  EXPECT_EQ(solved.total.scored, static_cast<int>(problems.size()));
  EXPECT_DOUBLE_EQ(solved.total.accuracy(), 100.0);
  const FileScore blind = score_file(key, file_of(blind_lines), {});
  const engine::BlindAudit audit = engine::context_blind_audit(problems);
  EXPECT_DOUBLE_EQ(blind.total.accuracy(), 100.0 * audit.accuracy());
  EXPECT_DOUBLE_EQ(player_score(key, blind.evaluated, Player::kContextBlind).total.accuracy(),
                   100.0 * audit.accuracy());
}

// rave score --no-references: a json export's problems are not solved (the lines give the
// verdicts), so the key has no Solver answers; with references they are solved.
TEST(Score, AJsonExportKeyIsSolvedOnlyForTheReferences) {
  const std::filesystem::path dir = engine::testing::reference_set_dir("raven");
  std::string text;
  export_set(dir, {.format = ExportFormat::kJson}, 1, text);
  const std::filesystem::path file = rave::testing::scratch_dir("score_key") / "set.jsonl";
  write_file_atomic(file, text);
  const AnswerKey with = AnswerKey::load(file, 1);
  const AnswerKey without = AnswerKey::load(file, 1, {.references = false});
  EXPECT_TRUE(with.has_references());
  EXPECT_FALSE(without.has_references());
  ASSERT_EQ(with.items().size(), without.items().size());
  int solved = 0;
  for (std::size_t i = 0; i < with.items().size(); ++i) {
    solved += with.items()[i].solver_answer >= 0 ? 1 : 0;
    EXPECT_EQ(without.items()[i].solver_answer, -1) << with.items()[i].id;
    EXPECT_EQ(without.items()[i].verdict, with.items()[i].verdict) << with.items()[i].id;
  }
  EXPECT_GT(solved, 0);
  std::filesystem::remove_all(file.parent_path());
}

INSTANTIATE_TEST_SUITE_P(Sets, ReferenceScore, ::testing::Values("raven", "iraven", "fair"));

}  // namespace
}  // namespace rave::evaluation
