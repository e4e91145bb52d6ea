#pragma once
// The A-SIG sentence grammar in Spirit X3 (internal; only grammar/parse.cpp includes it).
//
// One rule per grammar level (docs/format.md#grammar-levels), so the levels are checked by the
// grammar itself: a node's children can only be names of the next level, and every node ends with
// '/'. Rule names are the human words of error messages ("expected a Component or '/'"), because an
// expectation failure reports the name of the rule that failed. Every node name is followed by an
// expectation point, so actions never run on input that is backtracked over (see tree_builder.hpp).
// There is no recursion: the five levels bound the nesting, so no input can exhaust the stack.
#include <boost/spirit/home/x3.hpp>
#include <string>
#include <string_view>

#include "grammar/internal/config.hpp"
#include "grammar/internal/tree_builder.hpp"
#include "grammar/vocabulary.hpp"

namespace rave::grammar::parser {

///////////////////////////////////////////////////////////////////////////////
// Symbols: node names per level (value: index in kNodeNames), attribute names
// (value: index in TreeBuilder::kAllAttributeNames)
///////////////////////////////////////////////////////////////////////////////
inline x3::symbols<int> node_symbols(Level level) {
  x3::symbols<int> table;
  for (const std::string_view name : names_at(level))
    table.add(std::string(name), *node_index(name));
  return table;
}

inline x3::symbols<int> attribute_symbols(std::initializer_list<std::string_view> names) {
  x3::symbols<int> table;
  const auto& all = TreeBuilder::kAllAttributeNames;
  for (const std::string_view name : names)
    table.add(std::string(name),
              static_cast<int>(std::find(all.begin(), all.end(), name) - all.begin()));
  return table;
}

inline const x3::symbols<int> scene_names = node_symbols(Level::kRoot);
inline const x3::symbols<int> structure_names = node_symbols(Level::kStructure);
inline const x3::symbols<int> component_names = node_symbols(Level::kComponent);
inline const x3::symbols<int> layout_names = node_symbols(Level::kLayout);
inline const x3::symbols<int> entity_names = node_symbols(Level::kEntity);
inline const x3::symbols<int> position_name = attribute_symbols({"Position"});
inline const x3::symbols<int> layout_level_names = attribute_symbols({"Number", "Uniformity"});
inline const x3::symbols<int> entity_attribute_names =
    attribute_symbols({"slot", "Type", "Size", "Color", "Angle"});

///////////////////////////////////////////////////////////////////////////////
// Semantic actions: forward to the TreeBuilder in the context
///////////////////////////////////////////////////////////////////////////////
// _where(ctx) starts right after the matched name.
inline const auto open_node = [](auto& ctx) {
  x3::get<builder_tag>(ctx).open(x3::_attr(ctx), x3::_where(ctx).begin());
};
inline const auto close_node = [](auto& ctx) { x3::get<builder_tag>(ctx).close(); };
inline const auto start_attribute = [](auto& ctx) {
  x3::get<builder_tag>(ctx).attribute_name(x3::_attr(ctx), x3::_where(ctx).begin());
};
inline const auto set_value = [](auto& ctx) {
  const auto& range = x3::_attr(ctx);
  x3::get<builder_tag>(ctx).attribute_value(std::string_view(range.begin(), range.size()));
};

///////////////////////////////////////////////////////////////////////////////
// Lexical helpers
///////////////////////////////////////////////////////////////////////////////
inline const auto name_char =
    x3::char_('a', 'z') | x3::char_('A', 'Z') | x3::char_('0', '9') | x3::lit('_');
inline const auto digit = x3::char_('0', '9');

/// A whole word from `names`: "Left" must not match the start of "Leftover".
template <class Parser>
constexpr auto keyword(const Parser& names) {
  return x3::lexeme[names >> !name_char];
}

///////////////////////////////////////////////////////////////////////////////
// Rule IDs (the strings are what "expected ..." says)
///////////////////////////////////////////////////////////////////////////////
struct sentence_class;
struct scene_class;
struct structure_class;
struct component_class;
struct layout_class;
struct entity_class;
struct scene_close_class;
struct structure_close_class;
struct component_close_class;
struct layout_body_class;
struct layout_close_class;
struct entity_body_class;
struct entity_close_class;
struct layout_attributes_class;
struct layout_attribute_class;
struct layout_attributes_close_class;
struct entity_attributes_class;
struct entity_attribute_class;
struct entity_attributes_close_class;
struct equals_class;
struct level_value_class;
struct slot_list_class;
struct end_of_input_class;

///////////////////////////////////////////////////////////////////////////////
// Rules
///////////////////////////////////////////////////////////////////////////////
const x3::rule<sentence_class> sentence = "a sentence";
const x3::rule<scene_class> scene = "'Scene'";
const x3::rule<structure_class> structure = "a Structure";
const x3::rule<component_class> component = "a Component";
const x3::rule<layout_class> layout = "a Layout";
const x3::rule<entity_class> entity = "an Entity";
const x3::rule<scene_close_class> scene_close = "a Structure or '/'";
const x3::rule<structure_close_class> structure_close = "a Component or '/'";
const x3::rule<component_close_class> component_close = "a Layout or '/'";
const x3::rule<layout_body_class> layout_body = "'[', an Entity or '/'";
const x3::rule<layout_close_class> layout_close = "an Entity or '/'";
const x3::rule<entity_body_class> entity_body = "'[' or '/'";
const x3::rule<entity_close_class> entity_close = "'/'";
const x3::rule<layout_attributes_class> layout_attributes = "'['";
const x3::rule<layout_attribute_class> layout_attribute = "a Layout attribute";
const x3::rule<layout_attributes_close_class> layout_attributes_close =
    "a Layout attribute (Number, Position, Uniformity) or ']'";
const x3::rule<entity_attributes_class> entity_attributes = "'['";
const x3::rule<entity_attribute_class> entity_attribute = "an Entity attribute";
const x3::rule<entity_attributes_close_class> entity_attributes_close =
    "an Entity attribute (slot, Type, Size, Color, Angle) or ']'";
const x3::rule<equals_class> equals = "'='";
const x3::rule<level_value_class> level_value = "a level (digits)";
const x3::rule<slot_list_class> slot_list = "slot indices (digits separated by ',')";
const x3::rule<end_of_input_class> end_of_input = "end of input";

///////////////////////////////////////////////////////////////////////////////
// Grammar
///////////////////////////////////////////////////////////////////////////////
const auto close = x3::lit('/')[close_node];

const auto sentence_def = x3::eps > scene > end_of_input;

const auto scene_def = keyword(scene_names)[open_node] > *structure > scene_close;
const auto structure_def = keyword(structure_names)[open_node] > *component > structure_close;
const auto component_def = keyword(component_names)[open_node] > *layout > component_close;
const auto layout_def = keyword(layout_names)[open_node] > layout_body;
const auto entity_def = keyword(entity_names)[open_node] > entity_body;

const auto scene_close_def = close;
const auto structure_close_def = close;
const auto component_close_def = close;
const auto layout_body_def =
    (layout_attributes > *entity > layout_close) | (+entity > layout_close) | close;
const auto layout_close_def = close;
const auto entity_body_def = (entity_attributes > entity_close) | close;
const auto entity_close_def = close;

const auto layout_attributes_def = x3::lit('[') > *layout_attribute > layout_attributes_close;
const auto layout_attribute_def =
    (keyword(position_name)[start_attribute] > equals > slot_list) |
    (keyword(layout_level_names)[start_attribute] > equals > level_value);
const auto layout_attributes_close_def = x3::lit(']');
const auto entity_attributes_def = x3::lit('[') > *entity_attribute > entity_attributes_close;
const auto entity_attribute_def =
    keyword(entity_attribute_names)[start_attribute] > equals > level_value;
const auto entity_attributes_close_def = x3::lit(']');

const auto equals_def = x3::lit('=');
const auto level_value_def = x3::raw[x3::lexeme[+digit >> !name_char]][set_value];
const auto slot_list_def = x3::raw[x3::lexeme[(+digit % ',') >> !name_char]][set_value];
const auto end_of_input_def = x3::eoi;

BOOST_SPIRIT_DEFINE(sentence, scene, structure, component, layout, entity, scene_close,
                    structure_close, component_close, layout_body, layout_close, entity_body,
                    entity_close, layout_attributes, layout_attribute, layout_attributes_close,
                    entity_attributes, entity_attribute, entity_attributes_close, equals,
                    level_value, slot_list, end_of_input)

}  // namespace rave::grammar::parser
