#pragma once
// The problems of an evaluation set as `rave export` and `rave score` see them: every problem file
// under a folder (.xml with the target from the npz beside it, or .asig), or every problem of an
// IBM JSON file (ibm_json.hpp: ids are its keys, splits IBM's), each with its id, its
// configuration and split, its answer when known, and what the two reference players make of it:
// the rule-abducing solver (answer and verdict: is the answer provably unique?) and the
// context-blind shortcut of docs/answer-sets.md#the-context-blind-shortcut (which candidate it
// picks without the matrix).
//
//   for_each_item("data/raven", 1, [](const Item& item, const engine::Problem& p) { ... });
//   std::vector<Item> key = load_items("data/raven", 2);     // the answer key of rave score
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"
#include "solver/solution.hpp"

namespace rave::evaluation {

/// One problem of an evaluation set.
struct Item {
  std::string id =
      {};  ///< path below the set's folder without extension: "center_single/RAVEN_0_train"
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  std::string split =
      {};  ///< "train", "val", "test" (the file name's suffix) or "" when it has none
  std::optional<int> answer = {};        ///< index of the answer among the candidates, when known
  int candidates = engine::kCandidates;  ///< number of candidates
  solver::Verdict verdict =
      solver::Verdict::kNone;  ///< the solver's, rules inferred (heuristic backend)
  int solver_answer = 0;       ///< the solver's choice, -1 when it has none (verdict none)
  int blind_answer = 0;        ///< the context-blind choice
  /// The problem's rules as "Attribute Rule" ("Type Progression", "Number/Position Constant"),
  /// each once over its components, sorted; empty when unknown (rule_labels).
  std::vector<std::string> rules = {};
};

/// The rules of a problem as Item::rules holds them.
std::vector<std::string> rule_labels(const engine::Problem& problem);

/// The id of `file` in a set rooted at `root` (a folder, or the file itself: then its stem).
std::string item_id(const std::filesystem::path& root, const std::filesystem::path& file);
/// The split a file's name says ("a/RAVEN_3_val.xml" -> "val"; engine::parse_problem_name), or "".
std::string named_split(const std::filesystem::path& file);

/// The problem files under `root` (.xml and .asig, engine::collect_problem_files' order); throws
/// InputError naming `root` when there are none.
std::vector<std::filesystem::path> problem_files_under(const std::filesystem::path& root);

/// The ids of a folder's problems, taken in file order: `take` throws InputError naming both files
/// when file `i`'s id is one an earlier file had (RAVEN_0_train.xml beside RAVEN_0_train.asig).
class UniqueIds {
 public:
  explicit UniqueIds(const std::vector<std::filesystem::path>& files) : files_(files) {}
  void take(const std::string& id, std::size_t i);

 private:
  const std::vector<std::filesystem::path>& files_;
  std::unordered_map<std::string, std::size_t> seen_;
};

/// Reads every problem under `root` (a folder walked recursively, one file, or an IBM .json) on
/// `threads` workers and calls `visit` in file order on the calling thread. Throws InputError for
/// a file that cannot be read (the first in file order), for a folder without problem files, and
/// for two files with the same id (RAVEN_0_train.xml beside RAVEN_0_train.asig).
void for_each_item(const std::filesystem::path& root, int threads,
                   const std::function<void(const Item&, const engine::Problem&)>& visit);
/// The items alone, in file order.
std::vector<Item> load_items(const std::filesystem::path& root, int threads);

}  // namespace rave::evaluation
