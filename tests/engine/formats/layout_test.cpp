// The problem-file name: written by problem_stem, read back by parse_problem_name for every reader
// (neural's file lists, rave score's keys and subsets, rave check's listing, the dataset state).
#include "engine/formats/layout.hpp"

#include <gtest/gtest.h>

namespace rave::engine {
namespace {

TEST(ProblemName, ReadsBackWhatProblemStemWrites) {
  for (const std::uint64_t k : {0ULL, 7ULL, 16ULL, 18446744073709551615ULL})
    for (const Split split : {Split::kTrain, Split::kVal, Split::kTest}) {
      const ProblemName name = parse_problem_stem(problem_stem(k, split));
      EXPECT_EQ(name.prefix, "RAVEN");
      EXPECT_EQ(name.k, k);
      EXPECT_EQ(name.split, split);
    }
}

TEST(ProblemName, EachPartIsOptionalAndFoundFromTheEnd) {
  const ProblemName bare = parse_problem_stem("RAVEN_7");
  EXPECT_EQ(bare.k, 7u);
  EXPECT_FALSE(bare.split.has_value());
  const ProblemName notes = parse_problem_stem("my_notes_val");
  EXPECT_EQ(notes.prefix, "my_notes");
  EXPECT_FALSE(notes.k.has_value());
  EXPECT_EQ(notes.split, Split::kVal);
  EXPECT_EQ(parse_problem_stem("iraven_0042_test").k, 42u) << "leading zeros";
  EXPECT_EQ(parse_problem_stem("a_1_2_train").prefix, "a_1");
  EXPECT_FALSE(parse_problem_stem("RAVEN_18446744073709551616").k.has_value()) << "above 2^64-1";
  EXPECT_FALSE(parse_problem_stem("RAVEN_3x_train").k.has_value());
  EXPECT_FALSE(parse_problem_stem("RAVEN_-3").k.has_value());
}

TEST(ProblemName, EachPartNeedsSomethingBeforeItsUnderscore) {
  const ProblemName alone = parse_problem_stem("_test");
  EXPECT_EQ(alone.prefix, "_test");
  EXPECT_FALSE(alone.split.has_value());
  EXPECT_FALSE(parse_problem_stem("_3").k.has_value());
  EXPECT_FALSE(parse_problem_stem("test").split.has_value());
  EXPECT_FALSE(parse_problem_stem("3_train").k.has_value()) << "3 is the prefix";
  EXPECT_FALSE(parse_problem_stem("RAVEN_1_train_backup").split.has_value());
}

TEST(ProblemName, OfAFileReadsItsStemAlone) {
  EXPECT_EQ(parse_problem_name("a/RAVEN_3_val.xml").split, Split::kVal);
  EXPECT_EQ(parse_problem_name("x/RAVEN_3_test").split, Split::kTest);
  EXPECT_FALSE(parse_problem_name("x/RAVEN_3_test.tar.xml").split.has_value())
      << "the stem is RAVEN_3_test.tar";
  EXPECT_FALSE(parse_problem_name("x_val/RAVEN_3.xml").split.has_value())
      << "the folder does not count";
  EXPECT_EQ(parse_problem_name("x/.hidden_val").split, Split::kVal)
      << "a leading dot starts no extension";
}

}  // namespace
}  // namespace rave::engine
