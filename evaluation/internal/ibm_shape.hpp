#pragma once
// What every problem of an IBM JSON file shares (ibm_json.hpp): the configuration (from the
// file's name, else the first problem's panels), the grid side and confounder count (from the
// first problem) and the level count (from the name's `maxval_M`, else every problem's largest
// value). Each problem's JSON goes through one ShapeScan as the file is indexed, so that the shape
// is known, from one pass over the file, before the first problem is read.
//
//   ShapeScan scan(file);
//   scan.first(key, problem);            // the first problem in file order
//   if (scan.needs_levels()) scan.levels(problem);   // every problem, the first included
//   const FileShape shape = scan.finish();
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"
#include "engine/model/variant.hpp"

namespace rave::evaluation::internal {

using Json = nlohmann::json;

/// An integer written as IBM writes it: a decimal string ("833"), or a JSON integer.
std::optional<long long> integer_of(const Json& v);
/// Whether a component is a grid ({"positions": ..., "entities": ...}).
bool is_grid(const Json& component);
/// The slot of `layout` at a bbox's centre [y, x, ...], or -1.
int slot_at(const engine::LayoutSpec& layout, const Json& bbox);

/// The configuration and variant of a whole file.
struct FileShape {
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  engine::Variant variant{};
};

/// Gathers a file's shape from its problems.
class ShapeScan {
 public:
  explicit ShapeScan(const std::string& file);
  /// Whether the level count must come from the values (the name gives no `maxval_M`).
  bool needs_levels() const { return !named_values_; }
  /// The configuration, grid side and confounders, from the file's first problem `key`.
  void first(const std::string& key, const Json& problem);
  /// Every value of a problem, into the largest and whether all fit the original tables.
  void levels(const Json& problem);
  /// The shape; InputError when the level count is out of range.
  FileShape finish() const;

 private:
  const std::string& file_;
  std::optional<int> named_values_;
  FileShape shape_;
  std::string first_key_;
  long long largest_ = 0;
  bool original_ = true;
};

}  // namespace rave::evaluation::internal
