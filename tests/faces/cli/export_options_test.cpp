#include "cli/export_options.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "tests/faces/cli/parse_flags.hpp"

namespace rave::cli {
namespace {

evaluation::ExportOptions parsed_export(const std::vector<std::string>& words) {
  ExportFlags flags;
  parse_flags(flags, bind_export_flags, words);
  return export_options(flags);
}

// The face's defaults are the library's: only the input given, the options equal
// default-constructed ones in every field a flag sets.
TEST(ExportOptions, DefaultsAreTheLibrarys) {
  const evaluation::ExportOptions library;
  const evaluation::ExportOptions cli = parsed_export({"data"});
  EXPECT_EQ(cli.format, library.format);
  EXPECT_EQ(cli.shuffle_seed, library.shuffle_seed);
  EXPECT_EQ(cli.no_answer, library.no_answer);
  EXPECT_EQ(cli.drop_ambiguous, library.drop_ambiguous);
  EXPECT_EQ(cli.answer_first, library.answer_first);
  EXPECT_EQ(cli.uncertainty_seed, library.uncertainty_seed);
  EXPECT_EQ(cli.text.style, library.text.style);
  EXPECT_EQ(cli.text.rows_shown, library.text.rows_shown);
  EXPECT_EQ(cli.text.offset, library.text.offset);
  EXPECT_EQ(cli.text.scaling, library.text.scaling);
  EXPECT_EQ(cli.text.angle, library.text.angle);
  EXPECT_EQ(cli.text.uncertainty, library.text.uncertainty);
  EXPECT_EQ(cli.text.uncertainty_range, library.text.uncertainty_range);
  EXPECT_EQ(cli.text.prefix, library.text.prefix);
  EXPECT_EQ(cli.text.classmode, library.text.classmode);
}

// Every flag lands in its field.
TEST(ExportOptions, FlagsSetTheirFields) {
  const evaluation::ExportOptions o = parsed_export({"data",
                                                     "-f",
                                                     "json",
                                                     "--rows-shown",
                                                     "all",
                                                     "--classmode",
                                                     "pred",
                                                     "--no-offsets",
                                                     "--no-scaling",
                                                     "--angle",
                                                     "--uncertainty-range",
                                                     "12",
                                                     "--uncertainty-seed",
                                                     "5",
                                                     "--prefix",
                                                     "P",
                                                     "--answers-shuffled",
                                                     "9",
                                                     "--no-answer",
                                                     "--drop-ambiguous"});
  EXPECT_EQ(o.format, evaluation::ExportFormat::kJson);
  EXPECT_EQ(o.text.rows_shown, 0);
  EXPECT_EQ(o.text.classmode, evaluation::ClassMode::kPred);
  EXPECT_FALSE(o.text.offset || o.text.scaling);
  EXPECT_TRUE(o.text.angle && o.no_answer && o.drop_ambiguous);
  EXPECT_EQ(o.text.uncertainty_range, 12);
  EXPECT_EQ(o.uncertainty_seed, 5U);
  EXPECT_EQ(o.text.prefix, "P");
  EXPECT_EQ(o.shuffle_seed, 9U);
  EXPECT_EQ(parsed_export({"data", "--style", "lm-raven"}).text.style,
            evaluation::PromptStyle::kLmRaven);
}

TEST(ExportOptions, BadWordsNameTheirFlag) {
  EXPECT_THROW(parsed_export({"data", "--rows-shown", "0"}), UsageError);
  EXPECT_THROW(parsed_export({"data", "--style", "ibm"}), UsageError);
  EXPECT_THROW(parsed_export({"data", "--answers-shuffled", "1", "--answer-first"}), UsageError);
}

TEST(ProbeOptions, DefaultsAreTheLibrarys) {
  const evaluation::ProbeOptions library;
  ProbeFlags flags;
  parse_flags(flags, bind_probe_flags, {"set"});
  const evaluation::ProbeOptions cli = probe_options(flags);
  EXPECT_EQ(cli.panels, library.panels);
  EXPECT_EQ(cli.seed, library.seed);
  EXPECT_EQ(cli.per_type, library.per_type);
  EXPECT_EQ(cli.types, library.types);
}

TEST(ProbeOptions, FlagsSetTheirFields) {
  ProbeFlags flags;
  parse_flags(flags, bind_probe_flags,
              {"set", "--panels", "--per-type", "3", "--seed", "8", "--types", "count,shape"});
  const evaluation::ProbeOptions o = probe_options(flags);
  EXPECT_TRUE(o.panels);
  EXPECT_EQ(o.per_type, 3);
  EXPECT_EQ(o.seed, 8U);
  EXPECT_EQ(o.types, (std::vector{evaluation::ProbeType::kCount, evaluation::ProbeType::kShape}));
}

TEST(VlmOptions, DefaultsAreTheLibrarys) {
  const evaluation::VlmOptions library;
  ShowFlags flags;
  parse_flags(flags, bind_show_flags, {"set"});
  const evaluation::VlmOptions cli = vlm_options(flags);
  EXPECT_EQ(cli.panels, library.panels);
  EXPECT_EQ(cli.with_answer, library.with_answer);
  EXPECT_EQ(cli.shuffle_seed, library.shuffle_seed);
  EXPECT_EQ(cli.style.has_value(), library.style.has_value());
}

}  // namespace
}  // namespace rave::cli
