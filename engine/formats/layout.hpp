#pragma once
// The dataset layout of the original generator (docs/format.md, "Dataset layout"): one folder per
// configuration, problem k stored as `RAVEN_<k>_<split>.npz` and `.xml`, its split given by k
// mod 10.
//
//   Split s = split_of(/*k=*/7, /*val=*/2, /*test=*/2);     // kVal
//   std::string stem = problem_stem(7, s);                  // "RAVEN_7_val"
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/model/variant.hpp"  // Split, split_name

namespace rave::engine {

/// The most bytes rave reads from one problem file (.xml, .npz, .asig) and unpacks from one npz. A
/// problem needs under 1 MB (an uncompressed npz is about 412 KB, an XML under 70 KB); the cap
/// bounds what a hostile file costs.
inline constexpr std::size_t kMaxProblemFileBytes = std::size_t{8} << 20;

/// The original's split: k mod 10 below 10-val-test is train, below 10-test val, else test.
Split split_of(std::uint64_t k, int val, int test);
/// "RAVEN_<k>_<split>" (no extension).
std::string problem_stem(std::uint64_t k, Split split);

}  // namespace rave::engine
