#pragma once
// Tree -> sentence. A sentence is the pre-order serialization with `/` closing each node
// (docs/format.md#structure-sentence): `Scene Singleton Grid Center_Single / / / /`. Attributed
// nodes are written `Label[name=value ...]`. Also the derived forms the npz stores: the token array
// of `structure` and the 21-slot `meta_structure` multi-hot vector.
//
//   std::vector<std::string> tokens = structure_tokens(tree);   // npz `structure`
//   std::string text = write_sentence(tree);                    // joined with single spaces
//   parse_sentence(text) gives the tree back (parse.hpp): the round trip is the identity.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "grammar/tree.hpp"

namespace rave::grammar {

/// Tokens of the pre-order serialization, attributes written inline (`Entity[Type=3 ...]`).
std::vector<std::string> sentence_tokens(const Tree& tree);
/// The tokens joined by single spaces: the canonical text form.
std::string write_sentence(const Tree& tree);
/// One node per line, children indented by two spaces, attributes inline (`rave parse` prints it).
std::string write_indented(const Tree& tree);
/// npz `structure`: the serialization down to Layout level, without attributes or entities.
std::vector<std::string> structure_tokens(const Tree& tree);
/// npz `meta_structure`: bit i set when kMetaStructureNames[i] labels a node of the tree.
std::array<std::uint8_t, 21> meta_structure(const Tree& tree);

}  // namespace rave::grammar
