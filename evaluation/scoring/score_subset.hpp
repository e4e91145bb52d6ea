#pragma once
// A named subset of a set for `rave score --subset FILE` (docs/evaluation.md#which-problems-count):
// a JSON list (lm-raven's subset.json) or a text file with one entry per line ('#' starts a
// comment). An entry is an id as predictions name problems (AnswerKey::find: the export's id or a
// path), or a number k: problem k of every configuration, the items whose file name is
// <prefix>_<k>_<split> or <prefix>_<k> (RAVEN_k_test in each configuration's folder), the index
// lm-raven's subset.json and IBM's ids (8000..9999: test) count.
//
//   Subset s = read_subset("subset.json", key);
//   ScoreOptions o{.selection = Selection::kSubset, .subset = s.member};
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evaluation/scoring/score.hpp"

namespace rave::evaluation {

/// The key's items a subset names.
struct Subset {
  std::vector<std::uint8_t> member = {};  ///< per key item, 1 when named
  int entries = 0;                        ///< entries of the file
  int absent = 0;                         ///< entries that name no item of the key
  std::string first_absent = {};          ///< the first of those, as written
};

/// The number k of an id whose file name is <prefix>_<k>[_<split>] (engine::parse_problem_stem of
/// its last part), else nullopt.
std::optional<std::uint64_t> problem_number(std::string_view id);

/// Reads a subset file against a key; InputError naming the file and the line (or list element)
/// for an entry that is neither an id nor a number.
Subset read_subset(const std::filesystem::path& path, const AnswerKey& key);
/// The same from text; `file` names it in errors.
Subset parse_subset(std::string_view text, const std::string& file, const AnswerKey& key);

}  // namespace rave::evaluation
