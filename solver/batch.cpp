#include "solver/batch.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <memory>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/formats/problem_files.hpp"

namespace rave::solver {

namespace {

void solve_one(Solver& solver, FileResult& r) {
  try {
    r.problem = engine::read_problem(r.file);
    r.solution = solver.solve(r.problem);
  } catch (const InputError& e) {  // the solver's own (rules unknown) do not know the file
    r.error = e.file().empty() ? InputError(r.file.string(), e.place(), e.message()).what() : e.what();
    return;
  }
  std::vector<int> order = r.solution.consistent_candidates();
  std::stable_partition(order.begin(), order.end(), [&](int i) { return i == r.solution.answer; });
  for (int i : order) r.readings.emplace_back(i, solver.reading(i));
}

}  // namespace

void solve_files(const std::vector<std::filesystem::path>& files, const BatchOptions& options,
                 const std::function<void(const FileResult&)>& on_result) {
  tbb::enumerable_thread_specific<std::unique_ptr<Solver>> solvers;
  std::vector<FileResult> results(std::min(files.size(), kChunk));
  run_ordered(
      files.size(), options.threads,
      [&](std::size_t i) {
        auto& solver = solvers.local();
        if (!solver) solver = std::make_unique<Solver>(options.backend, options.solve, options.budget);
        FileResult& r = results[i % kChunk];
        r = FileResult{};
        r.file = files[i];
        solve_one(*solver, r);
      },
      [&](std::size_t i) { on_result(results[i % kChunk]); });
}

void AccuracyTable::add(const FileResult& r) {
  if (!r.ok()) {
    ++errors;
    return;
  }
  for (Cell* cell : {&configs[engine::config_index(r.problem.config)], &total}) {
    ++cell->problems;
    cell->with_target += r.problem.target.has_value();
    cell->correct += r.correct();
    cell->unique += r.solution.verdict == Verdict::kUnique;
    cell->ambiguous += r.solution.verdict == Verdict::kAmbiguous;
    cell->none += r.solution.verdict == Verdict::kNone;
    cell->unknown += r.solution.verdict == Verdict::kUnknown;
  }
}

std::optional<double> AccuracyTable::accuracy(const Cell& cell) {
  if (cell.with_target == 0) return std::nullopt;
  return static_cast<double>(cell.correct) / cell.with_target;
}

}  // namespace rave::solver
