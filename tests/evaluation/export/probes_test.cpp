// Perception probes (evaluation/export/probes.hpp): the answers are those of the problem perception reads
// back from the pixels (so the picture determines them), every question of each type on a sample of
// each configuration, the answer among the choices, and a folder written the same for any thread
// count with answers balanced per type.
#include "evaluation/export/probes.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/generate.hpp"
#include "engine/model/configuration.hpp"
#include "engine/render/render.hpp"
#include "perception/panel_parse.hpp"
#include "tests/engine/support/reference_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::evaluation {
namespace {

namespace fs = std::filesystem;
using Candidates = std::array<std::vector<Probe>, kProbeTypes>;

engine::Problem sample(engine::ConfigId config, std::uint64_t seed) {
  return engine::generate_problem(config, engine::AnswerStrategy::kIRaven, seed, 0);
}

// The problem as perception reads its pictures (the first reading of every entity); nullopt when a
// panel does not parse exactly.
std::optional<engine::Problem> read_back(const engine::Problem& p) {
  engine::Problem read = p;
  const std::vector<engine::Image> images = engine::render_problem(p);
  for (int i = 0; i < p.panel_count(); ++i) {
    const auto parse =
        perception::parse_panel(p.config, images[static_cast<std::size_t>(i)].data());
    if (!parse.exact) return std::nullopt;
    read.panel(i) = parse.panel;
  }
  return read;
}

// What a probe asks, without its answer.
std::string key(const Probe& q) {
  std::string k(probe_type_name(q.type));  // appends: GCC 12 warns wrongly on "," + std::string
  k.append(":").append(std::to_string(q.component)).append(":").append(std::to_string(q.row));
  for (int i : q.panels) k.append(",").append(std::to_string(i));
  if (q.attribute) k.append(":").append(probe_attr_name(*q.attribute));
  for (ProbeAttr a : q.attributes) k.append("+").append(probe_attr_name(a));
  return k;
}

std::map<std::string, std::string> answers(const Candidates& c) {
  std::map<std::string, std::string> out;
  for (const auto& per_type : c)
    for (const Probe& q : per_type) out[key(q)] = q.answer;
  return out;
}

class ProbesPerConfig : public ::testing::TestWithParam<int> {};

// The picture determines every answer: the problem perception reads back (first readings, which
// differ from the truth where two levels draw the same pixels) gets the same answer to every
// question asked of the true problem. Without the visibility filter the O-IG squares of Size 2 and
// 3 and the near-white greys give other answers here.
TEST_P(ProbesPerConfig, AnswersAreThoseOfThePixelsReadBack) {
  const auto config = static_cast<engine::ConfigId>(GetParam());
  std::array<std::size_t, kProbeTypes> asked{};
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const engine::Problem p = sample(config, seed);
    const Candidates truth = probe_candidates(p);
    const auto read = read_back(p);
    ASSERT_TRUE(read.has_value()) << "seed " << seed;
    const auto seen = answers(probe_candidates(*read));
    for (int t = 0; t < kProbeTypes; ++t)
      for (const Probe& q : truth[static_cast<std::size_t>(t)]) {
        ++asked[static_cast<std::size_t>(t)];
        EXPECT_TRUE(std::find(q.choices.begin(), q.choices.end(), q.answer) != q.choices.end());
        const auto at = seen.find(key(q));
        ASSERT_NE(at, seen.end()) << "seed " << seed << ": " << key(q)
                                  << " not asked of the pixels";
        EXPECT_EQ(at->second, q.answer) << "seed " << seed << ": " << key(q);
      }
  }
  // Every configuration asks whether two panels agree and what changes along a row.
  EXPECT_GT(asked[static_cast<std::size_t>(ProbeType::kSame)], 0u);
  EXPECT_GT(asked[static_cast<std::size_t>(ProbeType::kRowChange)], 0u);
}

INSTANTIATE_TEST_SUITE_P(All, ProbesPerConfig, ::testing::Range(0, 7));

// Answers computed here from the symbols by hand for one Distribute-Four problem.
TEST(Probes, CountAndEmptyPlaceFollowTheEntities) {
  const engine::Problem p = sample(engine::ConfigId::kDistributeFour, 3);
  const Candidates c = probe_candidates(p);
  const auto& counts = c[static_cast<std::size_t>(ProbeType::kCount)];
  ASSERT_FALSE(counts.empty());
  for (const Probe& q : counts) {
    EXPECT_EQ(q.choices, (std::vector<std::string>{"1", "2", "3", "4"}));
    EXPECT_EQ(q.answer, std::to_string(p.panel(q.panels[0]).components[0].entities.size()));
  }
  static const std::vector<std::string> kPlaces{"top left", "top right", "bottom left",
                                                "bottom right"};
  for (const Probe& q : c[static_cast<std::size_t>(ProbeType::kEmptyPosition)]) {
    const auto& e = p.panel(q.panels[0]).components[0].entities;
    ASSERT_EQ(e.size(), 3u);
    int missing = 0 + 1 + 2 + 3;
    for (const engine::Entity& x : e) missing -= x.slot;
    EXPECT_EQ(q.choices, kPlaces);
    EXPECT_EQ(q.answer, kPlaces[static_cast<std::size_t>(missing)]);
  }
}

TEST(Probes, OneDifferenceNamesTheOnlySuchCandidate) {
  std::size_t asked = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const engine::Problem p = sample(engine::ConfigId::kCenterSingle, seed);
    const auto& answer =
        p.candidates[static_cast<std::size_t>(*p.target)].components[0].entities[0];
    const Candidates all = probe_candidates(p);
    for (const Probe& q : all[static_cast<std::size_t>(ProbeType::kOneDifference)]) {
      ++asked;
      int found = 0;
      for (int k = 0; k < engine::kCandidates; ++k) {
        const auto& e = p.candidates[static_cast<std::size_t>(k)].components[0].entities[0];
        const int diffs =
            (e.type != answer.type) + (e.size != answer.size) + (e.color != answer.color);
        const bool in_attr = (*q.attribute == ProbeAttr::kShape && e.type != answer.type) ||
                             (*q.attribute == ProbeAttr::kSize && e.size != answer.size) ||
                             (*q.attribute == ProbeAttr::kColor && e.color != answer.color);
        if (diffs == 1 && in_attr) {
          ++found;
          EXPECT_EQ(q.answer, std::to_string(k + 1));
        }
      }
      EXPECT_EQ(found, 1);
      EXPECT_EQ(q.choices.size(), 7u);  // every candidate but the answer
    }
  }
  EXPECT_GT(asked, 0u);  // I-RAVEN's candidates each differ from the answer in one attribute
}

TEST(Probes, NoneForAProblemRaveDoesNotDraw) {
  const engine::Problem p =
      engine::generate_problem(engine::ConfigId::kCenterSingle, engine::AnswerStrategy::kRaven, 3,
                               0, engine::Variant{.grid = 3, .values = 100}, engine::Split::kTrain);
  for (const auto& per_type : probe_candidates(p)) EXPECT_TRUE(per_type.empty());
}

std::vector<nlohmann::json> lines_of(const fs::path& file) {
  std::vector<nlohmann::json> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

// The five distribute_nine problems of the original I-RAVEN generator (XML and npz) in a set.
fs::path reference_set(const fs::path& scratch) {
  const fs::path from = engine::testing::reference_set_dir("iraven") / "distribute_nine";
  fs::create_directories(scratch / "set" / "distribute_nine");
  for (int k = 0; k < 5; ++k)
    for (const char* ext : {".xml", ".npz"}) {
      const std::string name = "RAVEN_" + std::to_string(k) + "_train" + ext;
      fs::copy_file(from / name, scratch / "set" / "distribute_nine" / name);
    }
  return scratch / "set";
}

TEST(ExportProbes, SameBytesForAnyThreadCountAndBalancedYesNo) {
  const fs::path scratch = testing::scratch_dir("probes-threads");
  const fs::path set = reference_set(scratch);
  const ProbeOptions options{.seed = 5, .per_type = 2};
  const ProbeCounts one = export_probes(set, scratch / "a", options, 1);
  export_probes(set, scratch / "b", options, 2);
  EXPECT_EQ(testing::file_tree(scratch / "a"), testing::file_tree(scratch / "b"));
  EXPECT_EQ(one.problems, 5u);
  const auto rows = lines_of(scratch / "a" / kProbeIndex);
  EXPECT_EQ(rows.size(), one.probes);
  std::map<std::string, int> same;
  for (const auto& j : rows) {
    EXPECT_TRUE(fs::is_regular_file(scratch / "a" / j["sheet"].get<std::string>()));
    if (j["type"] == "same") ++same[j["answer"].get<std::string>()];
  }
  EXPECT_EQ(same["yes"], 5);  // two a problem, the answer least used so far each time
  EXPECT_EQ(same["no"], 5);
}

TEST(ExportProbes, RefusesAFolderThatHoldsSomethingElse) {
  const fs::path scratch = testing::scratch_dir("probes-refuse");
  const fs::path set = reference_set(scratch);
  fs::create_directories(scratch / "mine");
  write_file_atomic(scratch / "mine" / "notes.txt", std::string("mine"));
  EXPECT_THROW(export_probes(set, scratch / "mine", {}, 1), UsageError);
  EXPECT_EQ(read_file(scratch / "mine" / "notes.txt"), "mine");
}

}  // namespace
}  // namespace rave::evaluation
