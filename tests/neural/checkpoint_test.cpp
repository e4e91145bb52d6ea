// Checkpoints across LibTorch versions, and damaged ones (neural/internal/checkpoint.hpp): the
// record names the LibTorch that wrote it and every parameter's shape; a checkpoint that rave 0.1
// wrote with LibTorch 1.13 (tests/fixtures/neural) still evaluates but never resumes, and its Adam
// state, which LibTorch 2.x maps onto the wrong parameters, is refused when read; a truncated file
// and a moment of the wrong size are one-line InputErrors, and nothing is stepped or rewritten.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "neural/internal/checkpoint.hpp"
#include "neural/trainer.hpp"
#include "neural/training.hpp"
#include "tests/neural/neural_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::neural {
namespace {

namespace fs = std::filesystem;
using engine::ConfigId;

fs::path libtorch113_fixture() {
  return rave::testing::source_dir() / "tests/fixtures/neural/lstm-libtorch-1.13-last.pt";
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TrainOptions one_epoch(const fs::path& data, const fs::path& out, ModelKind kind) {
  return {.model = {.kind = kind},
          .data = data,
          .out = out,
          .epochs = 1,
          .batch_size = 4,
          .learning_rate = 1e-3,
          .threads = 1,
          .loader_threads = 1};
}

// The InputError's message, which must be one line naming `needle`.
template <typename F>
std::string input_error(F&& f, const std::string& needle) {
  try {
    f();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << what;
    return what;
  }
  ADD_FAILURE() << "no InputError (expected one naming '" << needle << "')";
  return "";
}

class CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    set_compute_threads(1);
    data_ = testing::write_synthetic_dataset("checkpoint", {ConfigId::kCenterSingle}, 10);
    runs_ = rave::testing::scratch_dir("checkpoint-runs");
  }
  fs::path data_, runs_;
};

TEST_F(CheckpointTest, RecordsTheLibTorchAndEveryParameterShape) {
  train(one_epoch(data_, runs_ / "cnn", ModelKind::kCnn));
  for (const char* file : {"last.pt", "best.pt"}) {
    const CheckpointInfo info = read_checkpoint_info(runs_ / "cnn" / file);
    EXPECT_EQ(info.libtorch, internal::libtorch_version()) << file;
    auto model = make_model({.kind = ModelKind::kCnn});
    EXPECT_EQ(info.parameters, internal::parameter_shapes(*model)) << file;
    ASSERT_FALSE(info.parameters.empty());
  }
  EXPECT_EQ(internal::libtorch_version().substr(0, 2), "2.");
}

TEST_F(CheckpointTest, ALibTorch113CheckpointEvaluatesButNeverResumes) {
  auto c = internal::open_checkpoint(libtorch113_fixture());
  EXPECT_EQ(c.info.libtorch, "");
  EXPECT_TRUE(c.info.parameters.empty());
  ASSERT_EQ(c.info.model.kind, ModelKind::kLstm);
  auto model = internal::load_model(c, libtorch113_fixture(), torch::kCPU);  // weights by name
  EXPECT_EQ(parameter_count(*model), 143960);
  input_error([&] { internal::check_resumable(c, libtorch113_fixture()); },
              "libtorch: written by LibTorch 1.13 (no version recorded), and this rave runs "
              "LibTorch " +
                  internal::libtorch_version());
  // Through the trainer: the folder's last.pt is refused before any epoch runs or file changes.
  fs::create_directories(runs_ / "old");
  fs::copy_file(libtorch113_fixture(), runs_ / "old" / "last.pt");
  auto resume = one_epoch(data_, runs_ / "old", ModelKind::kLstm);
  resume.epochs = 3, resume.resume = true;
  input_error([&] { train(resume); }, "cannot be resumed");
  EXPECT_EQ(read_bytes(runs_ / "old" / "last.pt"), read_bytes(libtorch113_fixture()));
  EXPECT_FALSE(fs::exists(runs_ / "old" / "metrics.jsonl"));
}

// LibTorch 2.x parses 1.13's keys (pointer text) as 0: every parameter gets one parameter's
// moments. The check after loading names the first that does not fit.
TEST_F(CheckpointTest, ALibTorch113AdamStateIsRefusedNotStepped) {
  auto c = internal::open_checkpoint(libtorch113_fixture());
  auto model = internal::load_model(c, libtorch113_fixture(), torch::kCPU);
  FusedAdam adam = make_adam(*model, {});
  input_error([&] { internal::load_optimizer(c, libtorch113_fixture(), adam, *model); },
              "optimizer: Adam's state of parameter");
}

TEST_F(CheckpointTest, ATruncatedCheckpointIsOneLineInputError) {
  train(one_epoch(data_, runs_ / "cnn", ModelKind::kCnn));
  const auto last = runs_ / "cnn" / "last.pt";
  const std::string bytes = read_bytes(last);
  std::ofstream(last, std::ios::binary | std::ios::trunc).write(bytes.data(), bytes.size() / 2);
  input_error([&] { evaluate({.checkpoint = last, .data = data_, .threads = 1}); }, "last.pt");
  auto resume = one_epoch(data_, runs_ / "cnn", ModelKind::kCnn);
  resume.epochs = 2, resume.resume = true;
  input_error([&] { train(resume); }, "last.pt");
}

// A moment of the wrong size in last.pt: the resume stops naming the parameter, before a step.
TEST_F(CheckpointTest, AWrongSizedMomentIsRefusedOnResume) {
  train(one_epoch(data_, runs_ / "cnn", ModelKind::kCnn));
  const auto last = runs_ / "cnn" / "last.pt";
  {
    auto c = internal::open_checkpoint(last);
    auto model = internal::load_model(c, last, torch::kCPU);
    FusedAdam adam = make_adam(*model, {});
    internal::load_optimizer(c, last, adam, *model);
    const auto first = model->named_parameters()[0];
    adam.state_of(first.value()).exp_avg(torch::zeros({7}));
    internal::save_checkpoint(last, c.info, *model, &adam);
  }
  const std::string before = read_bytes(last);
  const auto name = make_model({.kind = ModelKind::kCnn})->named_parameters()[0].key();
  auto resume = one_epoch(data_, runs_ / "cnn", ModelKind::kCnn);
  resume.epochs = 2, resume.resume = true;
  input_error([&] { train(resume); }, "optimizer: Adam's state of parameter '" + name +
                                          "' does not fit it: the first moment has shape [7]");
  EXPECT_EQ(read_bytes(last), before);
}

// Weights of another shape under the right names are refused, recorded or not (LibTorch's load
// would replace the parameter with whatever shape the file holds).
TEST_F(CheckpointTest, WeightsOfAnotherShapeAreRefused) {
  train(one_epoch(data_, runs_ / "cnn", ModelKind::kCnn));
  const auto best = runs_ / "cnn" / "best.pt";
  auto c = internal::open_checkpoint(best);
  c.info.parameters[0].shape.push_back(1);
  auto model = make_model({.kind = ModelKind::kCnn});
  input_error([&] { internal::load_weights(c, best, *model); }, "parameters: weights do not fit");
}

}  // namespace
}  // namespace rave::neural
