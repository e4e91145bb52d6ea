#pragma once
// Auditing a dataset problem by problem (`rave check`): is the answer explained and unique under
// abduction, does some distractor satisfy the problem's own rules (names from the file, parameters
// abduced), are two candidates identical, and what does the context-blind shortcut of
// docs/answer-sets.md#the-context-blind-shortcut pick. Failures are the dataset's defects;
// rule-free ambiguity is a property of the generator (about 0.5%,
// docs/solver.md#without-the-rules-what-is-possible) and fails only in strict mode. With the
// content checks on, each problem's two files are read once and also checked against each other
// (jobs/problem_content.hpp), against the generator's replay (jobs/dataset_replay.hpp) and against
// the other problems (a content hash: no problem twice).
//
//   ProblemChecker checker(Backend::kHeuristic);
//   ProblemCheck c = checker.check(problem);
//   if (c.failed(/*strict=*/false)) puts(c.failures(false).c_str());
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/problem.hpp"
#include "jobs/dataset_replay.hpp"
#include "solver/solver.hpp"

namespace rave::jobs {

/// What the audit found in one problem.
struct ProblemCheck {
  solver::Verdict verdict = solver::Verdict::kNone;  ///< rule-free abduction
  std::uint8_t consistent = 0;                       ///< candidates explained without the rules
  bool target_known = false;
  bool target_explained = false;  ///< the answer has a valid rule assignment (rule-free)
  bool answered = false;          ///< the posterior's answer is the target
  std::vector<int>
      valid_distractors;  ///< distractors that satisfy the file's rule names (if known)
  std::vector<std::pair<int, int>> duplicates;  ///< pairs of candidates that draw the same panel
  int blind_choice =
      0;  ///< the context-blind pick (docs/answer-sets.md#the-context-blind-shortcut)
  bool blind_hit = false;  ///< ... and it is the answer
  /// The "values seen in the context" pick's expected hit (1/k among k tied, engine/audit.hpp).
  double seen_credit = 0;

  /// A defect: answer unexplained or not the posterior's, a distractor satisfying the rules, or a
  /// duplicate candidate; with `strict` also rule-free ambiguity.
  bool failed(bool strict) const;
  /// The defects in words ("distractor 5 satisfies the rules; candidates 2 and 6 are identical").
  std::string failures(bool strict) const;
};

/// Checks problems with one backend (reusable; not thread-safe, one per thread).
class ProblemChecker {
 public:
  explicit ProblemChecker(solver::Backend backend = solver::Backend::kHeuristic,
                          solver::Z3Budget budget = {});
  ProblemCheck check(const engine::Problem& problem);

 private:
  solver::Solver free_rules_;
  solver::Solver told_rules_;
};

/// One file's audit: an error line, or the problem's configuration and its check.
struct FileCheck {
  std::filesystem::path file;
  std::string error;
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  ProblemCheck check;
  /// The files against each other (jobs/problem_content.hpp), against the generator's replay
  /// (jobs/dataset_replay.hpp) and against the other problems (the same images twice).
  std::vector<std::string> defects;
  bool replayed = false;   ///< made again from the manifest's generator and compared
  std::uint64_t hash = 0;  ///< jobs::content_hash of the problem (with the content checks)
  bool ok() const { return error.empty(); }
};

/// How check_files audits.
struct CheckOptions {
  solver::Backend backend = solver::Backend::kHeuristic;
  solver::Z3Budget budget{};
  int threads = 1;
  bool content = false;  ///< the content checks and the duplicate search (FileCheck::defects)
  std::filesystem::path root{};    ///< the dataset folder the replay's paths are relative to
  const Replay* replay = nullptr;  ///< the manifest's generator, replayed for every problem
  /// The manifest whose sizes and CRC-32s each problem's files are compared with, as read.
  const DatasetManifest* manifest = nullptr;
};
/// Reads and checks `files` on `threads` workers; `on_result` is called in file order.
void check_files(const std::vector<std::filesystem::path>& files, solver::Backend backend,
                 solver::Z3Budget budget, int threads,
                 const std::function<void(const FileCheck&)>& on_result);
/// The same with the content checks and the replay `options` ask for. A problem whose images
/// equal an earlier file's gets a defect naming it.
void check_files(const std::vector<std::filesystem::path>& files, const CheckOptions& options,
                 const std::function<void(const FileCheck&)>& on_result);

/// Pairs (i < j) of candidates that are the same panel: equal entities on equal slots in every
/// component (entity order does not matter: it does not change the picture).
std::vector<std::pair<int, int>> identical_candidates(
    const std::array<engine::Panel, 8>& candidates);

}  // namespace rave::jobs
