#include "cli/solve_options.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli_util.hpp"
#include "common/error.hpp"
#include "tests/faces/cli/parse_flags.hpp"

namespace rave::cli {
namespace {

jobs::BatchOptions parsed_solve(const std::vector<std::string>& words) {
  SolveFlags flags;
  parse_flags(flags, bind_solve_flags, words);
  return solve_options(flags);
}

// The face's defaults are the library's (-j alone is the face's: the machine's threads).
TEST(SolveOptions, DefaultsAreTheLibrarys) {
  const jobs::BatchOptions library;
  const jobs::BatchOptions cli = parsed_solve({"set"});
  EXPECT_EQ(cli.backend, library.backend);
  EXPECT_EQ(cli.solve.use_rules, library.solve.use_rules);
  EXPECT_EQ(cli.solve.occam, library.solve.occam);
  EXPECT_EQ(cli.solve.angle, library.solve.angle);
  EXPECT_EQ(cli.budget.rlimit, library.budget.rlimit);
  EXPECT_EQ(cli.budget.timeout_ms, library.budget.timeout_ms);
  EXPECT_EQ(cli.from_pixels, library.from_pixels);
  EXPECT_EQ(cli.threads, default_threads());
}

TEST(SolveOptions, FlagsSetTheirFields) {
  const jobs::BatchOptions o =
      parsed_solve({"set", "-b", "z3", "--use-rules", "--no-occam", "--from-pixels", "--rlimit",
                    "7", "--timeout-ms", "9", "-j", "2"});
  EXPECT_EQ(o.backend, solver::Backend::kZ3);
  EXPECT_TRUE(o.solve.use_rules && o.from_pixels);
  EXPECT_FALSE(o.solve.occam);
  EXPECT_EQ(o.budget.rlimit, 7U);
  EXPECT_EQ(o.budget.timeout_ms, 9U);
  EXPECT_EQ(o.threads, 2);
  EXPECT_THROW(parsed_solve({"set", "-b", "sat"}), UsageError);
}

TEST(CheckOptions, DefaultsAreTheLibrarys) {
  const jobs::CheckOptions library;
  CheckFlags flags;
  parse_flags(flags, bind_check_flags, {"set"});
  const jobs::CheckOptions cli = check_options(flags);
  EXPECT_EQ(cli.backend, library.backend);
  EXPECT_EQ(cli.budget.rlimit, library.budget.rlimit);
  EXPECT_EQ(cli.budget.timeout_ms, library.budget.timeout_ms);
  EXPECT_EQ(cli.threads, default_threads());
  EXPECT_TRUE(cli.content);
}

TEST(CheckOptions, FlagsSetTheirFields) {
  CheckFlags flags;
  parse_flags(flags, bind_check_flags, {"set", "-b", "z3", "-j", "3"});
  const jobs::CheckOptions o = check_options(flags);
  EXPECT_EQ(o.backend, solver::Backend::kZ3);
  EXPECT_EQ(o.threads, 3);
}

}  // namespace
}  // namespace rave::cli
