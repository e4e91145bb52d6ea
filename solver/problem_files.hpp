#pragma once
// Finding and loading the problem files the solver reads: RAVEN problem XML (spec/raven.md 11.3),
// with the answer index taken from the .npz beside it when there is one (the XML does not store
// it), and .asig problem text (docs/asig.md), which holds its answer itself. Folders are walked
// recursively; the order is sorted, so runs are reproducible.
//
//   for (const auto& f : collect_problem_files({"data/raven"})) {
//     engine::Problem p = load_problem(f);     // p.target set when RAVEN_k_split.npz exists
//   }
#include <filesystem>
#include <vector>

#include "engine/problem.hpp"

namespace rave::solver {

/// Whether `path` names a file kind the solver reads (.xml, .asig).
bool is_problem_file(const std::filesystem::path& path);
/// Every problem file named by `inputs` (files as given, folders walked recursively), sorted within
/// each folder. Throws InputError for an input that does not exist.
std::vector<std::filesystem::path> collect_problem_files(const std::vector<std::filesystem::path>& inputs);
/// Reads one problem. For XML with `with_target`, the target comes from the .npz of the same stem
/// when that exists (engine/problem_io.hpp). Throws InputError naming the file and the place.
engine::Problem load_problem(const std::filesystem::path& file, bool with_target = true);

}  // namespace rave::solver
