#pragma once
// Sentence -> tree. Parses the two text forms of the A-SIG (docs/format.md#structure-sentence,
// DESIGN.md "Formats"): structure sentences as the npz `structure` field stores them (tokens
// separated by whitespace or '.', `/` closing each node) and attributed sentences, where a Layout
// may carry `[Number=.. Position=.. Uniformity=..]` and Entity nodes `[slot=.. Type=.. Size=..
// Color=.. Angle=..]`. The grammar checks levels (Scene > Structure > Component > Layout > Entity,
// names from vocabulary.hpp), attribute names (each at most once) and `/` balance; attribute values
// are kept as written (levels are digits, Position is slot indices like `0,3`). Errors throw
// SyntaxError.
//
//   Tree t = parse_sentence("Scene Singleton Grid Center_Single / / / /");
//   Tree s = parse_sentence("Scene.Out_In.Out.Out_Center_Single./././.", "RAVEN_0_train.npz");
//   write_sentence(parse_sentence(text)) == text   // for canonical text (writer.hpp)
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "grammar/syntax_error.hpp"
#include "grammar/tree.hpp"

namespace rave::grammar {

/// Parses one sentence; `file_name` names the source in errors. Throws SyntaxError.
Tree parse_sentence(std::string_view text, std::string_view file_name = "<sentence>");

/// Where the parts of a parsed sentence are in its text, for errors found after parsing.
struct SourceMap {
  std::vector<std::size_t> nodes;                    ///< byte offset of each node's name, by NodeId
  std::vector<std::vector<std::size_t>> attributes;  ///< offset of each attribute's name, by NodeId
};
/// As parse_sentence, and fills `where` (cleared first).
Tree parse_sentence(std::string_view text, std::string_view file_name, SourceMap& where);
/// Parses the npz `structure` token array (tokens joined by single spaces before parsing).
Tree parse_tokens(std::span<const std::string> tokens, std::string_view file_name = "<structure>");
/// Reads a file holding one sentence and parses it; errors name the file.
Tree load_sentence(const std::filesystem::path& path);

}  // namespace rave::grammar
