// Image benchmarks for vision-language models: the files and JSON line of one problem, the answer
// drawn and named nowhere unless asked, N x N prompts, the values > 5 refusal, and whole folders
// written the same for any thread count and not at all on a bad file.
#include "evaluation/export/vlm.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/png.hpp"
#include "engine/generate.hpp"
#include "engine/render/render.hpp"
#include "engine/render/sheet.hpp"
#include "tests/engine/support/reference_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::evaluation {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

engine::Problem sample(int grid = 3, int values = 0) {
  const engine::Variant variant{.grid = grid, .values = values};
  return engine::generate_problem(engine::ConfigId::kDistributeFour, engine::AnswerStrategy::kRaven,
                                  7, 3, variant, engine::Split::kTrain);
}

const VlmSource kSource{.id = "distribute_four/RAVEN_3_train", .split = "train"};

TEST(VlmEntry, SheetAloneByDefaultAndNoAnswerAnywhere) {
  const engine::Problem p = sample();
  ASSERT_TRUE(p.target.has_value());
  const VlmEntry e = vlm_entry(kSource, p, {});
  ASSERT_EQ(e.files.size(), 1u);
  EXPECT_EQ(e.files[0].path, "distribute_four/RAVEN_3_train.png");
  const Json j = Json::parse(e.line);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"configuration", "grid", "id", "sheet", "sheet_prompt",
                                            "split"}));  // nlohmann sorts the keys
  EXPECT_EQ(j["id"], kSource.id);
  EXPECT_EQ(j["configuration"], "distribute_four");
  EXPECT_EQ(j["split"], "train");
  EXPECT_EQ(j["grid"], 3);
  EXPECT_EQ(j["sheet"], e.files[0].path);
  EXPECT_EQ(j["sheet_prompt"], sheet_prompt(3));
  EXPECT_EQ(e.line.find("answer\""), std::string::npos);
}

TEST(VlmEntry, TheSheetIsAnswerFreeAndLabelledFromOne) {
  const engine::Problem p = sample();
  const auto images = engine::render_problem(p);
  const std::string answer_free = engine::encode_gray_png(
      engine::problem_sheet(images, engine::SheetOptions{.first_label = 1}));
  const std::string framed = engine::encode_gray_png(
      engine::problem_sheet(images, engine::SheetOptions{.answer = p.target, .first_label = 1}));
  const std::string from_zero =
      engine::encode_gray_png(engine::problem_sheet(images, engine::SheetOptions{}));
  EXPECT_NE(answer_free, framed);
  EXPECT_NE(answer_free, from_zero);
  EXPECT_EQ(vlm_entry(kSource, p, {}).files[0].bytes, answer_free);
  EXPECT_EQ(vlm_entry(kSource, p, {.with_answer = true}).files[0].bytes, answer_free);
}

TEST(VlmEntry, WithAnswerNamesTheLabelAndTheIndex) {
  const engine::Problem p = sample();
  const Json j = Json::parse(vlm_entry(kSource, p, {.with_answer = true}).line);
  EXPECT_EQ(j["target"], *p.target);
  EXPECT_EQ(j["answer"], candidate_label(*p.target));
  engine::Problem unknown = p;
  unknown.target.reset();
  const Json u = Json::parse(vlm_entry(kSource, unknown, {.with_answer = true}).line);
  EXPECT_TRUE(u["answer"].is_null() && u["target"].is_null());
}

TEST(VlmEntry, PanelsInOrderContextThenCandidates) {
  const engine::Problem p = sample(5);
  const VlmEntry e = vlm_entry(kSource, p, {.panels = true});
  ASSERT_EQ(e.files.size(), 1u + 24u + 8u);
  EXPECT_EQ(e.files[1].path, kSource.id + "/context-1.png");
  EXPECT_EQ(e.files[24].path, kSource.id + "/context-24.png");
  EXPECT_EQ(e.files[25].path, kSource.id + "/candidate-1.png");
  EXPECT_EQ(e.files[32].path, kSource.id + "/candidate-8.png");
  const auto images = engine::render_problem(p);
  EXPECT_EQ(e.files[25].bytes,
            engine::encode_gray_png(images[24], engine::kPanelSize, engine::kPanelSize));
  const Json j = Json::parse(e.line);
  ASSERT_EQ(j["panels"].size(), 32u);
  EXPECT_EQ(j["panels"][0], e.files[1].path);
  EXPECT_EQ(j["panels_prompt"], panels_prompt(5));
  EXPECT_EQ(j["grid"], 5);
}

TEST(VlmPrompts, NameTheMatrixTheImagesAndTheAnswerForm) {
  EXPECT_NE(sheet_prompt(3).find("3x3 matrix"), std::string::npos);
  EXPECT_NE(sheet_prompt(3).find("labelled 1 to 8"), std::string::npos);
  EXPECT_NE(sheet_prompt(4).find("4x4 matrix"), std::string::npos);
  EXPECT_NE(panels_prompt(3).find("Images 1 to 8 are the panels"), std::string::npos);
  EXPECT_NE(panels_prompt(3).find("Images 9 to 16 are the candidates 1 to 8"), std::string::npos);
  EXPECT_NE(panels_prompt(10).find("Images 100 to 107"), std::string::npos);
  for (const std::string& prompt : {sheet_prompt(3), panels_prompt(3)})
    EXPECT_NE(prompt.find("Answer with the number of the candidate (1-8) only."),
              std::string::npos);
}

TEST(VlmEntry, MoreThanFiveValuesIsRefusedNamingTheFile) {
  const engine::Problem p = sample(3, 100);
  try {
    vlm_entry({.id = "x", .file = "set/x.xml"}, p, {});
    FAIL() << "drew a problem with 100 levels";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "set/x.xml");
    EXPECT_NE(e.message().find("100 levels"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(check_drawable(sample(3, 5), "five.xml"));
}

// Three reference problems of the original I-RAVEN generator (XML and npz) in a scratch set.
fs::path small_set(const fs::path& scratch) {
  const fs::path from = engine::testing::reference_set_dir("iraven") / "center_single";
  fs::create_directories(scratch / "set" / "center_single");
  for (const char* stem : {"RAVEN_0_train", "RAVEN_1_train", "RAVEN_2_train"})
    for (const char* ext : {".xml", ".npz"})
      fs::copy_file(from / (std::string(stem) + ext),
                    scratch / "set" / "center_single" / (std::string(stem) + ext));
  return scratch / "set";
}

TEST(ExportVlm, SameBytesForAnyThreadCount) {
  const fs::path scratch = testing::scratch_dir("vlm-threads");
  const fs::path set = small_set(scratch);
  const VlmCounts n = export_vlm(set, scratch / "one", {.panels = true}, 1);
  EXPECT_EQ(n.problems, 3u);
  EXPECT_EQ(n.images, 3u * 17u);
  export_vlm(set, scratch / "two", {.panels = true}, 2);
  const auto one = testing::file_tree(scratch / "one");
  EXPECT_EQ(one, testing::file_tree(scratch / "two"));
  EXPECT_EQ(one.size(), 3u * 17u + 1u);
  const std::string& lines = one.at(std::string(kVlmIndex));
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 3);
  EXPECT_EQ(lines.find("\"answer\""), std::string::npos);
  const Json first = Json::parse(lines.substr(0, lines.find('\n')));  // outlives the loop
  for (const auto& path : first["panels"]) EXPECT_TRUE(one.count(path)) << path;
}

TEST(ExportVlm, ABadFileLeavesTheFolderAsItWas) {
  const fs::path scratch = testing::scratch_dir("vlm-bad");
  const fs::path set = small_set(scratch);
  export_vlm(set, scratch / "out", {}, 2);
  const auto before = testing::file_tree(scratch / "out");
  write_file_atomic(set / "center_single" / "RAVEN_1_train.xml", std::string("<Data><Panels>"));
  try {
    export_vlm(set, scratch / "out", {.panels = true}, 2);
    FAIL() << "a malformed XML was exported";
  } catch (const InputError& e) {
    EXPECT_EQ(fs::path(e.file()).filename(), "RAVEN_1_train.xml") << e.what();
  }
  EXPECT_EQ(testing::file_tree(scratch / "out"), before);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(scratch)) ++entries;
  EXPECT_EQ(entries, 2u) << "a temporary folder was left beside the output";  // set, out
}

TEST(ExportVlm, ReplacesOnlyABenchmarkFolder) {
  const fs::path scratch = testing::scratch_dir("vlm-replace");
  EXPECT_TRUE(vlm_output_replaceable(scratch / "absent"));
  EXPECT_TRUE(vlm_output_replaceable(scratch));  // empty
  write_file_atomic(scratch / "notes.txt", std::string("mine"));
  EXPECT_FALSE(vlm_output_replaceable(scratch));
  EXPECT_FALSE(vlm_output_replaceable(scratch / "notes.txt"));
  EXPECT_THROW(export_vlm(small_set(scratch / "in"), scratch, {}, 1), UsageError);
  EXPECT_EQ(read_file(scratch / "notes.txt"), "mine");
  write_file_atomic(scratch / kVlmIndex, std::string(""));
  EXPECT_TRUE(vlm_output_replaceable(scratch));
}

}  // namespace
}  // namespace rave::evaluation
