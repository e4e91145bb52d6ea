// Training and evaluation: the loss of docs/neural-reference.md the trainer end to end on synthetic
// npz files (checkpoints, metrics, resume = uninterrupted run, resume with other settings refused),
// evaluation per configuration, bad checkpoints and options as one-line errors, bf16 autocast, and
// the resize against LibTorch's antialiased bilinear interpolation. Learning: learning_test.cpp.
#include <gtest/gtest.h>
#include <torch/cuda.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/functional/upsampling.h>
#include <torch/utils.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/model/resize.hpp"
#include "engine/model/structure.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/structure_input.hpp"
#include "neural/train_step.hpp"
#include "tests/neural/neural_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::neural {
namespace {

using engine::ConfigId;
namespace F = torch::nn::functional;

class TrainingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    set_compute_threads(1);  // bit-exact runs (and no oversubscription on the CI's 2 cores)
    torch::manual_seed(11);
  }
};

// Random problems of one configuration as device tensors.
BatchTensors random_batch(std::int64_t n, ConfigId config = ConfigId::kOutInCenter) {
  const DrtInput drt = drt_input(engine::structure_tree(config));
  BatchTensors b;
  b.input.images = torch::randint(0, 256, {n, 16, 80, 80}).to(torch::kFloat);
  b.input.labels =
      torch::tensor(std::vector<std::int64_t>(drt.labels.begin(), drt.labels.end())).repeat({n, 1});
  b.input.indicator = torch::full({n}, drt.indicator);
  b.targets = torch::randint(0, 8, {n}, torch::kLong);
  b.meta_target = torch::randint(0, 2, {n, 9}).to(torch::kFloat);
  b.meta_structure = torch::randint(0, 2, {n, 21}).to(torch::kFloat);
  b.configs = torch::full({n}, engine::config_index(config), torch::kLong);
  return b;
}

// A host batch as CPU tensors: the grey levels as floats, the rest as given, and every tensor
// owning its memory (the trainer drops the host batch before the step).
TEST_F(TrainingTest, HostBatchTensorsOwnTheirMemory) {
  const auto data = testing::write_synthetic_dataset("to-tensors", {ConfigId::kCenterSingle}, 10);
  BatchStream stream(list_split(data, engine::Split::kTrain, {}), {.batch_size = 3}, 1);
  HostBatch host = *stream.next();
  const BatchTensors t = to_tensors(host, torch::kCPU);
  const auto images = torch::tensor(std::vector<float>(host.images.begin(), host.images.end()))
                          .reshape({3, 16, 80, 80});
  const auto targets = torch::tensor(host.targets);
  ASSERT_EQ(t.input.images.scalar_type(), torch::kFloat);
  EXPECT_TRUE(torch::equal(t.input.images, images));
  EXPECT_TRUE(torch::equal(t.targets, targets));
  std::fill(host.images.begin(), host.images.end(), std::uint8_t{7});
  std::fill(host.targets.begin(), host.targets.end(), 7);
  EXPECT_TRUE(torch::equal(t.input.images, images));
  EXPECT_TRUE(torch::equal(t.targets, targets));
}

TEST_F(TrainingTest, LossIsCrossEntropyPlusWeightedMeanBce) {
  auto model = make_model({.kind = ModelKind::kResNet, .image_size = 80});
  const auto batch = random_batch(4);
  torch::NoGradGuard no_grad;
  model->eval();
  const auto out = model->forward(batch.input);
  const double ce = F::cross_entropy(out.answer, batch.targets).item<double>();
  // Mean of -y log s(x) - (1 - y) log(1 - s(x)), written in the stable form (the logits of an
  // untrained ResNet on raw 0..255 pixels are large).
  const auto bce = [](const torch::Tensor& x, const torch::Tensor& y) {
    return (torch::relu(x) - x * y + torch::log1p(torch::exp(-x.abs()))).mean().item<double>();
  };
  const double rules = bce(out.meta_target, batch.meta_target);
  const double nodes = bce(out.meta_structure, batch.meta_structure);
  EXPECT_NEAR(raven_loss(out, batch, {}).item<double>(), ce, 1e-6);
  EXPECT_NEAR(raven_loss(out, batch, {.meta_alpha = 2.0, .meta_beta = 10.0}).item<double>(),
              ce + 2 * nodes + 10 * rules, 1e-3);
}

TrainOptions small_run(const std::filesystem::path& data, const std::filesystem::path& out,
                       int epochs) {
  return {.model = {.kind = ModelKind::kCnn, .drt = true},
          .data = data,
          .out = out,
          .epochs = epochs,
          .batch_size = 4,
          .learning_rate = 1e-3,
          .threads = 1,
          .loader_threads = 2};
}

TEST_F(TrainingTest, TrainsChecksPointsAndResumesExactly) {
  const auto data = testing::write_synthetic_dataset(
      "train", {ConfigId::kCenterSingle, ConfigId::kOutInGrid}, 10);
  const auto runs = rave::testing::scratch_dir("runs");
  std::vector<Progress> reports;
  const TrainResult whole =
      train(small_run(data, runs / "whole", 2), [&](const Progress& p) { reports.push_back(p); });
  ASSERT_EQ(whole.history.size(), 2u);
  EXPECT_EQ(whole.train_problems, 12u);
  EXPECT_EQ(whole.test.problems(), 4);
  EXPECT_EQ(whole.test.total[0], 2);
  EXPECT_EQ(whole.test.total[6], 2);
  EXPECT_EQ(whole.parameters, 2'054'724);
  EXPECT_TRUE(whole.history[0].best);
  EXPECT_FALSE(reports.empty());
  EXPECT_EQ(reports.front().phase, "train");
  EXPECT_EQ(reports.front().steps, 3u);

  std::ifstream metrics(runs / "whole" / "metrics.jsonl");
  std::string line;
  int lines = 0;
  while (std::getline(metrics, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j.at("epoch").get<int>(), ++lines);
    EXPECT_DOUBLE_EQ(j.at("val_accuracy").get<double>(),
                     whole.history[static_cast<std::size_t>(lines - 1)].val_accuracy);
  }
  EXPECT_EQ(lines, 2);

  train(small_run(data, runs / "split", 1));
  auto resumed_options = small_run(data, runs / "split", 2);
  resumed_options.resume = true;
  const TrainResult resumed = train(resumed_options);
  ASSERT_EQ(resumed.history.size(), 2u);
  EXPECT_EQ(resumed.history[1].train_loss, whole.history[1].train_loss);
  EXPECT_EQ(resumed.history[1].val_loss, whole.history[1].val_loss);

  const CheckpointInfo info = read_checkpoint_info(whole.best_checkpoint);
  EXPECT_EQ(info.model.kind, ModelKind::kCnn);
  EXPECT_TRUE(info.model.drt);
  EXPECT_EQ(info.model.label_table, "glove");
  EXPECT_EQ(info.settings.learning_rate, 1e-3);
  EXPECT_EQ(info.settings.batch_size, 4);
  EXPECT_EQ(info.history.size(),
            static_cast<std::size_t>(info.best_epoch));  // the record as of that epoch
  EXPECT_EQ(info.best_epoch, whole.best_epoch);
  const EvalResult eval =
      evaluate({.checkpoint = whole.best_checkpoint, .data = data, .threads = 1});
  EXPECT_EQ(eval.accuracy.correct, whole.test.correct);
  EXPECT_EQ(eval.accuracy.total, whole.test.total);
  EXPECT_NEAR(eval.loss, whole.test_loss, 1e-6);

  // Another model in the same folder, a foreign file, an unexpected model: one-line InputErrors.
  auto other = small_run(data, runs / "whole", 3);
  other.model = {.kind = ModelKind::kResNet, .image_size = 80};
  other.resume = true;
  EXPECT_THROW(train(other), InputError);
  EXPECT_THROW(train(small_run(data, runs / "whole", 3)),
               UsageError);  // a run is there: needs --resume
  EXPECT_THROW(
      evaluate(
          {.checkpoint = whole.best_checkpoint, .data = data, .expect_model = ModelKind::kWReN}),
      InputError);
  write_file_atomic(runs / "junk.pt", std::string_view("definitely not a checkpoint"));
  EXPECT_THROW(evaluate({.checkpoint = runs / "junk.pt", .data = data}), InputError);
  EXPECT_THROW(read_checkpoint_info(runs / "missing.pt"), InputError);
}

// A resumed run must repeat its checkpoint's settings; the error names every difference.
TEST_F(TrainingTest, ResumeRefusesOtherSettingsNamingThem) {
  const auto data =
      testing::write_synthetic_dataset("resume-settings", {ConfigId::kCenterSingle}, 10);
  const auto runs = rave::testing::scratch_dir("resume-settings-runs");
  train(small_run(data, runs / "a", 1));
  auto o = small_run(data, runs / "a", 2);
  o.resume = true;
  o.learning_rate = 3e-4;
  o.seed = 7;
  o.model.label_table = "random";
  o.epsilon = 1.0;
  o.flush_denormals = true;
  try {
    train(o);
    FAIL() << "resumed with other settings";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("learning rate 0.001 (checkpoint) vs 0.0003 (now)"), std::string::npos)
        << what;
    EXPECT_NE(what.find("seed 12345 (checkpoint) vs 7 (now)"), std::string::npos) << what;
    EXPECT_NE(what.find("Adam epsilon 1e-08 (checkpoint) vs 1 (now)"), std::string::npos) << what;
    EXPECT_NE(what.find("flushing subnormals off (checkpoint) vs on (now)"), std::string::npos)
        << what;
    EXPECT_NE(what.find("label embeddings glove (checkpoint) vs random (now)"), std::string::npos)
        << what;
    EXPECT_EQ(what.find("--batch-size"), std::string::npos) << what;
  }
  o = small_run(
      testing::write_synthetic_dataset("resume-settings-2", {ConfigId::kCenterSingle}, 10),
      runs / "a", 2);
  o.resume = true;
  EXPECT_THROW(train(o), UsageError);  // another data folder
  o = small_run(data, runs / "a", 2);
  o.resume = true;
  EXPECT_EQ(train(o).history.size(), 2u);  // the same settings continue
}

// --patience stops a run whose validation accuracy stopped improving, also when it is resumed;
// --train-limit keeps the first problems of each configuration, val and test whole.
TEST_F(TrainingTest, PatienceStopsEarlyAndTrainLimitKeepsTheFirstProblems) {
  const auto data = testing::write_synthetic_dataset(
      "patience", {ConfigId::kCenterSingle, ConfigId::kOutInGrid}, 10);
  const auto runs = rave::testing::scratch_dir("patience-runs");
  auto o = small_run(data, runs / "a", 20);
  o.patience = 1;
  o.train_limit = 4;
  const TrainResult r = train(o);
  EXPECT_EQ(r.train_problems, 8u);
  EXPECT_EQ(r.val_problems, 4u);
  EXPECT_EQ(r.test.problems(), 4);
  // 4 validation problems: at most 5 strict improvements, so patience 1 ends it within 6 epochs.
  ASSERT_TRUE(r.stopped_early);
  ASSERT_LT(r.history.size(), 7u);
  EXPECT_EQ(r.history.size(), static_cast<std::size_t>(r.best_epoch) + 1);
  EXPECT_FALSE(r.history.back().best);
  EXPECT_EQ(read_checkpoint_info(runs / "a" / "last.pt").settings.train_limit, 4u);

  o.resume = true;  // out of patience already: no epoch, the test pass again
  const TrainResult again = train(o);
  EXPECT_EQ(again.history.size(), r.history.size());
  EXPECT_EQ(again.test.correct, r.test.correct);
  o.patience = 3;  // patience may change between sittings
  const TrainResult longer = train(o);
  EXPECT_GT(longer.history.size(), r.history.size());
  o.train_limit = 5;
  EXPECT_THROW(train(o), UsageError);  // the training set must stay the checkpoint's
  o = small_run(data, runs / "b", 1);
  o.patience = -1;
  EXPECT_THROW(train(o), UsageError);
}

// A checkpoint that knows its data's identity resumes on the same data in another folder (another
// machine), and refuses other data or a folder that cannot say what it holds.
TEST_F(TrainingTest, ResumeFollowsTheDataNotItsFolder) {
  const auto data = testing::write_synthetic_dataset("moved", {ConfigId::kCenterSingle}, 10);
  const auto runs = rave::testing::scratch_dir("moved-runs");
  auto o = small_run(data, runs / "a", 1);
  o.data_identity = "rave generate -n 10; 20 files, fnv1a64 0123456789abcdef";
  train(o);
  const auto moved = rave::testing::scratch_dir("moved-data") / "elsewhere";
  std::filesystem::copy(data, moved, std::filesystem::copy_options::recursive);
  o = small_run(moved, runs / "a", 2);
  o.resume = true;
  o.data_identity = "rave generate -n 10; 20 files, fnv1a64 0123456789abcdef";
  EXPECT_EQ(train(o).history.size(), 2u);
  EXPECT_EQ(read_checkpoint_info(runs / "a" / "last.pt").settings.data,
            std::filesystem::weakly_canonical(moved).string());
  o.epochs = 3;
  o.data_identity = "rave generate -n 10; 20 files, fnv1a64 fedcba9876543210";
  try {
    train(o);
    FAIL() << "resumed on other data";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("fnv1a64 0123456789abcdef\" (checkpoint) vs"),
              std::string::npos)
        << e.what();
  }
  o.data_identity = "";
  try {
    train(o);
    FAIL() << "resumed on data that cannot say what it is";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("has no complete rave.json"), std::string::npos)
        << e.what();
  }
}

// bf16 autocast on the CPU: the step runs, the loss is the fp32 loss to bf16's precision, and
// the weights stay fp32.
TEST_F(TrainingTest, Bf16AutocastStepMatchesFp32) {
  auto model = make_model({.kind = ModelKind::kCnn, .drt = true});
  auto adam = make_adam(*model, {});
  const auto batch = random_batch(4);
  torch::manual_seed(1);
  const double fp32 = eval_step(*model, batch, nullptr).loss;
  const double bf16 = eval_step(*model, batch, nullptr, Precision::kBf16).loss;
  EXPECT_NEAR(bf16, fp32, 0.05 * std::abs(fp32) + 0.05);
  const StepStats s = train_step(*model, adam, batch, {}, {.precision = Precision::kBf16});
  EXPECT_TRUE(std::isfinite(s.loss));
  for (const auto& p : model->parameters()) EXPECT_EQ(p.scalar_type(), torch::kFloat);
}

TEST_F(TrainingTest, BadOptionsAreUsageErrors) {
  const auto data = testing::write_synthetic_dataset("opts", {ConfigId::kCenterSingle}, 10);
  const auto out = rave::testing::scratch_dir("opts-run");
  auto o = small_run(data, out / "a", 1);
  o.meta_beta = 1.0;  // CNN has no rule-bit head
  EXPECT_THROW(train(o), UsageError);
  o = small_run(data, out / "b", 1);
  o.model.image_size = 96;
  EXPECT_THROW(train(o), UsageError);
  o = small_run(data, out / "c", 1);
  o.train_configs = {ConfigId::kUpDown};  // not in the data: empty split
  EXPECT_THROW(train(o), InputError);
}

TEST_F(TrainingTest, ResizeMatchesLibTorchAntialiasedBilinear) {
  const auto problem = testing::synthetic_problem(ConfigId::kCenterSingle, 5);
  // A smooth-ish panel (random pixels make every filter differ only in rounding): box-blur the
  // noise.
  std::vector<std::uint8_t> panel(160 * 160);
  for (int y = 0; y < 160; ++y)
    for (int x = 0; x < 160; ++x)
      panel[static_cast<std::size_t>(y * 160 + x)] =
          problem.image[static_cast<std::size_t>((y / 8) * 160 + x / 8)];
  const auto input =
      torch::from_blob(panel.data(), {1, 1, 160, 160}, torch::kUInt8).to(torch::kFloat);
  for (int side : {80, 224}) {
    std::vector<std::uint8_t> ours(static_cast<std::size_t>(side * side));
    PanelResizer(160, side)(panel.data(), ours.data());
    const auto theirs = F::interpolate(input, F::InterpolateFuncOptions()
                                                  .size(std::vector<std::int64_t>{side, side})
                                                  .mode(torch::kBilinear)
                                                  .align_corners(false)
                                                  .antialias(true))
                            .round()
                            .clamp(0, 255)
                            .to(torch::kUInt8);
    const auto mine = torch::from_blob(ours.data(), {1, 1, side, side}, torch::kUInt8);
    const auto diff = (mine.to(torch::kInt) - theirs.to(torch::kInt)).abs().max().item<int>();
    EXPECT_LE(diff, 1) << side;
  }
}

TEST_F(TrainingTest, TrainStepOnCuda_CUDA) {
  if (!torch::cuda::is_available())
    GTEST_SKIP() << "no CUDA device (or LibTorch built without CUDA)";
  auto model = make_model({.kind = ModelKind::kCnn, .drt = true});
  model->to(torch::kCUDA);
  auto adam = make_adam(*model, {});
  auto b = random_batch(4);
  BatchTensors cuda{{b.input.images.cuda(), b.input.labels.cuda(), b.input.indicator.cuda()},
                    b.targets.cuda(),
                    b.meta_target.cuda(),
                    b.meta_structure.cuda(),
                    b.configs};
  EXPECT_GT(train_step(*model, adam, cuda, {}).loss, 0.0);
  EXPECT_EQ(resolve_device_name({Device::kAuto}), "cuda:0");
}

// The GPU path: a host batch through pinned memory to cuda:0, a bf16 step, and a short run of the
// trainer on cuda:0 in bf16 (RAVE_CUDA_TRAIN_EPOCHS epochs, default 2; scripts/gpu_check.sh runs
// 100, 300 steps, and prints the last epoch's record).
TEST_F(TrainingTest, PinnedBatchesBf16AndTrainerOnCuda_CUDA) {
  if (!torch::cuda::is_available())
    GTEST_SKIP() << "no CUDA device (or LibTorch built without CUDA)";
  const auto data = testing::write_synthetic_dataset("cuda", {ConfigId::kCenterSingle}, 10);
  BatchStream stream(list_split(data, engine::Split::kTrain, {}), {.batch_size = 6}, 1);
  const HostBatch host = *stream.next();
  const BatchTensors t = to_tensors(host, torch::Device(torch::kCUDA, 0));
  EXPECT_TRUE(t.input.images.is_cuda());
  EXPECT_TRUE(torch::equal(t.input.images.cpu(), to_tensors(host, torch::kCPU).input.images));
  auto model = make_model({.kind = ModelKind::kResNet, .drt = true, .image_size = 80});
  model->to(torch::kCUDA);
  auto adam = make_adam(*model, {});
  EXPECT_TRUE(std::isfinite(train_step(*model, adam, t, {}, {.precision = Precision::kBf16}).loss));
  const char* epochs = std::getenv("RAVE_CUDA_TRAIN_EPOCHS");
  auto o =
      small_run(data, rave::testing::scratch_dir("cuda-run") / "r", epochs ? std::atoi(epochs) : 2);
  o.device = {Device::kCuda, 0};
  o.precision = Precision::kBf16;
  const TrainResult r = train(o);
  EXPECT_EQ(r.device, "cuda:0");
  ASSERT_EQ(r.history.size(), static_cast<std::size_t>(o.epochs));
  const auto& last = r.history.back();
  std::printf("epoch %d: train loss %.4f acc %.3f, %.0f problems/s\n", last.epoch, last.train_loss,
              last.train_accuracy, last.train_rate);
  EXPECT_EQ(r.test.problems(), 2);
  EXPECT_THROW(resolve_device({Device::kCuda, 64}), UsageError);  // no cuda:64
}

TEST_F(TrainingTest, CudaRequestWithoutAGpuIsAUsageError) {
  if (torch::cuda::is_available()) GTEST_SKIP() << "a GPU is present";
  EXPECT_THROW(resolve_device({Device::kCuda}), UsageError);
  EXPECT_EQ(resolve_device_name({Device::kAuto}), "cpu");
  EXPECT_THROW(resolve_device({Device::kCuda, 1}), UsageError);
}

}  // namespace
}  // namespace rave::neural
