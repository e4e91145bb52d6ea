#include "tests/neural/neural_support.hpp"

#include <gtest/gtest.h>
#include <spawn.h>

#include "common/atomic_file.hpp"
#include "common/random.hpp"
#include "engine/formats/layout.hpp"
#include "engine/model/structure.hpp"
#include "tests/support/test_support.hpp"

extern char** environ;

namespace rave::neural::testing {

engine::NpzContents synthetic_problem(engine::ConfigId config, std::uint64_t seed) {
  Rng rng(seed);
  engine::NpzContents c;
  c.image.resize(16 * 160 * 160);
  for (auto& px : c.image) px = static_cast<std::uint8_t>(rng.below(256));
  c.target = rng.below(8);
  c.predict = c.target;
  for (auto& row : c.meta_matrix)
    for (auto& bit : row) bit = static_cast<std::uint8_t>(rng.coin());
  for (std::size_t j = 0; j < 9; ++j)
    for (const auto& row : c.meta_matrix) c.meta_target[j] |= row[j];
  c.structure = engine::structure_tokens(config);
  c.meta_structure = engine::meta_structure(config);
  return c;
}

std::filesystem::path write_synthetic_dataset(const std::string& tag,
                                              const std::vector<engine::ConfigId>& configs,
                                              int per_config) {
  auto root = rave::testing::scratch_dir(tag);
  for (auto config : configs) {
    const auto dir = root / std::string(engine::configuration(config).folder);
    std::filesystem::create_directories(dir);
    for (int k = 0; k < per_config; ++k) {
      const auto seed = mix64(static_cast<std::uint64_t>(engine::config_index(config)) * 1000 + k);
      const std::string stem =
          engine::problem_stem(static_cast<std::uint64_t>(k), engine::split_of(k, 2, 2));
      const std::string bytes = engine::encode_npz(synthetic_problem(config, seed), false);
      write_file_atomic(dir / (stem + ".npz"), std::string_view(bytes));
    }
  }
  return root;
}

pid_t start_test_process(const std::string& test, const std::vector<std::string>& variables) {
  std::vector<std::string> env = variables;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string exe = "/proc/self/exe", filter = "--gtest_filter=" + test;
  char* argv[] = {exe.data(), filter.data(), nullptr};
  pid_t pid = 0;
  EXPECT_EQ(::posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()), 0);
  return pid;
}

}  // namespace rave::neural::testing
