#include "cli/dataset_options.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli_util.hpp"
#include "common/error.hpp"

namespace rave::cli {
namespace {

// The spec `rave generate` makes of `words` (after the subcommand).
jobs::DatasetSpec parsed(std::vector<std::string> words) {
  CLI::App app;
  DatasetFlags flags;
  CLI::App* cmd = app.add_subcommand("generate");
  bind_dataset_flags(*cmd, flags);
  bind_variant_flags(*cmd, flags);
  words.insert(words.begin(), "generate");
  std::vector<const char*> argv{"rave"};
  for (const auto& w : words) argv.push_back(w.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  return dataset_spec(flags);
}

// The face's defaults are the library's: only the required flags given, the spec equals a
// default-constructed one in every field a flag sets (-j alone is the face's: the machine's).
TEST(DatasetOptions, DefaultsAreTheSpecs) {
  const jobs::DatasetSpec library;
  const jobs::DatasetSpec cli = parsed({"-n", "7", "-o", "out"});
  EXPECT_EQ(cli.num_samples, 7U);
  EXPECT_EQ(cli.dir, "out");
  EXPECT_EQ(cli.configs, library.configs);
  EXPECT_EQ(cli.seed, library.seed);
  EXPECT_EQ(cli.val, library.val);
  EXPECT_EQ(cli.test, library.test);
  EXPECT_EQ(cli.answers, library.answers);
  EXPECT_EQ(cli.compress, library.compress);
  EXPECT_EQ(cli.resume, library.resume);
  EXPECT_EQ(cli.variant, library.variant);
  EXPECT_EQ(cli.symbolic_only, library.symbolic_only);
  EXPECT_EQ(cli.shard, library.shard);
  EXPECT_EQ(engine::style_text(cli.style), engine::style_text(library.style));
  EXPECT_EQ(cli.threads, default_threads());
}

// Every flag lands in its field.
TEST(DatasetOptions, FlagsSetTheirFields) {
  const jobs::DatasetSpec spec = parsed({"-n",
                                         "20",
                                         "-o",
                                         "d",
                                         "-c",
                                         "center_single,O-IG",
                                         "-s",
                                         "9",
                                         "--val",
                                         "1",
                                         "--test",
                                         "3",
                                         "-a",
                                         "fair",
                                         "-j",
                                         "2",
                                         "--compress",
                                         "--resume",
                                         "--grid",
                                         "4",
                                         "--values",
                                         "6",
                                         "--confounders",
                                         "1",
                                         "--symbolic-only",
                                         "--shard",
                                         "2/3"});
  EXPECT_EQ(spec.configs.size(), 2U);
  EXPECT_EQ(spec.seed, 9U);
  EXPECT_EQ(spec.val, 1);
  EXPECT_EQ(spec.test, 3);
  EXPECT_EQ(spec.answers, engine::AnswerStrategy::kFair);
  EXPECT_EQ(spec.threads, 2);
  EXPECT_TRUE(spec.compress && spec.resume && spec.symbolic_only);
  EXPECT_EQ(spec.variant.grid, 4);
  EXPECT_EQ(spec.variant.values, 6);
  EXPECT_EQ(spec.variant.confounders, 1);
  EXPECT_EQ(spec.shard, (jobs::Shard{.index = 2, .count = 3}));
}

TEST(DatasetOptions, BadWordsNameTheirFlag) {
  EXPECT_THROW(parsed({"-n", "1", "-o", "d", "--shard", "4/3"}), UsageError);
  EXPECT_THROW(parsed({"-n", "1", "-o", "d", "-s", "x"}), UsageError);
}

}  // namespace
}  // namespace rave::cli
