#include "cli/neural/train_options.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/neural/neural_words.hpp"

namespace rave::cli {
namespace {

// The options `rave train` makes of `words` (after the subcommand).
neural::TrainOptions parsed(std::vector<std::string> words) {
  CLI::App app;
  TrainFlags flags;
  bind_train_flags(*app.add_subcommand("train"), flags);
  words.insert(words.begin(), "train");
  std::vector<const char*> argv{"rave-train"};
  for (const auto& w : words) argv.push_back(w.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  return train_options(flags);
}

// The face's defaults are the library's: only the required flags given, the options equal
// default-constructed ones in every field a flag sets (-j 0 resolves to the machine's threads).
TEST(TrainOptions, DefaultsAreTheLibrarys) {
  const neural::TrainOptions library;
  const neural::TrainOptions cli = parsed({"-m", "cnn", "-d", "data", "-o", "run"});
  EXPECT_EQ(cli.model.kind, neural::ModelKind::kCnn);
  EXPECT_EQ(cli.model.drt, library.model.drt);
  EXPECT_EQ(cli.model.drt_width, library.model.drt_width);
  EXPECT_EQ(cli.model.image_size, library.model.image_size);
  EXPECT_EQ(cli.model.wren_tag, library.model.wren_tag);
  EXPECT_EQ(cli.model.label_table, library.model.label_table);
  EXPECT_EQ(cli.train_configs, library.train_configs);
  EXPECT_EQ(cli.test_configs, library.test_configs);
  EXPECT_EQ(cli.epochs, library.epochs);
  EXPECT_EQ(cli.patience, library.patience);
  EXPECT_EQ(cli.train_limit, library.train_limit);
  EXPECT_EQ(cli.batch_size, library.batch_size);
  EXPECT_EQ(cli.learning_rate, library.learning_rate);
  EXPECT_EQ(cli.epsilon, library.epsilon);
  EXPECT_EQ(cli.weight_decay, library.weight_decay);
  EXPECT_EQ(cli.meta_alpha, library.meta_alpha);
  EXPECT_EQ(cli.meta_beta, library.meta_beta);
  EXPECT_EQ(cli.seed, library.seed);
  EXPECT_EQ(cli.loader_threads, library.loader_threads);
  EXPECT_EQ(cli.cache_mb, library.cache_mb);
  EXPECT_EQ(cli.device, library.device);
  EXPECT_EQ(cli.precision, library.precision);
  EXPECT_EQ(cli.candidates_only, library.candidates_only);
  EXPECT_EQ(cli.shuffle_candidates, library.shuffle_candidates);
  EXPECT_EQ(cli.hflip, library.hflip);
  EXPECT_EQ(cli.log_test, library.log_test);
  EXPECT_EQ(cli.init_weights, library.init_weights);
  EXPECT_EQ(cli.uniform_batch_norm_init, library.uniform_batch_norm_init);
  EXPECT_EQ(cli.flush_denormals, library.flush_denormals);
  EXPECT_EQ(cli.resume, library.resume);
  EXPECT_EQ(cli.sync_batch_norm, library.sync_batch_norm);
  EXPECT_GE(cli.threads, 1);
}

// Every flag whose word differs from its field's type lands in its field.
TEST(TrainOptions, WordsSetTheirFields) {
  const neural::TrainOptions o = parsed({"-m",
                                         "wren",
                                         "-d",
                                         "data",
                                         "-o",
                                         "run",
                                         "--device",
                                         "cpu",
                                         "--precision",
                                         "bf16",
                                         "--batch-norm-init",
                                         "uniform",
                                         "--no-tag",
                                         "--no-sync-batch-norm",
                                         "-e",
                                         "3",
                                         "--lr",
                                         "0.5",
                                         "-j",
                                         "2",
                                         "--train-configs",
                                         "center_single"});
  EXPECT_EQ(o.model.kind, neural::ModelKind::kWReN);
  EXPECT_EQ(o.device.kind, neural::Device::kCpu);
  EXPECT_EQ(o.precision, neural::Precision::kBf16);
  EXPECT_TRUE(o.uniform_batch_norm_init);
  EXPECT_FALSE(o.model.wren_tag);
  EXPECT_FALSE(o.sync_batch_norm);
  EXPECT_EQ(o.epochs, 3);
  EXPECT_EQ(o.learning_rate, 0.5);
  EXPECT_EQ(o.threads, 2);
  EXPECT_EQ(o.train_configs.size(), 1U);
}

TEST(TrainOptions, DeviceWordsRoundTrip) {
  for (const std::string word : {"auto", "cpu", "cuda", "cuda:1"})
    EXPECT_EQ(device_word(device_from_word(word)), word);
}

}  // namespace
}  // namespace rave::cli
