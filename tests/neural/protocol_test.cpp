// PredRNet against its public code, the tree-width knob, weights from a torch.save'd dict, PredRNet's
// loss, Adam's weight decay, the horizontal-flip augmentation and the per-epoch test log
// (docs/neural.md#predrnet, docs/neural.md#protocol-flags).
#include <gtest/gtest.h>
#include <torch/nn/functional/loss.h>
#include <torch/serialize.h>
#include <torch/utils.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/model/structure.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/models.hpp"
#include "neural/pipeline.hpp"
#include "neural/structure_input.hpp"
#include "neural/train_step.hpp"
#include "tests/neural/neural_support.hpp"
#include "tests/neural/reference_formula.hpp"
#include "tests/support/test_support.hpp"

namespace rave::neural {
namespace {

using engine::ConfigId;

class ProtocolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    set_compute_threads(1);
    torch::manual_seed(5);
  }
};

// The public code's count in its README's RAVEN setting (scripts/neural/predrnet_reference.py count).
TEST_F(ProtocolTest, PredRNetHasThePublicCodesParameterCount) {
  const auto model = make_model({.kind = ModelKind::kPredRNet});
  EXPECT_EQ(parameter_count(*model), 1'277'889);
  EXPECT_EQ(display_name(model->model_options()), "PredRNet");
  EXPECT_THROW(make_model({.kind = ModelKind::kPredRNet, .drt = true}), UsageError);
}

// The same weights (the fixture's formula, by the public code's names, which rave's tensors carry)
// and the same input give the public code's logits, in eval mode and with batch statistics.
TEST_F(ProtocolTest, PredRNetForwardEqualsThePublicCode) {
  std::ifstream in(rave::testing::source_dir() / "tests/fixtures/neural/predrnet-forward.json");
  const auto fixture = nlohmann::json::parse(in);
  const auto model = make_model({.kind = ModelKind::kPredRNet});
  testing::fill_by_formula(*model);
  const ModelInput input{testing::formula_input(3, 80), torch::full({3, 6}, -1, torch::kLong),
                         torch::zeros({3})};
  const auto expect = [&](const char* key, const torch::Tensor& got) {
    for (int row = 0; row < 3; ++row) {
      const auto w = torch::tensor(fixture.at(key)[row].get<std::vector<double>>(), torch::kDouble);
      EXPECT_TRUE(torch::allclose(got[row].to(torch::kDouble), w, 1e-4, 1e-4))
          << key << " row " << row << ": " << got[row] << " vs " << w;
    }
  };
  torch::NoGradGuard no_grad;
  model->eval();
  expect("eval_logits", model->forward(input).answer);
  model->train();
  for (const auto& m : model->modules(false))
    if (dynamic_cast<torch::nn::DropoutImpl*>(m.get())) m->eval();
  expect("train_logits_no_dropout", model->forward(input).answer);
}

// --drt-width: inner nodes of width W, the root back to the feature width; W = D is the reference.
TEST_F(ProtocolTest, TreeWidthShrinksTheInnerNodes) {
  EXPECT_EQ(parameter_count(*make_model({.kind = ModelKind::kCnn, .drt = true, .drt_width = 512})),
            2'054'724);
  // proj 90,300 + leaf 812x128+128 + middle and merge 428x128+128 each + root 428x512+512
  const auto small = make_model({.kind = ModelKind::kCnn, .drt = true, .drt_width = 128});
  EXPECT_EQ(parameter_count(*small), 299'400 + 90'300 + 104'064 + 2 * 54'912 + 219'648);
  EXPECT_EQ(display_name(small->model_options()), "CNN+DRT-128");
  const DrtInput drt = drt_input(engine::structure_tree(ConfigId::kOutInGrid));
  const auto labels =
      torch::tensor(std::vector<std::int64_t>(drt.labels.begin(), drt.labels.end())).repeat({2, 1});
  const auto out =
      small->forward({torch::rand({2, 16, 80, 80}) * 255, labels, torch::full({2}, drt.indicator)});
  EXPECT_EQ(out.answer.sizes(), (std::vector<std::int64_t>{2, 8}));
  EXPECT_THROW(make_model({.kind = ModelKind::kCnn, .drt_width = 128}), UsageError);
}

// --batch-norm-init uniform: PyTorch-before-1.2's U(0, 1) batch-norm weights, from torch's generator.
TEST_F(ProtocolTest, UniformBatchNormInitIsPyTorchBefore12s) {
  const auto weights = [](std::uint64_t seed) {
    torch::manual_seed(seed);
    auto model = make_model({.kind = ModelKind::kCnn, .drt = true});
    EXPECT_EQ(uniform_batch_norm_weights(*model), 4);
    return model->named_parameters()["conv.1.weight"].clone();
  };
  const auto a = weights(3), b = weights(3);
  EXPECT_TRUE(torch::equal(a, b));
  EXPECT_FALSE(torch::equal(a, weights(4)));
  EXPECT_GE(a.min().item<float>(), 0.0f);
  EXPECT_LT(a.max().item<float>(), 1.0f);
  EXPECT_GT(a.std().item<float>(), 0.1f);  // U(0, 1): sd 0.29
}

// --init-weights: a dict of tensors by the model's names sets them; a missing parameter, an unknown
// name or another shape is an InputError naming the file.
TEST_F(ProtocolTest, InitialWeightsComeFromATorchSaveDict) {
  const auto dir = rave::testing::scratch_dir("init-weights");
  const auto source = make_model({.kind = ModelKind::kCnn});
  const auto save = [&](const c10::Dict<std::string, torch::Tensor>& dict, const std::string& n) {
    const auto bytes = torch::pickle_save(dict);
    write_file_atomic(dir / n, std::string_view(bytes.data(), bytes.size()));
    return dir / n;
  };
  c10::Dict<std::string, torch::Tensor> dict;
  for (const auto& p : source->named_parameters()) dict.insert(p.key(), p.value().detach() + 1);
  auto target = make_model({.kind = ModelKind::kCnn});
  EXPECT_EQ(load_state_dict_file(*target, save(dict, "good.pt")),
            static_cast<int>(source->parameters().size()));
  for (const auto& p : target->named_parameters())
    EXPECT_TRUE(torch::equal(p.value(), source->named_parameters()[p.key()] + 1)) << p.key();
  auto wrong = dict.copy();
  wrong.insert_or_assign("fc2.bias", torch::zeros({9}));
  EXPECT_THROW(load_state_dict_file(*target, save(wrong, "shape.pt")), InputError);
  auto extra = dict.copy();
  extra.insert("tree.leaf.weight", torch::zeros({1}));
  EXPECT_THROW(load_state_dict_file(*target, save(extra, "extra.pt")), InputError);
  auto missing = dict.copy();
  ASSERT_EQ(missing.erase("fc1.weight"), 1u);
  EXPECT_THROW(load_state_dict_file(*target, save(missing, "missing.pt")), InputError);
  write_file_atomic(dir / "junk.pt", std::string_view("not a pickle"));
  EXPECT_THROW(load_state_dict_file(*target, dir / "junk.pt"), InputError);
}

// PredRNet's loss.py: BCE with logits of the 8 scores against the one-hot answer, mean over B x 8.
TEST_F(ProtocolTest, BinaryAnswerLossIsBceAgainstTheOneHotAnswer) {
  BatchTensors b;
  b.targets = torch::tensor({3, 0}, torch::kLong);
  ModelOutput out{torch::randn({2, 8}), {}, {}};
  auto one_hot = torch::zeros({2, 8});
  one_hot[0][3] = 1;
  one_hot[1][0] = 1;
  const auto want =
      -(one_hot * torch::log_sigmoid(out.answer) + (1 - one_hot) * torch::log_sigmoid(-out.answer))
           .mean();
  EXPECT_NEAR(raven_loss(out, b, {.binary_answers = true}).item<double>(), want.item<double>(),
              1e-6);
  EXPECT_NEAR(raven_loss(out, b, {}).item<double>(),
              torch::nn::functional::cross_entropy(out.answer, b.targets).item<double>(), 1e-6);
}

// Adam's weight decay (torch's L2 term): a weight with a zero gradient moves only with it.
TEST_F(ProtocolTest, WeightDecayPullsWeightsWithoutAGradient) {
  for (const double decay : {0.0, 0.1}) {
    auto model = make_model({.kind = ModelKind::kCnn});
    auto adam = make_adam(*model, {.learning_rate = 0.01, .weight_decay = decay});
    const auto before = model->parameters()[0].detach().clone();
    for (auto& p : model->parameters()) p.mutable_grad() = torch::zeros_like(p);
    adam.step();
    EXPECT_EQ(torch::equal(model->parameters()[0], before), decay == 0.0) << decay;
  }
}

// --flush-denormals: set before torch's pool starts, a product below the smallest normal float is
// 0 in the calling thread and in the pool's (a tensor large enough to be split among them); the
// pool, once started, keeps its mode, which a later call names and leaves whole; a run records the
// setting in its checkpoints. In a child process of its own (threadsafe: a fresh torch pool).
int flush_denormals_checks() {
  set_compute_threads(2);
  const auto subnormals = [] {
    const auto product = torch::full({1 << 20}, 1e-30f) * 1e-10f;  // 1e-40: subnormal
    return (product != 0).sum().item<std::int64_t>();
  };
  set_flush_denormals(true);
  if (subnormals() != 0) return 1;
  try {
    set_flush_denormals(false);
    return 2;  // a started pool's mode changed in one thread without a word
  } catch (const UsageError& e) {
    if (std::string(e.what()).find("with subnormals flushed") == std::string::npos) return 3;
  }
  if (subnormals() != 0) return 4;  // left half-applied
  const auto data = testing::write_synthetic_dataset("flush", {ConfigId::kCenterSingle}, 10);
  const TrainResult run = train({.model = {.kind = ModelKind::kCnn},
                                 .data = data,
                                 .out = rave::testing::scratch_dir("flush-run"),
                                 .epochs = 1,
                                 .batch_size = 4,
                                 .threads = 2,
                                 .loader_threads = 1,
                                 .flush_denormals = true});
  return read_checkpoint_info(run.best_checkpoint).settings.flush_denormals ? 0 : 5;
}

TEST_F(ProtocolTest, FlushDenormalsZeroesSubnormalsInEveryComputeThread) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(flush_denormals_checks()), ::testing::ExitedWithCode(0), "");
}

// --hflip: about half the training problems mirrored each epoch, from (seed, epoch, file); the
// mirrored panels are the file's, each row reversed; validation (no hflip) untouched.
TEST_F(ProtocolTest, HorizontalFlipMirrorsAboutHalfTheProblems) {
  int flipped = 0;
  for (std::size_t f = 0; f < 1000; ++f) flipped += mirrored(7, 1, f) ? 1 : 0;
  EXPECT_GT(flipped, 440);
  EXPECT_LT(flipped, 560);
  int changed = 0;  // a new draw each epoch
  for (std::size_t f = 0; f < 1000; ++f) changed += mirrored(7, 1, f) != mirrored(7, 2, f) ? 1 : 0;
  EXPECT_GT(changed, 440);
  const auto data = testing::write_synthetic_dataset("hflip", {ConfigId::kCenterSingle}, 20);
  const auto files = list_split(data, engine::Split::kTrain, {});
  const PipelineOptions plain{.image_size = 80, .batch_size = 12, .seed = 7};
  PipelineOptions flip = plain;
  flip.hflip = true;
  const auto a = BatchStream(files, plain, 1).next();
  const auto b = BatchStream(files, flip, 1).next();
  ASSERT_TRUE(a && b);
  int seen = 0;
  for (std::int64_t i = 0; i < a->size; ++i) {
    const std::size_t panel = 16 * 80 * 80, at = static_cast<std::size_t>(i) * panel;
    LoadedProblem p;
    p.image.assign(a->images.begin() + static_cast<std::ptrdiff_t>(at),
                   a->images.begin() + static_cast<std::ptrdiff_t>(at + panel));
    if (mirrored(7, 1, a->positions[static_cast<std::size_t>(i)])) {
      mirror_panels(p, 80);
      ++seen;
    }
    EXPECT_TRUE(std::equal(p.image.begin(), p.image.end(),
                           b->images.begin() + static_cast<std::ptrdiff_t>(at)))
        << i;
  }
  EXPECT_GT(seen, 0);
  EXPECT_EQ(b->targets, a->targets);
}

// --log-test: every epoch's test accuracy per configuration in metrics.jsonl, marked as diagnosis;
// the training itself (losses, validation, the best epoch) is bit for bit the run without it.
TEST_F(ProtocolTest, TestLogRecordsEveryEpochAndChangesNothingElse) {
  const auto data = testing::write_synthetic_dataset(
      "log-test", {ConfigId::kCenterSingle, ConfigId::kDistributeFour}, 10);
  const auto runs = rave::testing::scratch_dir("log-test-runs");
  TrainOptions o{.model = {.kind = ModelKind::kCnn},
                 .data = data,
                 .out = runs / "plain",
                 .epochs = 3,
                 .batch_size = 4,
                 .learning_rate = 1e-3,
                 .threads = 1,
                 .loader_threads = 1};
  const TrainResult plain = train(o);
  o.out = runs / "logged";
  o.log_test = true;
  const TrainResult logged = train(o);
  ASSERT_EQ(logged.history.size(), 3u);
  for (std::size_t e = 0; e < 3; ++e) {
    EXPECT_EQ(logged.history[e].train_loss, plain.history[e].train_loss);
    EXPECT_EQ(logged.history[e].val_loss, plain.history[e].val_loss);
    EXPECT_TRUE(logged.history[e].has_test);
    EXPECT_FALSE(plain.history[e].has_test);
    EXPECT_EQ(logged.history[e].test.problems(), 4);
    EXPECT_EQ(logged.history[e].device, "cpu");
  }
  EXPECT_EQ(logged.best_epoch, plain.best_epoch);
  EXPECT_EQ(logged.test.correct, plain.test.correct);
  std::ifstream metrics(runs / "logged" / "metrics.jsonl");
  std::string line;
  std::getline(metrics, line);
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j.at("test_total").get<std::vector<int>>(), (std::vector<int>{2, 2, 0, 0, 0, 0, 0}));
  EXPECT_EQ(j.at("test_use").get<std::string>().substr(0, 14), "diagnosis only");
  EXPECT_EQ(j.at("device").get<std::string>(), "cpu");
}

}  // namespace
}  // namespace rave::neural
