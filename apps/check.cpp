// `rave check`: audit a dataset folder problem by problem (jobs/dataset_check.hpp): the answer is
// explained and ranked first under abduction, no distractor satisfies the problem's own rules, no
// two candidates are identical; plus the rule-free ambiguous share and the context-blind shortcut's
// accuracy. Prints each failing problem, a summary table per configuration, and exits with 3 when
// some problem failed (an unreadable file counts as failed). A folder with a manifest (rave.json)
// is first checked against it: who made it, and every listed file's size and CRC-32.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/progress.hpp"
#include "common/error.hpp"
#include "engine/formats/problem_files.hpp"
#include "jobs/dataset_audit.hpp"
#include "jobs/dataset_check.hpp"
#include "jobs/dataset_manifest.hpp"

namespace rave::apps {
namespace {

struct CheckArgs {
  std::vector<std::string> paths;
  std::string backend = "heuristic";
  bool strict = false;
  bool allow_extra = false;
  bool no_manifest = false;
  int threads = default_threads();
};

// Counts of one column (a configuration, or all).
struct Column {
  int problems = 0, unique = 0, ambiguous = 0, unexplained = 0, misranked = 0, valid_distractor = 0,
      duplicates = 0, failed = 0, with_target = 0, blind_hits = 0;
  double seen_credit = 0;
};

void count(Column& col, const jobs::ProblemCheck& c, bool strict) {
  ++col.problems;
  col.unique += c.verdict == solver::Verdict::kUnique;
  col.ambiguous += c.verdict == solver::Verdict::kAmbiguous;
  col.unexplained += c.target_known && !c.target_explained;
  col.misranked += c.target_known && c.target_explained && !c.answered;
  col.valid_distractor += !c.valid_distractors.empty();
  col.duplicates += !c.duplicates.empty();
  col.failed += c.failed(strict);
  col.with_target += c.target_known;
  col.blind_hits += c.blind_hit;
  col.seen_credit += c.seen_credit;
}

void print_row(const char* name, const Column& total, const std::array<Column, 7>& cols,
               int Column::*field) {
  std::printf("%-22s %8d", name, total.*field);
  for (const Column& c : cols) std::printf(" %8d", c.*field);
  std::printf("\n");
}

void print_table(const Column& total, const std::array<Column, 7>& cols, int errors) {
  std::printf("%-22s %8s", "", "all");
  for (const auto& config : engine::all_configurations())
    std::printf(" %8s", std::string(config.paper_name).c_str());
  std::printf("\n");
  print_row("problems", total, cols, &Column::problems);
  print_row("unique (no rules)", total, cols, &Column::unique);
  print_row("ambiguous (no rules)", total, cols, &Column::ambiguous);
  print_row("answer unexplained", total, cols, &Column::unexplained);
  print_row("answer not ranked 1st", total, cols, &Column::misranked);
  print_row("distractor fits rules", total, cols, &Column::valid_distractor);
  print_row("duplicate candidates", total, cols, &Column::duplicates);
  print_row("failed", total, cols, &Column::failed);
  // The two shortcut audits (docs/answer-sets.md): chance is 12.5%.
  const auto rate = [&](const char* name, double (*value)(const Column&)) {
    const auto cell = [&](const Column& c) {
      if (c.with_target == 0)
        std::printf(" %8s", "-");
      else
        std::printf(" %8.2f", 100.0 * value(c) / c.with_target);
    };
    std::printf("%-22s", name);
    cell(total);
    for (const Column& c : cols) cell(c);
    std::printf("\n");
  };
  rate("context-blind acc %", [](const Column& c) { return 1.0 * c.blind_hits; });
  rate("values-seen acc %", [](const Column& c) { return c.seen_credit; });
  print_row("with target", total, cols,
            &Column::with_target);  // what the accuracy and answer rows count
  std::printf("unreadable files: %d\n", errors);
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Each folder given against its rave.json (jobs/dataset_audit.hpp, docs/dataset.md): what made
// the dataset, the manifest's fields and paths, every listed file's size and CRC-32, a sample made
// again, and every file it leaves out. Returns how many defects (an unlisted file is one unless
// --allow-extra; a folder without rave.json is one unless --no-manifest).
int check_manifests(const CheckArgs& args) {
  int bad = 0;
  for (const std::string& path : args.paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) continue;
    const std::filesystem::path file = std::filesystem::path(path) / jobs::kManifestName;
    const std::optional<jobs::DatasetManifest> m = jobs::read_manifest(file);
    if (!m) {
      if (args.no_manifest) continue;
      std::printf(
          "%s: no rave.json: nothing says what this folder holds (made by another tool? "
          "--no-manifest audits its problems alone)\n",
          shown(path).c_str());
      ++bad;
      continue;
    }
    const jobs::FolderAudit a = jobs::audit_folder(path, *m, args.threads);
    std::printf(
        "%s: made by rave %s with `%s`; %zu files listed, %zu differ, %zu problems made "
        "again; %zu unlisted\n",
        shown(file).c_str(), m->rave_version.c_str(), joined(m->command).c_str(), a.listed,
        a.defects.size(), a.regenerated, a.unlisted.size());
    for (const std::string& line : a.defects)
      std::printf("%s: %s\n", shown(file).c_str(), line.c_str());
    for (const std::string& entry : a.unlisted)
      std::printf("%s: not listed in rave.json%s\n",
                  shown(std::filesystem::path(path) / entry).c_str(),
                  args.allow_extra ? " (allowed)" : "");
    bad += static_cast<int>(a.defects.size()) +
           (args.allow_extra ? 0 : static_cast<int>(a.unlisted.size()));
  }
  return bad;
}

int run_check(const CheckArgs& args) {
  const auto backend = solver::parse_backend(args.backend);
  if (!backend) throw UsageError("--backend must be heuristic or z3, not '" + args.backend + "'");
  const auto files = engine::collect_problem_files({args.paths.begin(), args.paths.end()});
  if (files.empty()) throw UsageError("no .xml or .asig problem files under the given paths");
  const int manifest_defects = check_manifests(args);
  Column total;
  std::array<Column, 7> cols{};
  int errors = 0;
  ProgressLine progress("check", files.size());
  std::uint64_t done = 0;
  jobs::check_files(files, *backend, {}, args.threads, [&](const jobs::FileCheck& r) {
    progress.update(++done);
    if (!r.ok()) {
      ++errors;
      std::fflush(stdout);
      std::fprintf(stderr, "rave: error: %s\n", r.error.c_str());
      return;
    }
    count(total, r.check, args.strict);
    count(cols[engine::config_index(r.config)], r.check, args.strict);
    if (r.check.failed(args.strict))
      std::printf("%s: %s\n", shown(r.file).c_str(), r.check.failures(args.strict).c_str());
  });
  progress.finish();
  print_table(total, cols, errors);
  return total.failed > 0 || errors > 0 || manifest_defects > 0 ? 3 : 0;
}

}  // namespace

Runner add_check(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand(
      "check",
      "Audit a dataset: every answer explained and ranked first by rule abduction, no distractor\n"
      "that satisfies the problem's own rules, no duplicate candidates; reports the rule-free\n"
      "ambiguous share and the context-blind shortcut's accuracy. A folder is checked against its\n"
      "rave.json as a gate: its fields and paths, every listed file (size, CRC-32), a sample of\n"
      "problems made again from its parameters, and every file it does not list. Exit code 3 when\n"
      "a problem, the manifest or the folder fails (docs/dataset.md#checking-a-dataset).");
  cmd->add_option("paths", args->paths, "Dataset folders or problem files")->required();
  cmd->add_option("--backend,-b", args->backend, "heuristic or z3")->capture_default_str();
  cmd->add_flag("--strict", args->strict,
                "Also fail problems that are ambiguous without the rules");
  cmd->add_flag("--allow-extra", args->allow_extra,
                "Files and folders that rave.json does not list are reported, not failed (notes "
                "kept beside a dataset)");
  cmd->add_flag("--no-manifest", args->no_manifest,
                "Audit the problems of a folder without rave.json (made by another tool) without "
                "failing it for that");
  cmd->add_option("-j,--jobs", args->threads, "Worker threads")
      ->capture_default_str()
      ->check(jobs_range());
  return [args] { return run_check(*args); };
}

}  // namespace rave::apps
