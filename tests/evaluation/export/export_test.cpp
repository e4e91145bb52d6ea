// The export: the json form reads back to the same symbolic problems, shuffling moves the answer
// with its candidate, --no-answer withholds it, --drop-ambiguous keeps the provably unique items.
#include "evaluation/export/export.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "evaluation/shuffle.hpp"
#include "tests/engine/support/reference_support.hpp"

namespace rave::evaluation {
namespace {

using Json = nlohmann::json;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

class ExportSet : public ::testing::TestWithParam<std::string> {};

TEST_P(ExportSet, JsonRoundTripGivesTheSameProblems) {
  const std::filesystem::path dir = engine::testing::reference_set_dir(GetParam());
  std::vector<engine::Problem> problems;
  std::vector<std::string> ids;
  for_each_item(dir, 1, [&](const Item& item, const engine::Problem& p) {
    problems.push_back(p);
    ids.push_back(item.id);
  });
  std::string text;
  const ExportCounts n = export_set(dir, {.format = ExportFormat::kJson}, 2, text);
  ASSERT_EQ(n.written, problems.size());
  const auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), problems.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const ExportedProblem back = parse_json_export_line(lines[i], "set.jsonl", i + 1);
    engine::Problem expected = problems[i];
    expected.predict.reset();  // the npz's solver choice is not part of the export
    EXPECT_EQ(back.problem, expected) << ids[i];
    EXPECT_EQ(back.id, ids[i]);
  }
}

TEST_P(ExportSet, ShuffledCandidatesKeepTheAnswer) {
  const std::filesystem::path dir = engine::testing::reference_set_dir(GetParam());
  std::string plain, shuffled_text;
  export_set(dir, {.format = ExportFormat::kText}, 1, plain);
  export_set(dir, {.format = ExportFormat::kText, .shuffle_seed = 9}, 1, shuffled_text);
  const auto a = lines_of(plain), b = lines_of(shuffled_text);
  ASSERT_EQ(a.size(), b.size());
  int moved = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Json x = Json::parse(a[i]), y = Json::parse(b[i]);
    EXPECT_EQ(x["context"], y["context"]);
    const int ax = x["answer"].get<int>(), ay = y["answer"].get<int>();
    EXPECT_EQ(x["choices"][ax], y["choices"][ay]);
    const auto order = candidate_order(9, x["id"].get<std::string>(), 8);
    EXPECT_EQ(order[static_cast<std::size_t>(ay)], ax);
    moved += ax != ay;
  }
  EXPECT_GT(moved, static_cast<int>(a.size()) / 2);
}

INSTANTIATE_TEST_SUITE_P(Sets, ExportSet, ::testing::Values("raven", "iraven", "fair"));

TEST(Export, NoAnswerAndDropAmbiguous) {
  const std::filesystem::path dir = engine::testing::reference_set_dir("iraven");
  std::string text;
  const ExportCounts n = export_set(
      dir, {.format = ExportFormat::kJson, .no_answer = true, .drop_ambiguous = true}, 1, text);
  EXPECT_EQ(n.dropped, 1u);  // iraven up_center_single_down_center_single/RAVEN_2 (docs/solver.md)
  for (const auto& line : lines_of(text)) {
    const Json j = Json::parse(line);
    EXPECT_FALSE(j.contains("answer"));
    EXPECT_FALSE(j.contains("modified"));  // I-RAVEN's modifications would reveal it
    EXPECT_FALSE(j.contains("rules"));     // ... and the rules compute it
    EXPECT_EQ(j["verdict"], "unique");
    // The line still reads back as a problem, its rules unknown.
    EXPECT_TRUE(parse_json_export_line(line, "no-answer.jsonl", 1).problem.rules.empty());
  }
}

TEST(Export, LineFieldsInOrder) {
  const std::filesystem::path dir = engine::testing::reference_set_dir("raven");
  std::string text;
  export_set(dir / "center_single", {.format = ExportFormat::kTextDisentangled}, 1, text);
  // Ids are relative to the exported folder; the fields come in the documented order.
  EXPECT_EQ(lines_of(text).front().rfind(
                "{\"id\":\"RAVEN_0_train\",\"configuration\":\"center_single\",\"split\":\"train\","
                "\"answer\":6,\"verdict\":\"ambiguous\",\"style\":\"ibm-2025\",\"prompts\":[{"
                "\"component\":\"Grid\",\"attribute\":\"type\",\"system\":\"Complete the Raven's "
                "progressive matrix:\",\"prompt\":\"Only return the missing numbers!\\nrow 1: ",
                0),
            0u);
}

// The order a line was shown in travels on the line: the shuffle seed, lm-raven's answer-first
// swap, and each problem's numpy seed of uncertain values.
TEST(Export, OrderAndSeedsAreWrittenOnTheLine) {
  const std::filesystem::path dir = engine::testing::reference_set_dir("raven");
  std::string shuffled, first, uncertain;
  export_set(dir / "center_single", {.shuffle_seed = 7}, 1, shuffled);
  EXPECT_NE(lines_of(shuffled).front().find("\"verdict\":\"ambiguous\",\"answers_shuffled\":7,"),
            std::string::npos);
  export_set(dir / "center_single", {.answer_first = true}, 1, first);
  EXPECT_NE(lines_of(first).front().find("\"answer\":0,"), std::string::npos);
  EXPECT_NE(lines_of(first).front().find("\"answer_first\":true"), std::string::npos);
  export_set(dir / "center_single", {.uncertainty_seed = 3, .text = {.uncertainty = 0.8}}, 1,
             uncertain);
  const std::string line = lines_of(uncertain).front();
  const std::string seed = std::to_string(numpy_seed(3, "RAVEN_0_train"));
  EXPECT_NE(line.find("\"uncertainty_seed\":" + seed + ","), std::string::npos);
  EXPECT_NE(line.find("::"), std::string::npos);
}

TEST(Export, BadJsonLinesNameTheField) {
  const auto error = [](std::string_view line) {
    try {
      parse_json_export_line(line, "s.jsonl", 4);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error("{\"configuration\": \"nowhere\"}"),
            "s.jsonl:line 4: \"configuration\": unknown configuration 'nowhere'");
  EXPECT_EQ(error("{\"configuration\": \"center_single\", \"context\": [1]}"),
            "s.jsonl:line 4: \"context\": 1 entries, 8 expected");
  EXPECT_EQ(error("{\"configuration\": \"center_single\""),
            "s.jsonl:line 4: not a JSON object (syntax error at column 34)");
}

}  // namespace
}  // namespace rave::evaluation
