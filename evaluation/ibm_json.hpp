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
// A file of any size is read in bounded memory: IbmFile indexes it in one pass (each problem's
// text checked, its key and place kept: 32 bytes a problem) and reads problem i again by its place
// when asked, from any thread; keys are problem numbers, each once.
//
//   const IbmFile file("center_single_shuffle_n_10_maxval_1000.json");
//   for (std::size_t i = 0; i < file.size(); ++i)
//     use(file.read(i));          // .key "8123", .problem.variant.grid == 10
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::evaluation {

/// One problem of an IBM JSON file.
struct IbmProblem {
  std::string key;    ///< its key in the file ("8123")
  std::string split;  ///< IBM's split of the key: "train", "val" or "test"
  engine::Problem problem;
};

namespace internal {
class ByteSource;
}

/// An IBM JSON file, indexed: its problems in key order, each read when asked.
class IbmFile {
 public:
  /// Indexes the file: InputError "file:line:col: ..." when it is not JSON, not an object of
  /// objects, or a key is no problem number (0, 1, 2, ... as IBM writes them) or comes twice;
  /// "file:problem "k" field: ..." when the first problem does not tell the file's shape.
  explicit IbmFile(const std::filesystem::path& path);
  /// The same from text; `file` names it in errors and stands for the file's name.
  IbmFile(std::string text, const std::string& file);
  ~IbmFile();
  IbmFile(IbmFile&&) noexcept;
  IbmFile& operator=(IbmFile&&) noexcept;

  /// The number of problems.
  std::size_t size() const { return index_.size(); }
  /// Problem i in key order (by number), read from the file again; safe from many threads.
  /// InputError naming the file, the problem's key and the field on anything malformed or out of
  /// range.
  IbmProblem read(std::size_t i) const;
  /// Problem i's key ("8123").
  std::string key(std::size_t i) const { return std::to_string(index_.at(i).key); }
  /// The file's name in errors.
  const std::string& name() const { return name_; }

 private:
  struct Entry {
    std::uint64_t key;
    std::uint64_t offset;
    std::uint32_t length;
    std::uint32_t line;
    std::uint32_t col;
  };
  void index();
  std::unique_ptr<const internal::ByteSource> source_;
  std::string name_;
  std::vector<Entry> index_;
  engine::ConfigId config_ = engine::ConfigId::kCenterSingle;
  engine::Variant variant_{};
};

/// Whether `path` is a JSON file (not a rave export, .jsonl), read as IBM's.
bool is_ibm_json(const std::filesystem::path& path);
/// Whether the .json file at `path` holds IBM's problems rather than `rave export` lines (whose
/// first key is "id"): looks at its first key only.
bool holds_ibm_problems(const std::filesystem::path& path);
/// Every problem of the file, in key order (numeric keys by number), all in memory (small files,
/// tests; IbmFile reads one at a time).
std::vector<IbmProblem> read_ibm_json(const std::filesystem::path& path);
/// The same from text; `file` names it in errors and stands for the file's name.
std::vector<IbmProblem> parse_ibm_json(std::string_view text, const std::string& file);

}  // namespace rave::evaluation
