#pragma once
// Panel <-> attributed sentence, located (internal; engine/formats/asig_panel.cpp): the .asig
// reader parses each panel sentence in place inside the file text, so every error names the file's
// line:col.
#include <cstddef>
#include <string>
#include <string_view>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine::internal {

/// Reads the panel sentence `text.substr(offset, length)`; errors are InputError(file, line:col in
/// `text`) or grammar::SyntaxError located in `text`.
Panel read_panel_sentence(ConfigId config, std::string_view text, std::size_t offset,
                          std::size_t length, std::string_view file);

}  // namespace rave::engine::internal
