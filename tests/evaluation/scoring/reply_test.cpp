// Free-text replies read as the candidate they name: every reply of the corpus
// (tests/data/evaluation/replies/corpus.jsonl: plain, markdown, reasoning, refusals, hedges,
// out-of-range labels) is read as its "label" says, or found unreadable when that is null.
#include "evaluation/scoring/reply.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

#include "common/atomic_file.hpp"
#include "tests/support/test_support.hpp"

namespace rave::evaluation {
namespace {

struct Case {
  std::string reply, kind;
  ReplyLabels labels;
  std::optional<int> expected;  // 0-based
};

std::vector<Case> corpus() {
  const std::string text =
      read_file(testing::source_dir() / "tests/data/evaluation/replies/corpus.jsonl");
  std::vector<Case> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const auto j = nlohmann::json::parse(text.substr(at, end - at));
    at = end == std::string::npos ? text.size() : end + 1;
    const std::string labels = j.at("labels");
    Case c{j.at("reply"), j.at("kind"),
           labels == "letters"   ? ReplyLabels::kLetters
           : labels == "indices" ? ReplyLabels::kIndices
                                 : ReplyLabels::kNumbers,
           std::nullopt};
    if (!j.at("label").is_null()) {
      const std::string label = j.at("label");
      c.expected = labels == "letters"   ? label[0] - 'A'
                   : labels == "indices" ? std::stoi(label)
                                         : std::stoi(label) - 1;
    }
    out.push_back(std::move(c));
  }
  return out;
}

TEST(Reply, TheCorpusIsReadAsDocumented) {
  const auto cases = corpus();
  ASSERT_GE(cases.size(), 50u);
  std::map<std::string, int> kinds;
  for (const Case& c : cases) {
    ++kinds[c.kind];
    EXPECT_EQ(read_reply(c.reply, c.labels, 8), c.expected) << c.kind << ": " << c.reply;
  }
  for (const char* kind : {"plain", "markdown", "reasoning", "refusal", "hedge"})
    EXPECT_GT(kinds[kind], 0) << "the corpus has no " << kind << " reply";
}

TEST(Reply, TheLastAnswerCountsAndAnAnswerOutranksAMentionedCandidate) {
  EXPECT_EQ(read_reply("The answer is 2. No, wait: the answer is 6.", ReplyLabels::kNumbers, 8), 5);
  EXPECT_EQ(read_reply("The answer is 2. Candidate 6 is close.", ReplyLabels::kNumbers, 8), 1);
  EXPECT_EQ(read_reply("Candidate 3 is wrong; candidate 4 fits.", ReplyLabels::kNumbers, 8), 3);
}

TEST(Reply, LabelsOutsideTheCandidatesAreNoAnswer) {
  EXPECT_EQ(read_reply("5", ReplyLabels::kNumbers, 4), std::nullopt);
  EXPECT_EQ(read_reply("0", ReplyLabels::kNumbers, 8), std::nullopt);  // labels start at 1
  EXPECT_EQ(read_reply("E", ReplyLabels::kLetters, 4), std::nullopt);
  EXPECT_EQ(read_reply("1e3", ReplyLabels::kNumbers, 8), std::nullopt);
  EXPECT_EQ(read_reply("4.5", ReplyLabels::kNumbers, 8), std::nullopt);
}

TEST(Reply, IndicesCountFromZeroAsIbmsAnswerSet) {
  EXPECT_EQ(read_reply("Answer #0", ReplyLabels::kIndices, 8), 0);
  EXPECT_EQ(read_reply("Answer #7", ReplyLabels::kIndices, 8), 7);
  EXPECT_EQ(read_reply("Answer #8", ReplyLabels::kIndices, 8), std::nullopt);
  EXPECT_EQ(read_reply("seven", ReplyLabels::kIndices, 8), 7);
  EXPECT_EQ(read_reply("eight", ReplyLabels::kIndices, 8), std::nullopt);
  // A candidate's values are no index: 0.5 is no whole number, 30 is out of range.
  EXPECT_EQ(read_reply("(6,0.5,30)", ReplyLabels::kIndices, 8), std::nullopt);
}

TEST(Reply, SamplesVoteAndUnreadableSamplesAbstain) {
  EXPECT_EQ(read_replies({"2", "7", "7", "I cannot tell"}, ReplyLabels::kNumbers, 8), 6);
  EXPECT_EQ(read_replies({"B", "A"}, ReplyLabels::kLetters, 8), 0);  // a tie: the smallest
  EXPECT_EQ(read_replies({"?", "no"}, ReplyLabels::kLetters, 8), std::nullopt);
  EXPECT_EQ(read_replies({}, ReplyLabels::kLetters, 8), std::nullopt);
}

}  // namespace
}  // namespace rave::evaluation
