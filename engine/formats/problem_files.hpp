#pragma once
// Finding and reading problem files, whatever their form: RAVEN problem XML (docs/format.md) with
// the answer from the .npz beside it (the XML does not store it) or from I-RAVEN's modification
// lists, the .asig text form (docs/asig.md), which holds its answer itself, and an .npz whose XML
// lies beside it. Folders are walked recursively in sorted order, so runs are reproducible.
//
//   for (const auto& f : collect_problem_files({"data/raven"})) {
//     Problem p = read_problem(f);     // p.target set when it is known
//   }
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::engine {

/// `a/b/RAVEN_0_train.xml` -> `a/b/RAVEN_0_train.npz`, and back.
std::filesystem::path sibling_npz(const std::filesystem::path& xml);
std::filesystem::path sibling_xml(const std::filesystem::path& npz);
/// The answer an I-RAVEN XML reveals: the one candidate without modifications, if unique.
std::optional<int> target_from_modifications(const Problem& problem);

/// Whether `path` names a file kind read_problem reads as a problem on its own (.xml, .asig).
bool is_problem_file(const std::filesystem::path& path);
/// Every problem file named by `inputs` (files as given, folders walked recursively), sorted within
/// each folder. Throws InputError for an input that does not exist.
std::vector<std::filesystem::path> collect_problem_files(
    const std::vector<std::filesystem::path>& inputs);
/// The same with `wanted` deciding which files of a walked folder count (e.g. .npz files).
std::vector<std::filesystem::path> collect_problem_files(
    const std::vector<std::filesystem::path>& inputs,
    const std::function<bool(const std::filesystem::path&)>& wanted);

/// How much of a problem to read.
enum class TargetSource {
  kNone,     ///< the file alone (an XML's target and predict stay unset)
  kSibling,  ///< also the .npz beside an XML (its errors propagate), else I-RAVEN's modifications
};
/// A problem from the text of a file of unknown name (standard input): RAVEN XML when its first
/// character other than blanks is '<', the .asig form otherwise. `name` names it in errors.
Problem parse_problem_text(std::string_view text, const std::string& name);
/// Reads one problem: `.xml` (with its sibling npz per `target`), `.asig`, or `.npz` (its sibling
/// XML holds the symbols; target and predict come from the npz itself). Throws InputError naming
/// the file and the place for anything unreadable or of another kind.
Problem read_problem(const std::filesystem::path& path,
                     TargetSource target = TargetSource::kSibling);

}  // namespace rave::engine
