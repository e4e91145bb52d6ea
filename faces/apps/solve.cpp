// `rave solve`: solve problem files (.xml with the npz beside it for the answer, or .asig) by rule
// abduction, with the heuristic backend (posterior ranking) or Z3 (proves the consistent set); an
// .npz with no XML beside it (every file with --from-pixels) is solved from its image alone.
// Prints the problems that are not provably unique (with the competing readings), the accuracy per
// configuration in the paper's column order when answers are known, or JSON Lines with --json.
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/perception_text.hpp"
#include "cli/progress.hpp"
#include "cli/solve_options.hpp"
#include "common/error.hpp"
#include "evaluation/ibm_json.hpp"
#include "jobs/batch.hpp"
#include "solver/explain.hpp"

namespace rave::apps {
namespace {

using jobs::FileResult;
using solver::Verdict;

nlohmann::ordered_json rules_json(const engine::Problem& problem, const solver::Reading& reading) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const auto& config = engine::configuration(problem.config);
  for (int c = 0; c < reading.count; ++c)
    for (int g = 0; g < 4; ++g) {
      const engine::Rule& rule = reading.components[c].rules[g];
      out.push_back({{"component", config.components[c].name},
                     {"attr", engine::rule_attr_text(rule.attr)},
                     {"rule", engine::rule_name_text(rule.name)},
                     {"value", rule.value},
                     {"noise", g > 0 && reading.components[c].noise[g - 1]}});
    }
  return out;
}

std::string json_line(const FileResult& r) {
  nlohmann::ordered_json j{{"file", cli::json_path(r.file)}};
  if (!r.ok()) {
    j["error"] = r.error;
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  }
  const solver::Solution& s = r.solution;
  j["configuration"] = engine::configuration(r.problem.config).folder;
  j["answer"] = s.answer ? nlohmann::ordered_json(*s.answer) : nlohmann::ordered_json(nullptr);
  if (r.problem.target) j["target"] = *r.problem.target;
  j["verdict"] = solver::verdict_name(s.verdict);
  j["consistent"] = s.consistent_candidates();
  if (!s.reason.empty()) j["reason"] = s.reason;
  if (!r.readings.empty() && r.readings.front().first == s.answer)
    j["rules"] = rules_json(r.problem, r.readings.front().second);
  if (r.readings.size() > 1) {
    nlohmann::ordered_json competing = nlohmann::ordered_json::array();
    for (const auto& [i, reading] : r.readings)
      competing.push_back({{"candidate", i}, {"rules", rules_json(r.problem, reading)}});
    j["competing"] = competing;
  }
  if (r.perceived) j["perception"] = cli::perception_json(*r.perceived);
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// "<file>: answer 6 (target 6), ambiguous: Grid: Size Progression +2 (candidate 6) | ..."
std::string text_line(const FileResult& r) {
  const solver::Solution& s = r.solution;
  std::string line = cli::shown(r.file) + ": answer " +
                     (s.answer ? std::to_string(*s.answer) : std::string("none"));
  if (r.problem.target) line += " (target " + std::to_string(*r.problem.target) + ")";
  line += ", " + std::string(solver::verdict_name(s.verdict));
  if (s.verdict == Verdict::kAmbiguous)
    line += ": " + solver::competing_readings(r.problem, r.readings);
  if (!s.reason.empty()) line += ": " + s.reason;
  return line;
}

void print_result(const FileResult& r, const cli::SolveFlags& args, bool single) {
  if (!r.ok()) {
    if (args.json) std::printf("%s\n", json_line(r).c_str());
    std::fflush(stdout);  // keep the error line in place when both streams go to a terminal
    std::fprintf(stderr, "rave: error: %s\n", r.error.c_str());
    return;
  }
  if (args.json) {
    std::printf("%s\n", json_line(r).c_str());
    return;
  }
  const bool notable = r.solution.verdict != Verdict::kUnique || (r.problem.target && !r.correct());
  if (!(args.explain || args.show_parse || single || notable)) return;
  std::printf("%s\n", text_line(r).c_str());
  if (args.show_parse && r.perceived)
    for (const auto& line : cli::parse_lines(*r.perceived)) std::printf("  %s\n", line.c_str());
  if (args.explain && !r.readings.empty() && r.readings.front().first == r.solution.answer)
    for (const auto& line : solver::explain_lines(r.problem, r.readings.front().second))
      std::printf("  %s\n", line.c_str());
}

std::string cell_text(const jobs::AccuracyTable::Cell& cell) {
  const auto acc = jobs::AccuracyTable::accuracy(cell);
  if (!acc) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", 100.0 * *acc);
  return buf;
}

// The share of perceived panels whose parse re-renders to the image byte for byte.
std::string exact_text(const jobs::AccuracyTable::Cell& cell) {
  if (cell.panels == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", 100.0 * cell.exact_panels / cell.panels);
  return buf;
}

void print_summary(const jobs::AccuracyTable& t, const cli::SolveFlags& args, double seconds) {
  FILE* out = args.json ? stderr : stdout;
  const auto& c = t.total;
  std::fprintf(out,
               "%d problems (%s backend, %s): %d unique, %d ambiguous, %d none, %d unknown; %d "
               "errors; %.2f s\n",
               c.problems, args.backend.c_str(),
               args.options.solve.use_rules ? "rule names given" : "rules abduced", c.unique,
               c.ambiguous, c.none, c.unknown, t.errors, seconds);
  if (c.with_target == 0) {
    std::fprintf(out, "no problem has a known target (no npz beside the XML): no accuracy\n");
    return;
  }
  std::fprintf(out, "accuracy %s%% on the %d of %d problems with a known target\n",
               cell_text(c).c_str(), c.with_target, c.problems);
  std::fprintf(out, "%-11s %8s", "", "Acc");
  for (const auto& config : engine::all_configurations())
    std::fprintf(out, " %8s", std::string(config.paper_name).c_str());
  std::fprintf(out, "\n%-11s %8s", "accuracy %", cell_text(c).c_str());
  for (const auto& cell : t.configs) std::fprintf(out, " %8s", cell_text(cell).c_str());
  std::fprintf(out, "\n%-11s %8d", "with target", c.with_target);
  for (const auto& cell : t.configs) std::fprintf(out, " %8d", cell.with_target);
  std::fprintf(out, "\n%-11s %8d", "problems", c.problems);
  for (const auto& cell : t.configs) std::fprintf(out, " %8d", cell.problems);
  std::fprintf(out, "\n%-11s %8d", "ambiguous", c.ambiguous);
  for (const auto& cell : t.configs) std::fprintf(out, " %8d", cell.ambiguous);
  std::fprintf(out, "\n");
  if (c.panels == 0) return;  // what perception read, beside the accuracy it led to
  std::fprintf(out, "%-11s %8d", "ident. img", c.identical_images);
  for (const auto& cell : t.configs) std::fprintf(out, " %8d", cell.identical_images);
  std::fprintf(out, "\n%-11s %8s", "re-render %", exact_text(c).c_str());
  for (const auto& cell : t.configs) std::fprintf(out, " %8s", exact_text(cell).c_str());
  std::fprintf(out, "\n");
}

// The IBM JSON files among the inputs (ibm_json.hpp), each of many problems, indexed (their
// problems are read as they are solved); the rest stay in `inputs`.
std::vector<evaluation::IbmFile> ibm_files(std::vector<std::filesystem::path>& inputs) {
  std::vector<evaluation::IbmFile> out;
  std::erase_if(inputs, [&](const std::filesystem::path& path) {
    std::error_code ec;
    if (!evaluation::is_ibm_json(path) || !std::filesystem::is_regular_file(path, ec)) return false;
    out.emplace_back(path);
    return true;
  });
  return out;
}

void solve_ibm(const evaluation::IbmFile& file, const jobs::BatchOptions& options,
               const std::function<void(const FileResult&)>& on_result) {
  jobs::solve_made(
      file.size(), options, [&](std::size_t i) { return file.name() + ":" + file.key(i); },
      [&](std::size_t i) { return file.read(i).problem; }, on_result);
}

int run_solve(const cli::SolveFlags& args) {
  const jobs::BatchOptions options = cli::solve_options(args);
  std::vector<std::filesystem::path> inputs(args.paths.begin(), args.paths.end());
  const auto ibm = ibm_files(inputs);
  std::size_t problems = 0;
  for (const evaluation::IbmFile& file : ibm) problems += file.size();
  if (options.from_pixels && problems > 0)
    throw UsageError("--from-pixels reads npz images; an IBM .json holds symbols only");
  const auto files = inputs.empty() ? std::vector<std::filesystem::path>()
                                    : jobs::collect_inputs(inputs, options.from_pixels);
  if (files.empty() && problems == 0)
    throw UsageError(options.from_pixels
                         ? "no .npz files under the given paths"
                         : "no .xml, .asig or lone .npz problem files under the given paths");
  if (options.from_pixels && options.solve.use_rules)
    throw UsageError("--use-rules needs the rules of an XML; --from-pixels reads none");
  jobs::AccuracyTable table;
  const std::size_t total = files.size() + problems;
  cli::ProgressLine progress("solve", total);
  std::uint64_t done = 0;
  const auto on_result = [&](const FileResult& r) {
    table.add(r);
    print_result(r, args, total == 1);
    progress.update(++done);
  };
  jobs::solve_files(files, options, on_result);
  for (const evaluation::IbmFile& file : ibm) solve_ibm(file, options, on_result);
  progress.finish();
  print_summary(table, args, progress.elapsed());
  return table.errors > 0 ? 1 : 0;
}

}  // namespace

Runner add_solve(CLI::App& app) {
  auto args = std::make_shared<cli::SolveFlags>();
  auto* cmd = app.add_subcommand(
      "solve",
      "Solve problem files by rule abduction: infer each component's rules and parameters from "
      "the\n"
      "matrix, answer with the most probable consistent candidate, and say whether the answer is\n"
      "provably unique. Files and folders (.xml with the .npz beside it for the answer, or .asig); "
      "an\n"
      ".npz with no XML beside it, or any file with --from-pixels, is solved from its image "
      "alone.\nAn IBM I-RAVEN / I-RAVEN-X .json is read as its many problems "
      "(docs/evaluation.md#ibms-json-files).");
  cli::bind_solve_flags(*cmd, *args);
  return [args] { return run_solve(*args); };
}

}  // namespace rave::apps
