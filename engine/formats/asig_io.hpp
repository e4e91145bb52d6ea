#pragma once
// Problems as text: the `.asig` format (docs/asig.md). A whole problem (configuration, rule groups
// with their parameters, the 16 panels as attributed A-SIG sentences, target, predict, I-RAVEN's
// modifications) in a line-based file that converts losslessly to and from engine::Problem and so
// to and from the RAVEN XML (xml_io.hpp): XML -> .asig -> XML gives the same bytes.
//
//   std::string text = write_asig(problem);          // canonical text
//   Problem p = read_asig("RAVEN_0_train.asig");     // InputError with file:line:col on bad input
//   std::string s = panel_sentence(p.config, p.context[0]);
//   // Scene Singleton Grid Center_Single[Number=0 Uniformity=2] Entity[slot=0 ...] / / / / /
#include <filesystem>
#include <string>
#include <string_view>

#include "engine/model/problem.hpp"
#include "grammar/tree.hpp"

namespace rave::engine {

/// The attributed A-SIG tree of one panel: the configuration's structure tree, each Layout with
/// [Number Uniformity] (Number omitted when it has no entity) and its Entities [slot Type Size
/// Color Angle] in Position order. Precondition: one ComponentPanel per component.
grammar::Tree panel_tree(ConfigId config, const Panel& panel);
/// write_sentence(panel_tree(config, panel)).
std::string panel_sentence(ConfigId config, const Panel& panel);
/// Reads a panel from its attributed sentence, checked against the configuration and the value
/// tables; throws grammar::SyntaxError or InputError located at `file_name`:1:col.
Panel parse_panel_sentence(ConfigId config, std::string_view sentence,
                           std::string_view file_name = "<panel>");

/// The canonical .asig text of a problem (ends with a newline). An unknown rule parameter is
/// written `?` and reads back as value 0, value_known false (what read_problem_xml gives).
std::string write_asig(
    const Problem& problem);  ///< UsageError for a variant's problem (docs/variants.md)
/// Parses .asig text; `file_name` names the source in errors (InputError, place "line:col").
Problem parse_asig(std::string_view text, std::string_view file_name);
/// Reads an .asig file.
Problem read_asig(const std::filesystem::path& path);

}  // namespace rave::engine
