// IBM's text2num, majority_vote, find_best_match and guard_answer against hand-worked cases (from
// src/solver_pred.py and solver_disc.py), and the text and attribute answers on a reference
// problem's own candidate values.
#include "evaluation/scoring/score_forms.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"
#include "engine/formats/problem_files.hpp"
#include "tests/engine/support/reference_support.hpp"

namespace rave::evaluation {
namespace {

TEST(ScoreForms, Text2NumTakesEveryNumberAfterTheQueue) {
  EXPECT_EQ(text2num("Answer #3: (6,0.5,30)", ""), (std::vector<double>{3, 6, 0.5, 30}));
  EXPECT_EQ(text2num("I think (6,0.5,30). Answer: 4", "Answer:"), (std::vector<double>{4}));
  EXPECT_EQ(text2num("-2 and +.5 and 1..5", ""), (std::vector<double>{-2, 0.5}));  // float raises
  EXPECT_TRUE(text2num("no numbers", "").empty());
}

TEST(ScoreForms, MajorityVoteTakesTheSmallestMostFrequentAndZeroForAllNaN) {
  const std::vector<std::vector<double>> samples{
      {5, NAN, 1}, {3, NAN, 2}, {5, NAN, 2}, {3, NAN, 1}};
  EXPECT_EQ(majority_vote(samples), (std::vector<double>{3, 0, 1}));  // ties: 3 < 5, 1 < 2
}

TEST(ScoreForms, FindBestMatchTakesTheFirstOfTheMostEqual) {
  const std::vector<std::vector<double>> candidates{{6, 5, 3}, {6, 4, 3}, {6, 4, 2}, {6, 4, 3}};
  EXPECT_EQ(find_best_match(candidates, {6, 4, 3}), 1);  // 1 and 3 match all three: the first
  EXPECT_EQ(find_best_match(candidates, {0, 0, 0}), 0);  // nothing matches: candidate 0
}

class ReferenceProblem : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto dir = engine::testing::reference_set_dir("raven") / "center_single";
    problem = engine::read_problem(dir / "RAVEN_0_train.xml");
    values = candidate_values(problem);
  }
  engine::Problem problem;
  CandidateValues values;
};

TEST_F(ReferenceProblem, TextAnswersByIndexAndByValues) {
  // docs/evaluation.md: center_single RAVEN_0_train, answer 6 = (6,0.5,30); 0 = (6,0.4,30).
  ASSERT_EQ(values.entangled.size(), 8u);
  EXPECT_EQ(values.entangled[6], (std::vector<double>{6, 0.5, 30}));
  const auto choice = [&](const std::vector<std::string>& texts, TextAnswer mode,
                          const char* queue = "") {
    return text_choice(texts, &values, 8, mode, queue);
  };
  EXPECT_EQ(choice({"Answer #6"}, TextAnswer::kIndex).candidate, 6);
  EXPECT_EQ(choice({"Answer #9"}, TextAnswer::kIndex).candidate, 0);  // guard_answer
  EXPECT_EQ(choice({"no idea"}, TextAnswer::kIndex).candidate, 0);    // NaN -> 0
  EXPECT_FALSE(choice({"no idea"}, TextAnswer::kIndex).read);         // ... and counted unread
  EXPECT_TRUE(choice({"Answer #9"}, TextAnswer::kIndex).read);
  EXPECT_EQ(choice({"#2", "#6", "#6"}, TextAnswer::kIndex).candidate, 6);  // vote
  EXPECT_EQ(choice({"(6,0.5,30)"}, TextAnswer::kValues).candidate, 6);
  // (6,0.4,30) is candidate 0's panel exactly.
  EXPECT_EQ(choice({"row 3: (6,0.4,30)"}, TextAnswer::kValues, "row 3:").candidate, 0);
  EXPECT_FALSE(choice({"(6,0.5)"}, TextAnswer::kValues).read);  // fewer numbers than a panel
}

TEST(ScoreForms, ValuesCompareIbmsNattrNumbersOrAll) {
  // Candidates with Angle (--angle): IBM's nattr 3 compares Type, Size and Color alone.
  CandidateValues v;
  v.entangled = {{6, 0.5, 30, 45}, {6, 0.5, 30, 90}, {5, 0.5, 30, 90}};
  const auto pick = [&](const char* reply, int nattr) {
    return text_choice({reply}, &v, 3, TextAnswer::kValues, "", nattr).candidate;
  };
  EXPECT_EQ(pick("(6,0.5,30,90)", kIbmNattr), 0);    // 0 and 1 match all three: the first
  EXPECT_EQ(pick("(6,0.5,30,90)", kAllNumbers), 1);  // the angle tells them apart
  EXPECT_EQ(pick("(5,0.5,30)", kIbmNattr), 2);
  EXPECT_FALSE(text_choice({"(5,0.5,30)"}, &v, 3, TextAnswer::kValues, "", kAllNumbers).read);
  // A candidate with fewer numbers than nattr is a row of NaN, as IBM's text2num makes it.
  v.entangled = {{6, 0.5}, {6, 0.4, 30}};
  EXPECT_EQ(pick("(6,0.5,30)", kIbmNattr), 1);
}

TEST(ScoreForms, AnswerIndexReadsIbmsNumberingByTheReplyRule) {
  EXPECT_EQ(text_choice({"Answer #0"}, nullptr, 8, TextAnswer::kAnswerIndex, "").candidate, 0);
  // IBM's index reads the first number: here the Type of candidate 6's values.
  const TextChoice values = text_choice({"(6,0.5,30)"}, nullptr, 8, TextAnswer::kAnswerIndex, "");
  EXPECT_FALSE(values.candidate);
  EXPECT_FALSE(values.read);
  EXPECT_EQ(
      text_choice({"Row 1 has 3. Answer #5"}, nullptr, 8, TextAnswer::kAnswerIndex, "").candidate,
      5);
}

TEST(ScoreForms, TextAnswersAsLabelsAndLettersNeedNoValues) {
  EXPECT_EQ(text_choice({"Answer #6"}, nullptr, 8, TextAnswer::kLabel, "").candidate, 5);
  EXPECT_EQ(text_choice({"The answer is (G)."}, nullptr, 8, TextAnswer::kLetter, "").candidate, 6);
  const TextChoice none = text_choice({"I can't tell."}, nullptr, 8, TextAnswer::kLabel, "");
  EXPECT_FALSE(none.candidate);
  EXPECT_FALSE(none.read);
  // Samples vote: the most frequent readable label, the smallest on a tie; unreadable ones abstain.
  EXPECT_EQ(text_choice({"3", "5", "no idea", "5"}, nullptr, 8, TextAnswer::kLabel, "").candidate,
            4);
  EXPECT_EQ(text_choice({"5", "3"}, nullptr, 8, TextAnswer::kLabel, "").candidate, 2);
  // IBM's answer_queue applies to every mode: only the text after it is read.
  EXPECT_EQ(
      text_choice({"Think: 2. Answer: 7"}, nullptr, 8, TextAnswer::kLabel, "Answer:").candidate, 6);
}

TEST_F(ReferenceProblem, AttributeAnswersMatchTheMostBranches) {
  // Disentangled choices (docs/evaluation.md): type 6 6 6 5 6 6 6 6, size 4 5 5 5 5 6 5 1,
  // color 3 5 1 3 7 3 3 3. {6, 5, 3} matches all three only on candidate 6.
  const std::vector<AttributeAnswer> right{
      {"", "type", {6}}, {"", "size", {5}}, {"", "color", {3}}};
  EXPECT_EQ(attribute_candidate(right, values, "", "p.jsonl", 1), 6);
  const std::vector<AttributeAnswer> size_only{{"Grid", "size", {5}}};
  EXPECT_EQ(attribute_candidate(size_only, values, "", "p.jsonl", 1),
            1);  // the first of 1, 2, 3, 4, 6
  try {
    attribute_candidate({{"", "number", {1}}}, values, "", "p.jsonl", 4);
    ADD_FAILURE() << "an attribute the problem lacks was taken";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "p.jsonl:line 4: \"attributes\": number is no branch of this problem");
  }
}

TEST(ScoreForms, AttributeRepliesVotePerBranchAfterTheQueue) {
  // IBM's _predict: per branch the first number of each reply (NaN when none), majority_vote.
  const AttributeAnswer type{.component = "",
                             .attribute = "type",
                             .value = {},
                             .samples = {"It is 6.", "5", "6", "no idea"}};
  EXPECT_EQ(attribute_value(type, ""), (std::vector<double>{6}));
  const AttributeAnswer queued{.component = "",
                               .attribute = "size",
                               .value = {},
                               .samples = {"Row 1: 3. Answer: 5", "Row 2: 3. Answer: 5"}};
  EXPECT_EQ(attribute_value(queued, ""), (std::vector<double>{1}));         // "Row 1" comes first
  EXPECT_EQ(attribute_value(queued, "Answer:"), (std::vector<double>{5}));  // read after the queue
  const AttributeAnswer none{
      .component = "", .attribute = "color", .value = {}, .samples = {"?", "unsure"}};
  EXPECT_EQ(attribute_value(none, ""), (std::vector<double>{0}));  // all NaN: 0
  const AttributeAnswer grid{.component = "", .attribute = "type", .value = {3, 5}, .samples = {}};
  EXPECT_EQ(attribute_value(grid, "Answer:"), (std::vector<double>{3, 5}));  // numbers as given
}

TEST_F(ReferenceProblem, AttributeRepliesPickTheCandidate) {
  // Candidate 6 is {6, 5, 3}; the replies carry reasoning before IBM's answer queue.
  const std::vector<AttributeAnswer> replies{
      {.component = "", .attribute = "type", .value = {}, .samples = {"1: 6", "2: 6", "3: 5"}},
      {.component = "", .attribute = "size", .value = {}, .samples = {"4: 5", "5: 5", "6: 1"}},
      {.component = "", .attribute = "color", .value = {}, .samples = {"7: 3", "8: 3", "9: 3"}}};
  EXPECT_EQ(attribute_candidate(replies, values, ":", "p.jsonl", 1), 6);
  EXPECT_NE(attribute_candidate(replies, values, "", "p.jsonl", 1), 6);
}

}  // namespace
}  // namespace rave::evaluation
