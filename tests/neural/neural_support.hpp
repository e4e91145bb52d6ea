#pragma once
// Synthetic RAVEN datasets for the neural tests: real npz files (engine's encoder), random panels,
// the true structure fields of each configuration, targets drawn from a seed. They exercise the
// pipeline and the trainer without the generator or the reference corpus. And the test binary
// started again as a peer process (distributed and shared-memory tests).
//
//   auto root = write_synthetic_dataset("pipeline", {ConfigId::kCenterSingle}, /*per_config=*/20);
//   // root/center_single/RAVEN_0_train.npz ... RAVEN_19_test.npz
//   // (k mod 10: 0-5 train, 6-7 val, 8-9 test)
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/formats/npz.hpp"
#include "engine/model/configuration.hpp"

namespace rave::neural::testing {

/// One problem's npz contents: random 16x160x160 panels, target from `seed`, the configuration's
/// structure / meta_structure, a random meta_matrix.
engine::NpzContents synthetic_problem(engine::ConfigId config, std::uint64_t seed);

/// A fresh folder with `per_config` problems per configuration, split by k mod 10 as the original.
std::filesystem::path write_synthetic_dataset(const std::string& tag,
                                              const std::vector<engine::ConfigId>& configs,
                                              int per_config);

/// Starts this test binary again running only `test` ("Suite.Name", registered in the child from
/// its environment), with `variables` ("NAME=value") before the inherited environment.
pid_t start_test_process(const std::string& test, const std::vector<std::string>& variables);

}  // namespace rave::neural::testing
