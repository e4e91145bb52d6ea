// .asig problems (engine/formats/asig_io.hpp, docs/asig.md): lossless round trips with the engine's
// Problem and with the RAVEN XML of every reference problem, generated problems with known rule
// parameters, structure sentences of the npz, and located errors.
#include "engine/formats/asig_io.hpp"
#include "engine/encode.hpp"

#include <gtest/gtest.h>

#include "common/atomic_file.hpp"
#include "common/random.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/generate.hpp"
#include "engine/model/structure.hpp"
#include "grammar/parse.hpp"
#include "grammar/writer.hpp"
#include "tests/engine/support/reference_support.hpp"

namespace rave::engine {
namespace {

// XML -> Problem -> .asig -> Problem -> XML for every problem of one reference set (target and
// predict from the manifest, as the npz beside the original XML holds them).
void expect_reference_round_trip(std::string_view set) {
  for (const auto& ref : rave::testing::reference_problems(set)) {
    SCOPED_TRACE(ref.xml.string());
    const Problem problem = testing::read_reference_problem(ref);
    const std::string text = write_asig(problem);
    const Problem back = parse_asig(text, "<asig>");
    ASSERT_EQ(back, problem);
    EXPECT_EQ(write_asig(back), text);
    EXPECT_EQ(write_problem_xml(back), read_file(ref.xml));
  }
}

TEST(AsigReference, RavenRoundTripIsByteIdentical) { expect_reference_round_trip("raven"); }

TEST(AsigReference, IRavenRoundTripKeepsModifiedAttributes) {
  expect_reference_round_trip("iraven");
  const Problem p = read_problem_xml(rave::testing::reference_problems("iraven").front().xml);
  ASSERT_TRUE(p.modified.has_value());
  EXPECT_NE(write_asig(p).find("\nmodified 7"), std::string::npos);
}

TEST(AsigReference, FairRoundTripIsByteIdentical) { expect_reference_round_trip("fair"); }

// The `structure` of the original npz (re-created and checked against its sha256) parses to the
// tree.
TEST(AsigReference, NpzStructureSentencesParseToTheConfigurationTrees) {
  for (const auto& ref : rave::testing::reference_problems("raven")) {
    SCOPED_TRACE(ref.xml.string());
    const Problem problem = testing::read_reference_problem(ref);
    const std::string npz = testing::rebuild_npz(ref, problem);
    ASSERT_EQ(rave::testing::sha256_hex(npz), ref.npz_sha256);
    const auto tokens = parse_npz(npz, "original.npz").structure();
    EXPECT_TRUE(grammar::same_tree(grammar::parse_tokens(tokens), structure_tree(problem.config)));
  }
}

TEST(AsigGenerated, KnownParametersAndAllStrategiesRoundTrip) {
  for (const auto strategy :
       {AnswerStrategy::kRaven, AnswerStrategy::kIRaven, AnswerStrategy::kFair})
    for (const auto& config : all_configurations()) {
      const Problem problem = generate_problem(config.id, strategy, 2024, 3);
      const std::string text = write_asig(problem);
      SCOPED_TRACE(text);
      const Problem back = parse_asig(text, "<asig>");
      EXPECT_EQ(back, problem);
      for (const auto& group : back.rules)
        for (const Rule& rule : group.rules) EXPECT_TRUE(rule.value_known);
    }
}

TEST(AsigStructure, EngineTokensParseBackToTheEngineTrees) {
  for (const auto& config : all_configurations()) {
    const grammar::Tree tree = grammar::parse_tokens(structure_tokens(config.id));
    EXPECT_TRUE(grammar::same_tree(tree, structure_tree(config.id))) << config.folder;
    EXPECT_EQ(grammar::meta_structure(tree), meta_structure(config.id));
  }
}

// A small valid file to break in the error tests (center_single): line 1 comment, 2 asig, 3
// configuration, 4-7 rules, 8 target, 9 predict, 10-17 context, 18-25 candidates.
std::string valid_text() {
  Problem p = generate_problem(ConfigId::kCenterSingle, AnswerStrategy::kRaven, 7, 0);
  return write_asig(p);
}

std::string error_of(const std::string& text) {
  try {
    parse_asig(text, "p.asig");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// `text` with its line `number` (1-based) replaced.
std::string replace_line(const std::string& text, int number, const std::string& line) {
  std::size_t at = 0;
  for (int i = 1; i < number; ++i) at = text.find('\n', at) + 1;
  return text.substr(0, at) + line + text.substr(text.find('\n', at));
}

TEST(AsigErrors, NameTheLineAndColumn) {
  const std::string ok = valid_text();
  ASSERT_NO_THROW(parse_asig(ok, "p.asig"));
  EXPECT_EQ(error_of(""), "p.asig:1:1: expected 'asig 1' as the first line");
  EXPECT_EQ(error_of("asig 2\n"), "p.asig:1:6: expected format version 1, got '2'");
  EXPECT_EQ(error_of(replace_line(ok, 3, "configuration square")).substr(0, 46),
            "p.asig:3:15: expected a configuration (center_");
  EXPECT_EQ(error_of(replace_line(ok, 4, "rule 0 Constant Type ?")),
            "p.asig:4:17: expected the attr of rule 1 of a group (Number/Position, Number or "
            "Position; then "
            "Type, Size, Color), got 'Type'");
  EXPECT_EQ(error_of(replace_line(ok, 8, "target 8")),
            "p.asig:8:8: expected candidate index 0..7, got '8'");
  EXPECT_EQ(error_of(replace_line(ok, 9, "predict 1 2")),
            "p.asig:9:11: expected end of line after 'predict <candidate>', got '2'");
  EXPECT_EQ(
      error_of(ok + "answer 3\n"),
      "p.asig:26:1: expected rule, target, predict, context, candidate or modified, got 'answer'");
  EXPECT_EQ(error_of(ok + "context 2 Scene /\n"),
            "p.asig:26:1: expected context 2 once, got it again (first on line 12)");
}

TEST(AsigErrors, PanelSentencesAreCheckedInPlace) {
  const std::string ok = valid_text();
  const auto with_context0 = [&](const std::string& sentence) {
    return replace_line(ok, 10, "context 0 " + sentence);
  };
  EXPECT_EQ(error_of(with_context0("Scene Singleton Grid Center_Single / / /")),
            "p.asig:10:51: expected a Structure or '/', got end of input");
  EXPECT_EQ(error_of(with_context0(
                "Scene Singleton Grid Distribute_Four[Uniformity=0] Entity[slot=0 Type=1 Size=1 "
                "Color=1 Angle=1] / / / / /")),
            "p.asig:10:32: expected Layout 'Center_Single' (center_single), got 'Distribute_Four'");
  EXPECT_EQ(error_of(with_context0(
                "Scene Singleton Grid Center_Single[Uniformity=0] Entity[slot=0 Type=6 Size=1 "
                "Color=1 Angle=1] / / / / /")),
            "p.asig:10:74: expected Type 1..5, got 6");
  EXPECT_EQ(error_of(with_context0(
                "Scene Singleton Grid Center_Single[Number=1 Uniformity=0] Entity[slot=0 Type=1 "
                "Size=1 Color=1 Angle=1] / / / / /")),
            "p.asig:10:46: expected Number=0 (1 entities), got Number=1");
  EXPECT_EQ(error_of(with_context0(
                "Scene Singleton Grid Center_Single[Uniformity=0] Entity[slot=0 Type=1 Size=1 "
                "Color=1] / / / / /")),
            "p.asig:10:60: expected Angle on Entity, got none");
  EXPECT_EQ(error_of(with_context0("Scene Singleton Grid Center_Single Entity[slot=0 Type=1 Size=1 "
                                   "Color=1 Angle=1] / / / / /")),
            "p.asig:10:32: expected Uniformity on Center_Single, got none");
}

TEST(AsigErrors, MissingPiecesAreReportedAtTheEnd) {
  const std::string ok = valid_text();
  const std::string without_candidate = replace_line(ok, 25, "# candidate 7 dropped");
  EXPECT_EQ(error_of(without_candidate),
            "p.asig:26:1: expected a line 'candidate 7 <sentence>', got end of file");
  EXPECT_EQ(error_of(replace_line(ok, 7, "#")),
            "p.asig:26:1: expected 4 rules for component 0, got 3");
  const std::string shifted = error_of(replace_line(ok, 6, "#"));  // Color moves into Size's place
  EXPECT_TRUE(shifted.starts_with("p.asig:7:") && shifted.ends_with("got 'Color'")) << shifted;
}

// Rule lines are checked against the rule table and the layout: a parameter a rule does not take,
// a value out of range and a rule the layout cannot hold are refused at their place.
TEST(AsigRules, ParametersAndRulesMustExist) {
  const std::string ok = valid_text();  // center_single: line 4 is Constant Number/Position
  EXPECT_EQ(error_of(replace_line(ok, 5, "rule 0 Constant Type +2")),
            "p.asig:5:22: Constant Type takes parameter 0, not +2");
  EXPECT_EQ(error_of(replace_line(ok, 6, "rule 0 Distribute_Three Size +1")),
            "p.asig:6:30: Distribute_Three Size takes parameter 0, not +1");
  EXPECT_EQ(error_of(replace_line(ok, 6, "rule 0 Progression Size +999999")),
            "p.asig:6:25: expected a parameter ('?' or an integer) -2..2, got '+999999'");
  EXPECT_EQ(error_of(replace_line(ok, 5, "rule 0 Arithmetic Type +1")),
            "p.asig:5:8: Arithmetic Type is not a rule of RAVEN's rule table");
  EXPECT_EQ(error_of(replace_line(ok, 4, "rule 0 Progression Number/Position +1")),
            "p.asig:4:8: Progression Number/Position is not a rule of RAVEN's rule table");
  EXPECT_EQ(error_of(replace_line(ok, 4, "rule 0 Progression Number +1")),
            "p.asig:4:8: Progression Number cannot hold in layout Center_Single (its level ranges "
            "leave no room for it)");
  EXPECT_EQ(error_of(replace_line(ok, 4, "rule 0 Progression Number ?")),
            "p.asig:4:8: Progression Number cannot hold in layout Center_Single (its level ranges "
            "leave no room for it)");
}

// A file without rule lines (what other tools export, and all the rule-free solver needs) reads
// with the rules unknown and writes back without them.
TEST(AsigRules, RuleLinesAreOptional) {
  std::string text = valid_text();
  for (int line = 4; line <= 7; ++line) text = replace_line(text, line, "#");
  const Problem problem = parse_asig(text, "p.asig");
  EXPECT_TRUE(problem.rules.empty());
  EXPECT_EQ(write_asig(problem).find("\nrule "), std::string::npos);
  EXPECT_EQ(parse_asig(write_asig(problem), "again.asig"), problem);
}

// Random one-byte edits of a valid file either still read (and then write back to text that reads
// to the same problem) or throw InputError; never another exception. Draws from Rng.
TEST(AsigErrors, MutatedFilesReadOrFailCleanly) {
  const std::string ok =
      write_asig(generate_problem(ConfigId::kOutInGrid, AnswerStrategy::kIRaven, 11, 2));
  Rng rng(77);
  int failures = 0;
  for (int i = 0; i < 1500; ++i) {
    std::string text = ok;
    const auto at = static_cast<std::size_t>(rng.below(static_cast<int>(text.size())));
    const char byte = static_cast<char>(rng.below(256));
    switch (rng.below(3)) {
      case 0: text.insert(text.begin() + static_cast<long>(at), byte); break;
      case 1: text.erase(at, 1); break;
      default: text[at] = byte; break;
    }
    try {
      const Problem problem = parse_asig(text, "m.asig");
      ASSERT_EQ(parse_asig(write_asig(problem), "again.asig"), problem);
    } catch (const InputError& e) {
      ++failures;
      ASSERT_TRUE(std::string(e.what()).starts_with("m.asig:")) << e.what();
    }
  }
  EXPECT_GT(failures, 500);
}

}  // namespace
}  // namespace rave::engine
