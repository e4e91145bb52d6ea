// `rave check`: audit a dataset folder problem by problem. Every problem's two files are read once
// and checked against each other (jobs/problem_content.hpp: the npz's members, its pixels against
// the XML re-rendered, meta_* and structure against the rules and the configuration, the
// configuration against its folder), against every other problem (no images twice), against the
// generator rave.json records (jobs/dataset_replay.hpp: every problem made again), and by the
// solver (jobs/problem_check.hpp: the answer explained and ranked first under abduction, no
// distractor satisfying the problem's own rules, no two candidates identical), plus the rule-free
// ambiguous share and the context-blind shortcut's accuracy. A folder with a manifest (rave.json)
// is first checked against it: who made it, and every listed file's size and CRC-32. Prints each
// failing problem, a summary table per configuration, and exits with 3 when anything failed (an
// unreadable file counts as failed).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/progress.hpp"
#include "cli/python_forward.hpp"
#include "cli/solve_options.hpp"
#include "common/error.hpp"
#include "common/version.hpp"
#include "engine/formats/problem_files.hpp"
#include "jobs/dataset_manifest.hpp"
#include "jobs/dataset_replay.hpp"
#include "jobs/folder_audit.hpp"
#include "jobs/problem_check.hpp"

namespace rave::apps {
namespace {

// Counts of one column (a configuration, or all).
struct Column {
  int problems = 0, inconsistent = 0, unique = 0, ambiguous = 0, unexplained = 0, misranked = 0,
      valid_distractor = 0, duplicates = 0, failed = 0, with_target = 0, blind_hits = 0,
      answered = 0;
  double seen_credit = 0;
};

void count(Column& col, const jobs::FileCheck& r, bool strict) {
  const jobs::ProblemCheck& c = r.check;
  ++col.problems;
  col.inconsistent += !r.defects.empty();
  col.unique += c.verdict == solver::Verdict::kUnique;
  col.ambiguous += c.verdict == solver::Verdict::kAmbiguous;
  col.unexplained += c.target_known && !c.target_explained;
  col.misranked += c.target_known && c.target_explained && !c.answered;
  col.valid_distractor += !c.valid_distractors.empty();
  col.duplicates += !c.duplicates.empty();
  col.failed += c.failed(strict) || !r.defects.empty();
  col.with_target += c.target_known;
  col.blind_hits += c.blind_hit;
  col.answered += c.target_known && c.answered;
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
  print_row("files inconsistent", total, cols, &Column::inconsistent);
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

// What the whole run found beyond the table.
struct Tally {
  Column total;
  std::array<Column, 7> cols{};
  int errors = 0;            ///< unreadable problem files
  int folder_defects = 0;    ///< the manifests' and folders' defects
  std::size_t replayed = 0;  ///< problems made again from a manifest's parameters
};

// A folder against its rave.json (jobs/folder_audit.hpp, docs/dataset.md): what made the dataset,
// the manifest's fields and paths, every listed file's size and CRC-32, and every file it leaves
// out (a defect unless --allow-extra). Returns the manifest; nullopt when there is none (a defect
// unless --no-manifest).
std::optional<jobs::DatasetManifest> gate(const cli::CheckFlags& args, const std::string& path,
                                          Tally& t) {
  const std::filesystem::path file = std::filesystem::path(path) / jobs::kManifestName;
  std::optional<jobs::DatasetManifest> m = jobs::read_manifest(file);
  if (!m) {
    if (args.no_manifest) return m;
    std::printf(
        "%s: no rave.json: nothing says what this folder holds (made by another tool? "
        "--no-manifest audits its problems alone)\n",
        cli::shown(path).c_str());
    ++t.folder_defects;
    return m;
  }
  const jobs::FolderAudit a = jobs::audit_folder(path, *m, args.options.threads, /*crc=*/false);
  std::printf("%s: made by rave %s with `%s`; %zu files listed, %zu differ; %zu unlisted\n",
              cli::shown(file).c_str(), m->rave_version.c_str(), joined(m->command).c_str(),
              a.listed, a.defects.size(), a.unlisted.size());
  for (const std::string& line : a.defects)
    std::printf("%s: %s\n", cli::shown(file).c_str(), line.c_str());
  for (const std::string& entry : a.unlisted)
    std::printf("%s: not listed in rave.json%s\n",
                cli::shown(std::filesystem::path(path) / entry).c_str(),
                args.allow_extra ? " (allowed)" : "");
  t.folder_defects += static_cast<int>(a.defects.size()) +
                      (args.allow_extra ? 0 : static_cast<int>(a.unlisted.size()));
  return m;
}

// The manifest's generator, to replay every problem; says so when it cannot be (a defect) or when
// --no-replay turns it off, and when another rave version made the dataset.
std::optional<jobs::Replay> replay_of(const cli::CheckFlags& args, const std::string& path,
                                      const jobs::DatasetManifest& m, Tally& t) {
  const std::string file = cli::shown(std::filesystem::path(path) / jobs::kManifestName);
  if (args.no_replay) {
    std::printf("%s: not replayed (--no-replay): each problem is checked against itself alone\n",
                file.c_str());
    return std::nullopt;
  }
  std::string why;
  std::optional<jobs::Replay> replay = jobs::Replay::of(m, why);
  if (!replay) {
    std::printf("%s: cannot replay the generator: %s (--no-replay)\n", file.c_str(), why.c_str());
    ++t.folder_defects;
  } else if (!replay->same_version()) {
    std::printf(
        "%s: made by rave %s, checked by rave %s: replayed all the same (a difference may be the "
        "version's; --no-replay checks each problem against itself alone)\n",
        file.c_str(), m.rave_version.c_str(), std::string(version()).c_str());
  }
  return replay;
}

// The npz files of a folder without rave.json that have no XML beside them.
void orphan_npz(const std::string& path, Tally& t) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return;
  const auto npz = engine::collect_problem_files(
      {path}, [](const std::filesystem::path& p) { return p.extension() == ".npz"; });
  for (const auto& f : npz)
    if (!std::filesystem::exists(engine::sibling_xml(f), ec)) {
      std::printf("%s: no XML beside it (the problem's symbols)\n", cli::shown(f).c_str());
      ++t.folder_defects;
    }
}

// The problem files of a dataset folder that its rave.json lists: the dataset (the others are
// reported as unlisted by the gate, not audited as its problems).
std::vector<std::filesystem::path> listed(const std::vector<std::filesystem::path>& files,
                                          const std::string& root, const jobs::DatasetManifest& m) {
  std::unordered_set<std::string> paths;
  for (const jobs::ManifestFile& f : m.files) paths.insert(f.path);
  std::vector<std::filesystem::path> out;
  for (const auto& f : files)
    if (paths.contains(f.lexically_relative(root).generic_string())) out.push_back(f);
  return out;
}

// One problem's result: counted, and its defects printed.
void take(const cli::CheckFlags& args, const jobs::FileCheck& r, Tally& t) {
  if (!r.ok()) {
    ++t.errors;
    std::fflush(stdout);
    std::fprintf(stderr, "rave: error: %s\n", r.error.c_str());
    return;
  }
  count(t.total, r, args.strict);
  count(t.cols[engine::config_index(r.config)], r, args.strict);
  t.replayed += r.replayed;
  std::string line;
  for (const std::string& d : r.defects) line += (line.empty() ? "" : "; ") + d;
  if (r.check.failed(args.strict))
    line += (line.empty() ? "" : "; ") + r.check.failures(args.strict);
  if (!line.empty()) std::printf("%s: %s\n", cli::shown(r.file).c_str(), line.c_str());
}

// Every problem under one path: a folder's gate, then each problem's files, replay and audit.
void check_path(const cli::CheckFlags& args, const std::string& path,
                const std::vector<std::filesystem::path>& files, jobs::CheckOptions options,
                cli::ProgressLine& progress, std::uint64_t& done, Tally& t) {
  std::error_code ec;
  std::optional<jobs::DatasetManifest> m;
  std::optional<jobs::Replay> replay;
  if (std::filesystem::is_directory(path, ec)) m = gate(args, path, t);
  if (m) replay = replay_of(args, path, *m, t);
  if (!m) orphan_npz(path, t);
  const std::vector<std::filesystem::path> audited = m ? listed(files, path, *m) : files;
  const std::size_t replayed = t.replayed;
  done += files.size() - audited.size();
  options.root = path;
  options.replay = replay ? &*replay : nullptr;
  options.manifest = m ? &*m : nullptr;
  jobs::check_files(audited, options, [&](const jobs::FileCheck& r) {
    progress.update(++done);
    take(args, r, t);
  });
  if (replay)
    std::printf("%s: %zu of %zu problems made again from its parameters\n",
                cli::shown(std::filesystem::path(path) / jobs::kManifestName).c_str(),
                t.replayed - replayed, audited.size());
}

// The learner audit (--shortcuts, docs/answer-sets.md#the-learner-audit): the Python package learns
// (scikit-learn) from the features the C++ core reads; the solver's counts go with it.
int run_shortcuts(const cli::CheckFlags& args, const std::array<Column, 7>& cols) {
  std::string solver;
  for (std::size_t c = 0; c < cols.size(); ++c)
    if (cols[c].with_target > 0)
      solver += (solver.empty() ? "" : ",") + std::string(engine::all_configurations()[c].folder) +
                "=" + std::to_string(cols[c].answered) + "/" + std::to_string(cols[c].with_target);
  std::vector<std::string> words{"shortcuts",
                                 "-j",
                                 std::to_string(args.options.threads),
                                 "--folds",
                                 std::to_string(args.folds),
                                 "--learners",
                                 args.learners,
                                 "--solver",
                                 solver};
  for (const std::string& t : args.train) words.insert(words.end(), {"--train", t});
  words.insert(words.end(), args.paths.begin(), args.paths.end());
  std::printf("\n");
  return cli::run_python_rave(words);
}

int run_check(const cli::CheckFlags& args) {
  const jobs::CheckOptions options = cli::check_options(args);
  std::vector<std::vector<std::filesystem::path>> files;
  std::size_t all = 0;
  for (const std::string& path : args.paths) {
    files.push_back(engine::collect_problem_files({std::filesystem::path(path)}));
    all += files.back().size();
  }
  if (all == 0) throw UsageError("no .xml or .asig problem files under the given paths");
  Tally t;
  cli::ProgressLine progress("check", all);
  std::uint64_t done = 0;
  for (std::size_t i = 0; i < args.paths.size(); ++i)
    check_path(args, args.paths[i], files[i], options, progress, done, t);
  progress.finish();
  print_table(t.total, t.cols, t.errors);
  const int failed = t.total.failed > 0 || t.errors > 0 || t.folder_defects > 0 ? 3 : 0;
  if (!args.shortcuts) return failed;
  const int learnt = run_shortcuts(args, t.cols);
  return learnt != 0 ? learnt : failed;
}

}  // namespace

Runner add_check(CLI::App& app) {
  auto args = std::make_shared<cli::CheckFlags>();
  auto* cmd = app.add_subcommand(
      "check",
      "Audit a dataset, every problem: its npz's members, pixels (against its XML re-rendered),\n"
      "meta_matrix, meta_target and structure (against its rules and configuration), its folder,\n"
      "no problem twice; every answer explained and ranked first by rule abduction, no distractor\n"
      "that satisfies the problem's own rules, no duplicate candidates; reports the rule-free\n"
      "ambiguous share and the context-blind shortcut's accuracy. A folder is checked against its\n"
      "rave.json as a gate: its fields and paths, every listed file (size, CRC-32), every problem\n"
      "made again from its parameters, and every file it does not list. Exit code 3 when a\n"
      "problem, the manifest or the folder fails (docs/dataset.md#checking-a-dataset).");
  cli::bind_check_flags(*cmd, *args);
  return [args] { return run_check(*args); };
}

}  // namespace rave::apps
