#pragma once
// Small helpers shared by the subcommands: parsing configuration lists, answer strategies and whole
// numbers into engine values with errors that name the offending word, and the worker-count check.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/answers/answer_set.hpp"
#include "engine/model/configuration.hpp"

namespace rave::cli {

/// "center_single,O-IG" -> ids (comma or space separated; "all" or empty -> all seven); UsageError
/// naming the unknown word otherwise.
std::vector<engine::ConfigId> parse_config_list(const std::vector<std::string>& words);
/// "raven" | "iraven" | "fair"; UsageError otherwise.
engine::AnswerStrategy parse_answer_strategy(const std::string& word);
/// The help of a --style option: the presets and their parameters (engine/model/style.hpp).
std::string style_help();
/// Default worker count: the hardware's threads (at least 1).
int default_threads();
/// A path as it may be printed: control characters and bytes that are not UTF-8 escaped
/// (printable).
std::string shown(const std::filesystem::path& path);
/// A path for a JSON string: itself when it is valid UTF-8 (JSON escapes controls), else printable.
std::string json_path(const std::filesystem::path& path);
/// All of standard input (at most `max_bytes`; InputError naming <stdin> beyond, or on a read
/// error).
std::string read_standard_input(std::size_t max_bytes);
/// Most worker threads a command accepts.
inline constexpr int kMaxJobs = 1024;
/// CLI11 check of a worker count, 1..kMaxJobs (CLI::PositiveNumber's message prints DBL_MAX in
/// full).
CLI::Validator jobs_range();
/// `text` as a whole decimal number in [lo, hi] (digits only: no sign, exponent or fraction); a
/// UsageError naming `flag` otherwise. CLI11 would clamp -1, 2^64 or 10^23 silently.
std::uint64_t parse_whole_number(const std::string& text, const std::string& flag, std::uint64_t lo,
                                 std::uint64_t hi);

}  // namespace rave::cli
