#pragma once
// The learner audit's input (`rave check --shortcuts`, docs/answer-sets.md#the-learner-audit): the
// per-candidate features of engine/audit_features.hpp for every problem file under some paths,
// read on worker threads, in file order. The learning is the Python package's
// (faces/python/rave/shortcuts.py), which gets this table through rave._rave.shortcut_features.
//
//   ShortcutTable t = shortcut_table(engine::collect_problem_files({"data/iraven"}), 2);
//   t.blind[(p * 8 + i) * t.blind_width + f]   // feature f of candidate i of problem p
#include <filesystem>
#include <string>
#include <vector>

namespace rave::jobs {

/// One row per problem file (a file that could not be read keeps zeros and its error).
struct ShortcutTable {
  std::vector<std::filesystem::path> files;
  std::vector<std::string> errors;  ///< "" when the file was read
  std::vector<int> config;          ///< configuration index (engine::config_index)
  std::vector<int> grid;            ///< the matrix side
  std::vector<int> target;          ///< the answer's index, -1 when unknown
  std::size_t blind_width = 0, bag_width = 0;
  std::vector<float> blind;  ///< problems x 8 x blind_width
  std::vector<float> bag;    ///< problems x 8 x bag_width
};

/// The features of every file in `files` (as engine::collect_problem_files lists them).
ShortcutTable shortcut_table(const std::vector<std::filesystem::path>& files, int threads);

}  // namespace rave::jobs
