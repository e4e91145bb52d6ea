#include "cli/score_options.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "tests/faces/cli/parse_flags.hpp"

namespace rave::cli {
namespace {

// The options `rave score` makes of `words` (after the subcommand).
evaluation::ScoreOptions parsed(std::vector<std::string> words) {
  ScoreFlags flags;
  parse_flags(flags, bind_score_flags, std::move(words));
  return score_options(flags);
}

// The face's defaults are the library's: only the required flags given, the options equal
// default-constructed ones in every field a flag sets.
TEST(ScoreOptions, DefaultsAreTheLibrarys) {
  const evaluation::ScoreOptions library;
  const evaluation::ScoreOptions cli = parsed({"p.jsonl", "-d", "set"});
  EXPECT_EQ(cli.protocol, library.protocol);
  EXPECT_EQ(cli.shuffle_seed, library.shuffle_seed);
  EXPECT_EQ(cli.selection, library.selection);
  EXPECT_EQ(cli.ties, library.ties);
  EXPECT_EQ(cli.logprob_score, library.logprob_score);
  EXPECT_EQ(cli.text_answer, library.text_answer);
  EXPECT_EQ(cli.answer_queue, library.answer_queue);
  EXPECT_EQ(cli.nattr, library.nattr);
}

// Every flag lands in its field.
TEST(ScoreOptions, FlagsSetTheirFields) {
  const evaluation::ScoreOptions o =
      parsed({"p.jsonl", "-d", "set", "--protocol", "single-candidate", "--answers-shuffled", "4",
              "--subset", "answered", "--ties", "any", "--logprob-score", "sum", "--text-answer",
              "values", "--answer-queue", "Q", "--nattr", "all"});
  EXPECT_EQ(o.protocol, evaluation::Protocol::kSingleCandidate);
  EXPECT_EQ(o.shuffle_seed, 4U);
  EXPECT_EQ(o.selection, evaluation::Selection::kAnswered);
  EXPECT_EQ(o.ties, evaluation::TieRule::kAny);
  EXPECT_EQ(o.logprob_score, evaluation::LogprobScore::kSum);
  EXPECT_EQ(o.text_answer, evaluation::TextAnswer::kValues);
  EXPECT_EQ(o.answer_queue, "Q");
  EXPECT_EQ(o.nattr, evaluation::kAllNumbers);
  EXPECT_EQ(parsed({"p.jsonl", "-d", "set", "--subset", "ids.txt"}).selection,
            evaluation::Selection::kSubset);
}

TEST(ScoreOptions, BadWordsNameTheirFlag) {
  EXPECT_THROW(parsed({"p.jsonl", "-d", "set", "--ties", "all"}), UsageError);
  EXPECT_THROW(parsed({"p.jsonl", "-d", "set", "--logprob-score", "max"}), UsageError);
  EXPECT_THROW(parsed({"p.jsonl", "-d", "set", "--nattr", "0"}), UsageError);
}

}  // namespace
}  // namespace rave::cli
