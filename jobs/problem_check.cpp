#include "jobs/problem_check.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/audit.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/formats/zip.hpp"
#include "jobs/batch.hpp"
#include "jobs/dataset_manifest.hpp"
#include "jobs/problem_content.hpp"

namespace rave::jobs {
using namespace rave::engine;  // jobs work on their values
using namespace rave::solver;  // jobs work on their values
namespace {

engine::Panel canonical(engine::Panel panel) {
  for (auto& component : panel.components)
    std::sort(component.entities.begin(), component.entities.end(),
              [](const engine::Entity& a, const engine::Entity& b) { return a.slot < b.slot; });
  return panel;
}

std::string list(const std::vector<int>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : ", ") + std::to_string(items[i]);
  return out;
}

}  // namespace

std::vector<std::pair<int, int>> identical_candidates(
    const std::array<engine::Panel, 8>& candidates) {
  std::array<engine::Panel, 8> canon;
  for (int i = 0; i < 8; ++i) canon[i] = canonical(candidates[i]);
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < 8; ++i)
    for (int j = i + 1; j < 8; ++j)
      if (canon[i] == canon[j]) out.emplace_back(i, j);
  return out;
}

bool ProblemCheck::failed(bool strict) const { return !failures(strict).empty(); }

std::string ProblemCheck::failures(bool strict) const {
  std::vector<std::string> parts;
  if (verdict == Verdict::kUnknown) parts.push_back("abduction ran out of budget");
  if (target_known && !target_explained)
    parts.push_back("the answer is explained by no valid rule assignment");
  if (target_known && target_explained && !answered)
    parts.push_back("the posterior ranks a distractor first");
  if (!valid_distractors.empty())
    parts.push_back(std::string(valid_distractors.size() == 1 ? "distractor " : "distractors ") +
                    list(valid_distractors) + " satisf" +
                    (valid_distractors.size() == 1 ? "ies" : "y") + " the problem's rules");
  for (const auto& [i, j] : duplicates)
    parts.push_back("candidates " + std::to_string(i) + " and " + std::to_string(j) +
                    " are identical");
  if (strict && verdict == Verdict::kAmbiguous)
    parts.push_back("several candidates are explained without the rules");
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

ProblemChecker::ProblemChecker(Backend backend, Z3Budget budget)
    : free_rules_(backend, SolveOptions{}, budget),
      told_rules_(backend, SolveOptions{.use_rules = true}, budget) {}

ProblemCheck ProblemChecker::check(const engine::Problem& problem) {
  ProblemCheck c;
  const Solution free = free_rules_.solve(problem);
  c.verdict = free.verdict;
  c.consistent = free.consistent;
  c.target_known = problem.target.has_value();
  c.duplicates = identical_candidates(problem.candidates);
  c.blind_choice = engine::context_blind_choice(problem.candidates);
  if (!c.target_known) return c;
  const int target = *problem.target;
  c.blind_hit = c.blind_choice == target;
  c.seen_credit = engine::values_seen_credit(problem);
  c.target_explained = (free.consistent >> target) & 1u;
  c.answered = free.answer == target;   // no answer (verdict none) is not the target
  if (problem.rules.empty()) return c;  // unknown rules: no distractor can be held against them
  const Solution told = told_rules_.solve(problem);
  for (int i = 0; i < 8; ++i)
    if (i != target && ((told.consistent >> i) & 1u)) c.valid_distractors.push_back(i);
  return c;
}

namespace {

using Listing = std::unordered_map<std::string, const ManifestFile*>;

// The pair's bytes, as read, against their listing (absent entries are the manifest audit's).
void compare_listed(const ProblemPair& pair, const std::string& stem, const Listing& listing,
                    std::vector<std::string>& out) {
  const auto compare = [&](const std::string& path, const std::string& bytes) {
    const auto it = listing.find(path);
    if (it != listing.end() &&
        (bytes.size() != it->second->size || crc32(bytes) != it->second->crc32))
      out.push_back(path + ": CRC-32 differs from rave.json");
  };
  compare(stem + ".xml", pair.xml_bytes);
  if (pair.npz) compare(stem + ".npz", pair.npz_bytes);
}

// One problem file's audit: the pair's content, listing and replay when asked, then the solver's.
void check_one(const std::filesystem::path& file, const CheckOptions& options,
               const Listing& listing, ProblemChecker& checker, FileCheck& r) {
  r = FileCheck{};
  r.file = file;
  try {
    if (!options.content || file.extension() != ".xml") {
      const engine::Problem problem = engine::read_problem(file);
      r.config = problem.config;
      r.check = checker.check(problem);
      return;
    }
    ProblemPair pair = read_problem_pair(file);
    r.config = pair.problem.config;
    render_pair(pair);
    r.defects = content_defects(pair);
    r.hash = content_hash(pair);
    const std::string stem =
        file.lexically_relative(options.root).replace_extension().generic_string();
    compare_listed(pair, stem, listing, r.defects);
    if (options.replay) {
      if (auto d = options.replay->defect(stem, pair)) {
        r.replayed = true;
        if (!d->empty()) r.defects.push_back(std::move(*d));
      }
    }
    r.check = checker.check(pair.problem);
  } catch (const InputError& e) {
    r.error = e.what();
  }
}

}  // namespace

void check_files(const std::vector<std::filesystem::path>& files, Backend backend, Z3Budget budget,
                 int threads, const std::function<void(const FileCheck&)>& on_result) {
  check_files(files, CheckOptions{.backend = backend, .budget = budget, .threads = threads},
              on_result);
}

void check_files(const std::vector<std::filesystem::path>& files, const CheckOptions& options,
                 const std::function<void(const FileCheck&)>& on_result) {
  tbb::enumerable_thread_specific<std::unique_ptr<ProblemChecker>> checkers;
  std::vector<FileCheck> results(std::min(files.size(), kChunk));
  std::unordered_map<std::uint64_t, std::size_t> seen;  // content hash -> first file
  Listing listing;
  if (options.manifest)
    for (const ManifestFile& f : options.manifest->files) listing.emplace(f.path, &f);
  run_ordered(
      files.size(), options.threads,
      [&](std::size_t i) {
        auto& checker = checkers.local();
        if (!checker) checker = std::make_unique<ProblemChecker>(options.backend, options.budget);
        check_one(files[i], options, listing, *checker, results[i % kChunk]);
      },
      [&](std::size_t i) {
        FileCheck& r = results[i % kChunk];
        if (options.content && r.ok() && r.file.extension() == ".xml") {
          const auto [first, fresh] = seen.emplace(r.hash, i);
          if (!fresh)
            r.defects.push_back("the same images as " + files[first->second].string() +
                                " (one problem twice)");
        }
        on_result(r);
      });
}

}  // namespace rave::jobs
