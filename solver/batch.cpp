#include "solver/batch.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <memory>

#include "common/error.hpp"
#include "solver/problem_files.hpp"

namespace rave::solver {

namespace {

void solve_one(Solver& solver, FileResult& r) {
  try {
    r.problem = load_problem(r.file);
  } catch (const InputError& e) {
    r.error = e.what();
    return;
  }
  r.solution = solver.solve(r.problem);
  std::vector<int> order = r.solution.consistent_candidates();
  std::stable_partition(order.begin(), order.end(), [&](int i) { return i == r.solution.answer; });
  for (int i : order) r.readings.emplace_back(i, solver.reading(i));
}

}  // namespace

void run_ordered(std::size_t n, int threads, const std::function<void(std::size_t)>& work,
                 const std::function<void(std::size_t)>& emit) {
  RAVE_CHECK(threads >= 1, "at least one worker thread");
  tbb::task_arena arena(threads);
  for (std::size_t first = 0; first < n; first += kChunk) {
    const std::size_t last = std::min(n, first + kChunk);
    arena.execute([&] { tbb::parallel_for(first, last, [&](std::size_t i) { work(i); }); });
    for (std::size_t i = first; i < last; ++i) emit(i);
  }
}

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
