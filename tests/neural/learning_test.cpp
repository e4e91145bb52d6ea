// Every model can learn: each of the eight (four baselines, with and without the DRT), and SCL,
// memorises a small set of random problems with random answers, reaching 100% accuracy in eval mode
// within a bounded number of Adam steps. Sized for CI: 8 problems of 80x80 panels (ResNet and SCL
// too), one thread.
#include <gtest/gtest.h>

#include "engine/model/structure.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/structure_input.hpp"
#include "neural/train_step.hpp"

namespace rave::neural {
namespace {

constexpr std::int64_t kProblems = 8;

struct LearningCase {
  ModelOptions model;
  int max_steps;  ///< about 3 times what the model needed when the test was written
  friend void PrintTo(const LearningCase& c, std::ostream* os) { *os << display_name(c.model); }
};

// Random problems spread over two configurations (one and two components, so both tree shapes).
BatchTensors random_set() {
  torch::manual_seed(21);
  const DrtInput one = drt_input(engine::structure_tree(engine::ConfigId::kCenterSingle));
  const DrtInput two = drt_input(engine::structure_tree(engine::ConfigId::kLeftRight));
  BatchTensors b;
  b.input.images = torch::randint(0, 256, {kProblems, kPanels, 80, 80}).to(torch::kFloat);
  std::vector<std::int64_t> labels;
  std::vector<float> indicator;
  for (std::int64_t i = 0; i < kProblems; ++i) {
    const DrtInput& d = i % 2 ? two : one;
    labels.insert(labels.end(), d.labels.begin(), d.labels.end());
    indicator.push_back(d.indicator);
  }
  b.input.labels = torch::tensor(labels).view({kProblems, 6});
  b.input.indicator = torch::tensor(indicator);
  b.targets = torch::randint(0, 8, {kProblems}, torch::kLong);
  b.meta_target = torch::randint(0, 2, {kProblems, kMetaTargetBits}).to(torch::kFloat);
  b.meta_structure = torch::randint(0, 2, {kProblems, kMetaStructureBits}).to(torch::kFloat);
  b.configs = torch::zeros({kProblems}, torch::kLong);
  return b;
}

class LearningTest : public ::testing::TestWithParam<LearningCase> {};

TEST_P(LearningTest, MemorisesASmallSet) {
  set_compute_threads(1);
  const auto& c = GetParam();
  const auto data = random_set();
  torch::manual_seed(3);
  auto model = make_model(c.model);
  auto adam = make_adam(*model, {.learning_rate = 1e-3});
  const StepStats start = eval_step(*model, data, nullptr);
  int steps = 0;
  std::int64_t correct = 0;
  while (steps < c.max_steps && correct < kProblems) {
    for (int i = 0; i < 5; ++i, ++steps) train_step(*model, adam, data, {});
    correct = eval_step(*model, data, nullptr).correct;
  }
  EXPECT_EQ(correct, kProblems) << display_name(c.model) << " after " << steps << " steps";
  EXPECT_LT(start.correct, kProblems);  // it did not know them before
  RecordProperty("steps", steps);
}

std::string case_name(const ::testing::TestParamInfo<LearningCase>& info) {
  std::string name = display_name(info.param.model);
  for (auto& ch : name)
    if (ch == '+' || ch == '-') ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    AllModels, LearningTest,
    ::testing::Values(LearningCase{{.kind = ModelKind::kCnn}, 60},
                      LearningCase{{.kind = ModelKind::kCnn, .drt = true}, 60},
                      LearningCase{{.kind = ModelKind::kLstm}, 60},
                      LearningCase{{.kind = ModelKind::kLstm, .drt = true}, 60},
                      LearningCase{{.kind = ModelKind::kWReN}, 50},
                      LearningCase{{.kind = ModelKind::kWReN, .drt = true}, 50},
                      LearningCase{{.kind = ModelKind::kResNet, .image_size = 80}, 60},
                      LearningCase{{.kind = ModelKind::kResNet, .drt = true, .image_size = 80}, 60},
                      LearningCase{{.kind = ModelKind::kScl, .image_size = 80}, 30}),
    case_name);

}  // namespace
}  // namespace rave::neural
