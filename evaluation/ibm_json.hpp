#pragma once
// Reads the problem files of IBM's LLM code (IBM/raven-large-language-models 5b3c5e4:
// `src/datasets/generation/iraven_task.py` for I-RAVEN, `iravenx_task.py` for I-RAVEN-X): one JSON
// object keyed by problem number, each problem {"rules": [...], "rpm": [panel, ...], "target": k}
// with N*N-1 context panels and 8 candidates, a panel a list of components, a component an entity
// ({"Type": "3", "Size": "2", "Color": "0", "Angle": "1", "Confounder0": ...}) or a grid
// ({"positions": [[y, x, h, w], ...], "entities": [...]}). docs/evaluation.md#ibms-json-files says
// what is inferred:
//  - the configuration: from the file name, as IBM's code dispatches on it (`center_single*.json`,
//    `distribute_four.json`, ...), else from the panels when they tell (a lone shape is
//    center_single, a grid's positions name its layout, a grid inside is O-IG);
//  - the variant: N from the panel count, K confounders from the "ConfounderK" keys, the level
//    count from the name's `maxval_M` (IBM's `maxval`), else the original tables when every value
//    fits them, else the smallest power of ten above the largest value; levels are kept as
//    written (IBM's Type starts at 0);
//  - the split: IBM's solver's, by number (8000..9999 test, 6000..7999 val, the rest train);
//  - the rules: their names per component, parameters unknown (`rave solve --use-rules` takes
//    them); uniformity, which the files omit, is 0.
//
//   for (const IbmProblem& p : read_ibm_json("center_single_shuffle_n_10_maxval_1000.json"))
//     use(p.key, p.problem);      // p.key "8123", p.problem.variant.grid == 10
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::evaluation {

/// One problem of an IBM JSON file.
struct IbmProblem {
  std::string key;    ///< its key in the file ("8123")
  std::string split;  ///< IBM's split of the key: "train", "val" or "test"
  engine::Problem problem;
};

/// Whether `path` is a JSON file (not a rave export, .jsonl), read as IBM's.
bool is_ibm_json(const std::filesystem::path& path);
/// Every problem of the file, in key order (numeric keys by number). InputError naming the file,
/// the problem's key and the field on anything malformed or out of range.
std::vector<IbmProblem> read_ibm_json(const std::filesystem::path& path);
/// The same from text; `file` names it in errors and stands for the file's name.
std::vector<IbmProblem> parse_ibm_json(std::string_view text, const std::string& file);

}  // namespace rave::evaluation
