// Reading predictions: JSON Lines (ids or rave solve's "file"), CSV, and one-line errors.
#include "evaluation/scoring/predictions.hpp"

#include <gtest/gtest.h>

#include <map>

#include "common/error.hpp"

namespace rave::evaluation {
namespace {

std::string error_of(std::string_view text) {
  try {
    parse_predictions(text, "p.jsonl");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Predictions, JsonLinesWithAnswersScoresAndNull) {
  const auto f = parse_predictions(
      "{\"id\": \"center_single/RAVEN_0_train\", \"answer\": 3, \"model\": \"CNN\"}\n"
      "\n"
      "{\"file\": \"d/center_single/RAVEN_1_train.xml\", \"answer\": 0, \"target\": 0, "
      "\"verdict\": \"unique\"}\n"
      "{\"id\": \"x\", \"answer\": null}\r\n"
      "{\"id\": \"y\", \"scores\": [0.5, -1, 2e3, 0, 0, 0, 0, 1]}\n",
      "p.jsonl");
  EXPECT_EQ(f.model, "CNN");
  ASSERT_EQ(f.predictions.size(), 4u);
  EXPECT_EQ(f.predictions[0].id, "center_single/RAVEN_0_train");
  EXPECT_EQ(f.predictions[0].answer, 3);
  EXPECT_EQ(f.predictions[1].id, "d/center_single/RAVEN_1_train.xml");
  EXPECT_EQ(f.predictions[1].line, 3u);
  EXPECT_FALSE(f.predictions[2].answer.has_value());
  EXPECT_EQ(f.predictions[3].scores.size(), 8u);
  EXPECT_DOUBLE_EQ(f.predictions[3].scores[2], 2000);
  EXPECT_EQ(f.predictions[3].line, 5u);
}

TEST(Predictions, CsvWithAnswerOrScoreColumns) {
  const auto a = parse_predictions("id,answer\ncenter_single/RAVEN_0_train,5\n\"a,b\",\n", "p.csv");
  ASSERT_EQ(a.predictions.size(), 2u);
  EXPECT_EQ(a.predictions[0].answer, 5);
  EXPECT_EQ(a.predictions[1].id, "a,b");
  EXPECT_FALSE(a.predictions[1].answer.has_value());
  const auto s = parse_predictions("score_1,id,score_0\n2.5,q,-1\n", "p.csv");
  ASSERT_EQ(s.predictions.size(), 1u);
  EXPECT_EQ(s.predictions[0].scores, (std::vector<double>{-1, 2.5}));
}

TEST(Predictions, BadInputNamesTheFileAndLine) {
  EXPECT_EQ(error_of("just some words\nmore words\n"),
            "p.jsonl:line 1: neither JSON Lines (one JSON object per line) nor CSV with a header "
            "naming an id and an "
            "answer (or score_0, score_1, ...) column");
  EXPECT_EQ(error_of("{\"id\": \"a\", \"answer\": 1}\n{\"id\": \"b\", \"answer\": 1\n"),
            "p.jsonl:line 2: not a JSON object (syntax error at column 24)");
  EXPECT_EQ(error_of("{\"id\": \"a\", \"answer\": -1}\n"),
            "p.jsonl:line 1: answer -1 is not a candidate index");
  EXPECT_EQ(error_of("{\"id\": \"a\", \"answer\": \"C\"}\n"),
            "p.jsonl:line 1: \"answer\" must be a candidate index (an integer), got \"C\"");
  EXPECT_EQ(error_of("{\"answer\": 2}\n"), "p.jsonl:line 1: no \"id\" (or \"file\") string");
  EXPECT_EQ(error_of("{\"id\": \"a\"}\n"),
            "p.jsonl:line 1: no \"answer\", \"scores\", \"logprobs\", \"text\" or \"attributes\"");
  EXPECT_EQ(error_of("id,answer\na,1\nb,x\n"), "p.jsonl:line 3: answer 'x' is not a number");
  EXPECT_EQ(error_of("id,answer\na,1,2\n"), "p.jsonl:line 2: 3 fields, but the header has 2");
  EXPECT_EQ(error_of(" \n\n"), "p.jsonl: empty: no predictions");
  // A study participant's file names one participant on every line (two files merged, an edit).
  EXPECT_EQ(error_of("{\"id\": \"a\", \"answer\": 1, \"participant\": 1}\n"
                     "{\"id\": \"b\", \"answer\": 1, \"participant\": 2}\n"),
            "p.jsonl:line 2: participant 2, but line 1 gives participant 1 (a study export holds "
            "one participant per file)");
  EXPECT_EQ(error_of("{\"id\": \"a\", \"answer\": 1, \"participant\": 1}\n\n"
                     "{\"id\": \"b\", \"answer\": null}\n"),
            "p.jsonl:line 3: no participant, but line 1 gives participant 1 (a study export holds "
            "one participant per file)");
  EXPECT_EQ(error_of("{\"id\": \"a\", \"answer\": 1, \"participant\": 0}\n"),
            "p.jsonl:line 1: \"participant\" must be a participant's number (an integer >= 1), "
            "got 0");
  EXPECT_EQ(error_of("{\"id\": \"a\", \"answer\": 1, \"participant\": \"7\"}\n"),
            "p.jsonl:line 1: \"participant\" must be a participant's number (an integer >= 1), "
            "got \"7\"");
  EXPECT_EQ(error_of("[1, 2]\n"),
            "p.jsonl:line 1: neither JSON Lines (one JSON object per line) nor CSV with a header "
            "naming an id and an "
            "answer (or score_0, score_1, ...) column");
}

TEST(Predictions, AttributesAreNumbersOrReplies) {
  const auto f = parse_predictions(
      "{\"id\": \"a\", \"attributes\": {\"type\": 6, \"size\": [3, 5], \"color\": \"It is 3\", "
      "\"angle\": [\"1\", \"no idea\"]}}\n",
      "p.jsonl");
  const auto& a = f.predictions.at(0).attributes;
  ASSERT_EQ(a.size(), 4u);
  std::map<std::string, const AttributeAnswer*> by;
  for (const auto& x : a) by[x.attribute] = &x;
  EXPECT_EQ(by["type"]->value, (std::vector<double>{6}));
  EXPECT_EQ(by["size"]->value, (std::vector<double>{3, 5}));
  EXPECT_TRUE(by["color"]->value.empty());
  EXPECT_EQ(by["color"]->samples, (std::vector<std::string>{"It is 3"}));
  EXPECT_EQ(by["angle"]->samples, (std::vector<std::string>{"1", "no idea"}));
  EXPECT_EQ(error_of("{\"id\": \"a\", \"attributes\": {\"type\": [1, \"2\"]}}\n"),
            "p.jsonl:line 1: \"attributes\": type must be a number, a list of numbers, a reply or "
            "a list of replies (strings), got [1,\"2\"]");
}

}  // namespace
}  // namespace rave::evaluation
