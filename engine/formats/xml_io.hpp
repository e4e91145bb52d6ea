#pragma once
// RAVEN problem XML (docs/format.md#xml, #modified_attributes), both ways.
// The writer produces exactly the bytes Python 3's ElementTree wrote for the original generator:
// one line, no declaration, attributes in insertion order, `<X ... />` for empty elements, JSON
// lists as json.dumps formats them, `real_bbox` and `mask` recomputed from the levels. The reader
// accepts both attribute orders (Python 3 insertion order, Python 2 sorted order) and throws
// rave::InputError naming the file and the place (`line:col` for XML syntax, an element path such
// as `Data/Panels/Panel[4]/Struct/Component[2]/Layout/Entity[1]@Type` otherwise).
//
//   std::string xml = write_problem_xml(problem, entity_marks);   // marks from engine/render
//   Problem p = read_problem_xml("raven/center_single/RAVEN_0_train.xml");
//   // p.target and p.predict are nullopt: they live in the npz
#include <filesystem>
#include <string>
#include <string_view>

#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// Where the writer gets an entity's `real_bbox` and `mask`: engine/render's entity_marks (the
/// root's engine/encode.hpp passes it), or anything that computes the same text.
using EntityMarksFn = EntityMarks (*)(ConfigId config, int component, const Entity& entity);

/// The XML text of a problem (no trailing newline). Precondition: a well-formed problem (its
/// panels fitting its configuration, one rule group per component or none, no `none` entities).
/// Unknown rules (empty `rules`) are written as no Rules element. A variant (docs/variants.md) adds
/// `<Data>` attributes (grid, values, confounders, regime, hold_out, split), one Panel per panel
/// and Entity `Confounders`; `marks` null (symbolic only) leaves out `real_bbox` and
/// `mask`.
std::string write_problem_xml(const Problem& problem, EntityMarksFn marks);
/// Reads a problem XML file; throws InputError on unreadable or malformed input. `real_bbox` and
/// `mask` are derived from the levels and are not read back; target and predict stay nullopt.
/// Without a Rules element the rules are unknown (`rules` empty).
Problem read_problem_xml(const std::filesystem::path& path);
/// Parses problem XML text; `file_name` is only used in error messages.
Problem parse_problem_xml(std::string_view text, const std::string& file_name);

}  // namespace rave::engine
