// IBM's problem JSON (evaluation/ibm_json.hpp) against IBM's own code's output: tests/fixtures/ibm
// holds what IBM's `iraven_task.get_sample` (IBM/raven-large-language-models 5b3c5e4) writes for
// the reference I-RAVEN problems (tests/fixtures/reference/iraven), and three problems of its
// `iravenx_task.py` output (seed 1234, --n 10 --maxval 1000, then --nconf 3).
#include "evaluation/ibm_json.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <thread>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/model/configuration.hpp"
#include "solver/heuristic.hpp"
#include "tests/support/test_support.hpp"

namespace rave::evaluation {
namespace {

namespace fs = std::filesystem;

fs::path ibm_fixture(const std::string& name) {
  return testing::source_dir() / "tests" / "fixtures" / "ibm" / (name + ".json");
}

// The RAVEN_<k>_train stem's k.
std::string number_of(const fs::path& xml) {
  const std::string stem = xml.stem().string();
  const std::size_t a = stem.find('_') + 1;
  return stem.substr(a, stem.find('_', a) - a);
}

// Every entity the same (slot, levels) in the same order; rule names the same.
void expect_same_problem(const engine::Problem& ibm, const engine::Problem& xml,
                         const std::string& what) {
  ASSERT_EQ(ibm.config, xml.config) << what;
  ASSERT_EQ(ibm.panel_count(), xml.panel_count()) << what;
  for (int i = 0; i < xml.panel_count(); ++i)
    for (std::size_t c = 0; c < xml.panel(i).components.size(); ++c)
      EXPECT_EQ(ibm.panel(i).components[c].entities, xml.panel(i).components[c].entities)
          << what << " panel " << i << " component " << c;
  ASSERT_EQ(ibm.rules.size(), xml.rules.size()) << what;
  for (std::size_t c = 0; c < xml.rules.size(); ++c)
    for (std::size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(ibm.rules[c].rules[k].name, xml.rules[c].rules[k].name) << what;
      EXPECT_EQ(ibm.rules[c].rules[k].attr, xml.rules[c].rules[k].attr) << what;
      EXPECT_FALSE(ibm.rules[c].rules[k].value_known) << what;
    }
}

TEST(IbmJson, ReadsIbmsTranscriptionOfEveryReferenceIravenProblem) {
  std::map<std::string, std::map<std::string, IbmProblem>> by_config;
  int compared = 0;
  for (const auto& ref : testing::reference_problems("iraven")) {
    const std::string config = ref.xml.parent_path().filename().string();
    if (!by_config.contains(config))
      for (IbmProblem& p : read_ibm_json(ibm_fixture(config)))
        by_config[config].emplace(p.key, std::move(p));
    const IbmProblem& ibm = by_config.at(config).at(number_of(ref.xml));
    const engine::Problem xml = engine::read_problem(ref.xml, engine::TargetSource::kNone);
    expect_same_problem(ibm.problem, xml, ref.xml.string());
    EXPECT_EQ(ibm.problem.target, ref.target) << ref.xml;
    EXPECT_TRUE(ibm.problem.variant.is_original()) << ref.xml;
    EXPECT_EQ(ibm.split, "train");
    ++compared;
  }
  EXPECT_EQ(compared, 35);
}

TEST(IbmJson, ReadsIbmsIravenXOutputWithItsLevelConventions) {
  const auto problems =
      read_ibm_json(ibm_fixture("center_single_shuffle_n_10_maxval_1000_nconf_3"));
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].key, "0");
  EXPECT_EQ(problems[2].key, "8000");  // numeric order, IBM's test split
  EXPECT_EQ(problems[0].split, "train");
  EXPECT_EQ(problems[2].split, "test");
  solver::HeuristicSolver solver;
  for (const IbmProblem& p : problems) {
    const engine::Variant& v = p.problem.variant;
    EXPECT_EQ(v.grid, 10);
    EXPECT_EQ(v.values, 1000);
    EXPECT_EQ(v.confounders, 3);
    EXPECT_TRUE(v.ibm_levels);
    EXPECT_EQ(p.problem.context.size(), 99u);
    EXPECT_EQ(p.problem.context[0].components[0].confounders.size(), 3u);
    ASSERT_TRUE(p.problem.target.has_value());  // written as a string ("2") by IBM's default=str
    const solver::Solution s = solver.solve(p.problem);
    EXPECT_EQ(s.answer, p.problem.target) << p.key;
    EXPECT_EQ(s.verdict, solver::Verdict::kUnique) << p.key;
  }
  // Problem 0's first panel as the file writes it: Type 833, Size 233, Color 120.
  const engine::Entity& e = problems[0].problem.context[0].components[0].entities[0];
  EXPECT_EQ(e.type, 833);
  EXPECT_EQ(e.size, 233);
  EXPECT_EQ(e.color, 120);
}

// A one-problem center_single file: 8 context panels, 8 candidates.
std::string lone_shapes(const std::string& first_type = "\"3\"", const std::string& target = "1") {
  std::string rpm;
  for (int i = 0; i < 16; ++i)
    rpm += std::string(i ? "," : "") + "[{\"Type\": " + (i ? "\"3\"" : first_type) +
           ", \"Size\": \"2\", \"Color\": \"0\", \"Angle\": \"1\"}]";
  return "{\"0\": {\"rules\": [{\"Number/Position\": \"Constant\", \"Type\": \"Constant\", "
         "\"Size\": \"Constant\", \"Color\": \"Constant\"}], \"rpm\": [" +
         rpm + "], \"target\": " + target + "}}";
}

std::string error_of(const std::string& text, const std::string& file = "center_single.json") {
  try {
    parse_ibm_json(text, file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(IbmJson, TellsTheConfigurationFromThePanelsWhenTheNameDoesNot) {
  const auto p = parse_ibm_json(lone_shapes(), "problems.json");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].problem.config, engine::ConfigId::kCenterSingle);
  EXPECT_EQ(p[0].problem.target, 1);
  std::string text = read_file(ibm_fixture("distribute_nine"));
  EXPECT_EQ(parse_ibm_json(text, "renamed.json")[0].problem.config,
            engine::ConfigId::kDistributeNine);
  std::string two = read_file(ibm_fixture("left_center_single_right_center_single"));
  EXPECT_NE(error_of(two, "renamed.json").find("cannot tell the configuration"), std::string::npos);
  EXPECT_EQ(parse_ibm_json(two, "up_center_single_down_center_single.json")[0].problem.config,
            engine::ConfigId::kUpDown);
}

TEST(IbmJson, MalformedFilesAreOneLineErrorsNamingTheProblemAndField) {
  EXPECT_EQ(error_of("{\"0\": {"),
            "center_single.json:1:7: not JSON: the file ends inside problem \"0\"");
  EXPECT_NE(error_of("[1, 2]").find("not an IBM problem file"), std::string::npos);
  EXPECT_NE(error_of("{\"0\": {\"target\": 1}}").find("problem \"0\" rpm: missing"),
            std::string::npos);
  EXPECT_EQ(error_of(lone_shapes("\"x3\"")),
            "center_single.json:problem \"0\" rpm[0][0].Type: not an integer in 1..5");
  EXPECT_EQ(error_of(lone_shapes("\"3\"", "9")),
            "center_single.json:problem \"0\" target: not a candidate (0..7)");
  EXPECT_EQ(error_of(lone_shapes("\"3\"", "\"3.5\"")),
            "center_single.json:problem \"0\" target: not a candidate (0..7)");
  std::string short_rpm = lone_shapes();
  short_rpm.replace(short_rpm.find("[{\"Type\""), 1, "[{}], [");
  EXPECT_NE(error_of(short_rpm).find("17 panels"), std::string::npos);
}

TEST(IbmJson, GridPositionsMustLieOnTheLayoutOnce) {
  std::string text = read_file(ibm_fixture("distribute_four"));
  const std::string first = "0.25,\n       0.25";
  ASSERT_NE(text.find(first), std::string::npos);
  std::string off = text;
  off.replace(off.find(first), first.size(), "0.3,\n       0.25");
  EXPECT_NE(error_of(off, "distribute_four.json").find("not a position of Distribute_Four"),
            std::string::npos);
}

// The one problem of lone_shapes() under each of `keys`, in that order, one per line.
std::string keyed(const std::vector<std::string>& keys) {
  const std::string one = lone_shapes();
  const std::string body = one.substr(one.find(": ") + 2, one.size() - one.find(": ") - 3);
  std::string text = "{";
  for (std::size_t i = 0; i < keys.size(); ++i)
    text += std::string(i ? ",\n" : "\n") + " \"" + keys[i] + "\": " + body;
  return text + "\n}";
}

TEST(IbmJson, AKeyTwiceIsRefusedNamingTheKeyAndBothPlaces) {
  EXPECT_EQ(error_of(keyed({"0", "1", "0"})),
            "center_single.json:4:7: problem \"0\" comes twice (first at line 2)");
  EXPECT_EQ(parse_ibm_json(keyed({"0", "1"}), "center_single.json").size(), 2u);
}

TEST(IbmJson, AKeyThatIsNoProblemNumberIsRefusedNamingIt) {
  const std::string no_number =
      "center_single.json:3:2: the key \"%s\" is no problem number (IBM's files key problems 0, "
      "1, 2, ...)";
  for (const std::string key : {"x1", "", "-1", "007", "1.0", "1e3", " 1"}) {
    std::string expected = no_number;
    expected.replace(expected.find("%s"), 2, key);
    EXPECT_EQ(error_of(keyed({"0", key})), expected) << key;
  }
}

TEST(IbmJson, ProblemsComeInNumericOrderReadOneAtATimeFromAnyThread) {
  const IbmFile file(keyed({"10", "9", "8000", "0"}), "center_single.json");
  ASSERT_EQ(file.size(), 4u);
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < file.size(); ++i) keys.push_back(file.key(i));
  EXPECT_EQ(keys, (std::vector<std::string>{"0", "9", "10", "8000"}));
  std::vector<IbmProblem> read(file.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < file.size(); ++i)
    threads.emplace_back([&, i] { read[i] = file.read(i); });
  for (std::thread& t : threads) t.join();
  for (std::size_t i = 0; i < file.size(); ++i) {
    EXPECT_EQ(read[i].key, keys[i]);
    EXPECT_EQ(read[i].problem.target, 1);
  }
  EXPECT_EQ(read[3].split, "test");
}

TEST(IbmJson, SyntaxErrorsAndStrayTextAreNamedByLineAndColumn) {
  std::string text = keyed({"0", "1"});
  const std::size_t at = text.rfind("\"target\"");
  text = text.substr(0, at) + ']' + text.substr(at);
  EXPECT_EQ(error_of(text), "center_single.json:3:1035: not JSON");
  EXPECT_EQ(error_of(keyed({"0"}) + " x"),
            "center_single.json:3:3: text after the object of problems");
  EXPECT_EQ(error_of("{\"0\": [1]}"), "center_single.json:1:7: problem \"0\": expected an object");
  std::string no_comma = keyed({"0", "1"});
  no_comma.erase(no_comma.find(",\n"), 1);
  EXPECT_EQ(error_of(no_comma), "center_single.json:3:2: expected ',' or '}' after a problem");
}

}  // namespace
}  // namespace rave::evaluation
