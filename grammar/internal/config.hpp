#pragma once
// X3 configuration of the sentence grammar (internal; only grammar/parse.cpp includes it): the
// iterator, the separator skipper, and the context tag under which the tree builder is injected.
#include <boost/spirit/home/x3.hpp>

namespace rave::grammar::parser {

namespace x3 = boost::spirit::x3;

/// Sentences are parsed from contiguous memory.
using iterator_type = const char*;

/// Tokens are separated by ASCII whitespace or '.' (the npz `structure` joins tokens with '.',
/// docs/format.md#structure-sentence). Explicit characters, not a character class, so any byte
/// value is safe.
inline const auto separator = x3::lit(' ') | x3::lit('\t') | x3::lit('\n') | x3::lit('\r') |
                              x3::lit('\v') | x3::lit('\f') | x3::lit('.');

/// Context tag of the TreeBuilder the semantic actions write into (x3::with<builder_tag>).
struct builder_tag;

}  // namespace rave::grammar::parser
