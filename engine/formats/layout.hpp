#pragma once
// The dataset layout of the original generator (docs/format.md, "Dataset layout"): one folder per
// configuration, problem k stored as `RAVEN_<k>_<split>.npz` and `.xml`, its split given by k
// mod 10. The one home of the problem-file name: written by problem_stem, read back by
// parse_problem_name, which every reader of names uses.
//
//   Split s = split_of(/*k=*/7, /*val=*/2, /*test=*/2);     // kVal
//   std::string stem = problem_stem(7, s);                  // "RAVEN_7_val"
//   ProblemName n = parse_problem_name("a/RAVEN_7_val.npz"); // {"RAVEN", 7, kVal}
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
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

/// The parts of a problem file's name that problem_stem writes, each unset when the name lacks it.
struct ProblemName {
  std::string prefix;              ///< "RAVEN" for rave's and the original generators' files
  std::optional<std::uint64_t> k;  ///< the problem's number
  std::optional<Split> split;      ///< the split the name says
};
/// Reads a stem (a file name without its extension), each part found from the end: a last
/// "_train", "_val" or "_test" with something before it is the split; then "_<digits>" ending what
/// is left, with something before it, is k (leading zeros allowed; a number above 2^64 - 1 is
/// none); the rest is the prefix. "RAVEN_7_val" -> RAVEN, 7, val; "RAVEN_7" -> RAVEN, 7, no split;
/// "notes_val" -> notes, no k, val; "_test" -> "_test" alone. Whether a name must also be exactly
/// what problem_stem writes (the dataset layout's rule) is the caller's to check.
ProblemName parse_problem_stem(std::string_view stem);
/// parse_problem_stem of `file`'s stem (std::filesystem::path::stem: ".hidden_val" is its own
/// stem, "RAVEN_3_test.tar.xml" has the stem "RAVEN_3_test.tar" and so no split).
ProblemName parse_problem_name(const std::filesystem::path& file);

}  // namespace rave::engine
