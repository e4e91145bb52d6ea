// Checkpoints across LibTorch versions, and damaged ones (neural/internal/checkpoint.hpp): the
// record names the LibTorch that wrote it and every parameter's shape; a checkpoint that rave 0.1
// wrote with LibTorch 1.13 (tests/fixtures/neural) still evaluates but never resumes, and its Adam
// state, which LibTorch 2.x maps onto the wrong parameters, is refused when read; a truncated or
// empty file, a changed byte anywhere (or else the same weights and record), a zip or LibTorch
// archive that is no checkpoint, a NaN or infinite weight or moment and a moment of the wrong size
// are one-line InputErrors, and nothing is stepped or rewritten; a run whose loss stops being
// finite stops with one line and leaves its checkpoints as they were.
#include <gtest/gtest.h>
#include <torch/serialize.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "engine/formats/zip.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/internal/checkpoint.hpp"
#include "neural/train_step.hpp"
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

void write_bytes(const fs::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), bytes.size());
}

// Every parameter and buffer of `a` equals `b`'s, bit for bit.
bool same_weights(RavenModelImpl& a, RavenModelImpl& b) {
  auto x = a.named_parameters(), y = b.named_parameters();
  auto bx = a.named_buffers(), by = b.named_buffers();
  if (x.size() != y.size() || bx.size() != by.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i].key() != y[i].key() || !torch::equal(x[i].value(), y[i].value())) return false;
  for (std::size_t i = 0; i < bx.size(); ++i)
    if (bx[i].key() != by[i].key() || !torch::equal(bx[i].value(), by[i].value())) return false;
  return true;
}

std::string history_text(const CheckpointInfo& info) {
  std::string text;
  for (const auto& m : info.history) text += internal::metrics_json_line(m);
  return text + std::to_string(info.epoch) + " " + std::to_string(info.best_epoch);
}

// The error's message (an InputError unless told), which must be one line naming `needle`.
template <typename Error = InputError, typename F>
std::string input_error(F&& f, const std::string& needle) {
  try {
    f();
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << what;
    return what;
  }
  ADD_FAILURE() << "no error (expected one naming '" << needle << "')";
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

// The CRC-32s of the archive's members are checked before LibTorch reads any of them (LibTorch
// checks none): 64 bytes changed in the weights were read as other weights, and rave eval
// reported 0 % instead of 50 %. Any one byte changed is refused naming the file, or else (a header
// field no reader uses) loads the very weights and record that were written.
TEST_F(CheckpointTest, AChangedByteIsRefusedOrChangesNothing) {
  train(one_epoch(data_, runs_ / "cnn", ModelKind::kCnn));
  const auto best = runs_ / "cnn" / "best.pt", bad = runs_ / "changed.pt";
  const std::string bytes = read_bytes(best);
  auto original = internal::open_checkpoint(best);
  auto reference = internal::load_model(original, best, torch::kCPU);
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < bytes.size(); i += bytes.size() / 300 + 1) at.push_back(i);
  for (std::size_t i = bytes.size() - std::min<std::size_t>(bytes.size(), 2000); i < bytes.size();
       i += 3)
    at.push_back(i);  // the central directory and the end records
  std::size_t refused = 0;
  for (const std::size_t i : at) {
    std::string changed = bytes;
    changed[i] = static_cast<char>(changed[i] ^ 0x5A);
    write_bytes(bad, changed);
    try {
      auto c = internal::open_checkpoint(bad);
      auto model = internal::load_model(c, bad, torch::kCPU);
      EXPECT_TRUE(same_weights(*model, *reference)) << "byte " << i << " changed the weights";
      EXPECT_EQ(history_text(c.info), history_text(original.info)) << "byte " << i;
      EXPECT_EQ(c.info.parameters, original.info.parameters) << "byte " << i;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(bad.string() + ":", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      ++refused;
    }
  }
  EXPECT_GE(refused, at.size() * 3 / 4) << refused << " of " << at.size();
  // The case: 64 bytes in the middle of the weights, through rave eval's path.
  std::string changed = bytes;
  for (std::size_t i = 0; i < 64; ++i) changed[bytes.size() / 2 + i] ^= static_cast<char>(0xFF);
  write_bytes(bad, changed);
  input_error([&] { evaluate({.checkpoint = bad, .data = data_, .threads = 1}); },
              "damaged or not a checkpoint: CRC mismatch in member");
}

// An empty file, and a file cut short anywhere, each one line naming it.
TEST_F(CheckpointTest, AnEmptyOrCutShortCheckpointIsRefused) {
  train(one_epoch(data_, runs_ / "cnn", ModelKind::kCnn));
  const auto last = runs_ / "cnn" / "last.pt", bad = runs_ / "short.pt";
  const std::string bytes = read_bytes(last);
  write_bytes(bad, "");
  input_error([&] { internal::open_checkpoint(bad); }, "short.pt: empty file (0 bytes)");
  for (std::size_t n : {std::size_t{1}, std::size_t{22}, std::size_t{4096}, bytes.size() / 3,
                        bytes.size() - 22, bytes.size() - 1}) {
    write_bytes(bad, std::string_view(bytes).substr(0, n));
    input_error([&] { internal::open_checkpoint(bad); }, bad.string() + ":");
  }
}

// A sound zip (an npz) and a sound LibTorch archive that rave did not write are refused as such.
TEST_F(CheckpointTest, AnArchiveThatIsNoCheckpointIsRefused) {
  const auto npz = runs_ / "problem.pt", tensor = runs_ / "tensor.pt";
  const std::vector<engine::ZipSource> members{{"image.npy", {"not an array"}}};
  write_bytes(npz, engine::write_zip(members, false));
  input_error([&] { internal::open_checkpoint(npz); }, "problem.pt: not a LibTorch archive");
  torch::save(torch::ones({3}), tensor.string());
  input_error([&] { internal::open_checkpoint(tensor); },
              "tensor.pt:rave_record: not a rave checkpoint");
}

// A run that diverged wrote NaN weights with sound CRCs; they are refused by every reader.
TEST_F(CheckpointTest, NonFiniteWeightsAreRefused) {
  train(one_epoch(data_, runs_ / "cnn", ModelKind::kCnn));
  const auto best = runs_ / "cnn" / "best.pt", bad = runs_ / "nan.pt";
  auto c = internal::open_checkpoint(best);
  auto model = internal::load_model(c, best, torch::kCPU);
  const auto parameter = model->named_parameters()[1];
  std::string buffer;
  {
    torch::NoGradGuard no_grad;
    parameter.value().view(-1)[3] = std::nanf("");
    internal::save_checkpoint(bad, c.info, *model, nullptr);
    input_error(
        [&] { evaluate({.checkpoint = bad, .data = data_, .threads = 1}); },
        "nan.pt:model: parameter '" + parameter.key() + "' holds 1 NaN and 0 infinite values");
    parameter.value().view(-1)[3] = 0.0f;
    for (const auto& b : model->named_buffers())
      if (buffer.empty() && b.key().find("running_var") != std::string::npos) {
        b.value().view(-1)[0] = INFINITY;
        buffer = b.key();
      }
  }
  ASSERT_FALSE(buffer.empty());
  internal::save_checkpoint(bad, c.info, *model, nullptr);
  input_error([&] { evaluate({.checkpoint = bad, .data = data_, .threads = 1}); },
              "buffer '" + buffer + "' holds 0 NaN and 1 infinite values");
}

// A NaN in Adam's moments (weights still finite) is refused on resume; last.pt stays as it was.
TEST_F(CheckpointTest, ANonFiniteMomentIsRefusedOnResume) {
  train(one_epoch(data_, runs_ / "cnn", ModelKind::kCnn));
  const auto last = runs_ / "cnn" / "last.pt";
  std::string name;
  {
    auto c = internal::open_checkpoint(last);
    auto model = internal::load_model(c, last, torch::kCPU);
    FusedAdam adam = make_adam(*model, {});
    internal::load_optimizer(c, last, adam, *model);
    const auto first = model->named_parameters()[0];
    name = first.key();
    adam.state_of(first.value()).exp_avg_sq().view(-1)[0] = std::nanf("");
    internal::save_checkpoint(last, c.info, *model, &adam);
  }
  const std::string before = read_bytes(last);
  auto resume = one_epoch(data_, runs_ / "cnn", ModelKind::kCnn);
  resume.epochs = 2, resume.resume = true;
  input_error([&] { train(resume); },
              "optimizer: Adam's second moment of parameter '" + name + "' holds 1 NaN");
  EXPECT_EQ(read_bytes(last), before);
}

// Weights that are finite but overflow every sum train to a NaN loss: the run stops at the first
// step with one line, before epoch 2 writes anything (it went on printing `train loss -nan`, and
// saving NaN weights, every epoch).
TEST_F(CheckpointTest, ADivergingRunStopsAndKeepsItsCheckpoints) {
  train(one_epoch(data_, runs_ / "cnn", ModelKind::kCnn));
  const auto run = runs_ / "cnn";
  {
    auto c = internal::open_checkpoint(run / "last.pt");
    auto model = internal::load_model(c, run / "last.pt", torch::kCPU);
    FusedAdam adam = make_adam(*model, {});
    internal::load_optimizer(c, run / "last.pt", adam, *model);
    torch::NoGradGuard no_grad;
    for (auto& p : model->parameters()) p.fill_(3e38f);
    internal::save_checkpoint(run / "last.pt", c.info, *model, &adam);
  }
  const std::string last = read_bytes(run / "last.pt"), best = read_bytes(run / "best.pt"),
                    metrics = read_bytes(run / "metrics.jsonl");
  auto resume = one_epoch(data_, run, ModelKind::kCnn);
  resume.epochs = 3, resume.resume = true;
  const std::string what = input_error<DivergedError>(
      [&] { train(resume); }, run.string() + ": epoch 2: the training loss of step 1 of ");
  EXPECT_NE(what.find("last.pt still holds epoch 1"), std::string::npos) << what;
  EXPECT_EQ(read_bytes(run / "last.pt"), last);
  EXPECT_EQ(read_bytes(run / "best.pt"), best);
  EXPECT_EQ(read_bytes(run / "metrics.jsonl"), metrics);
}

}  // namespace
}  // namespace rave::neural
