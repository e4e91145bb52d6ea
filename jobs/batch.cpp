#include "jobs/batch.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "jobs/dataset_manifest.hpp"
#include "jobs/from_pixels.hpp"

namespace rave::jobs {
using namespace rave::engine;  // jobs work on their values
using namespace rave::solver;  // jobs work on their values

namespace fs = std::filesystem;

namespace {

// One symbolic and one pixel solver per worker thread, made on first use.
struct Solvers {
  std::unique_ptr<Solver> symbols, pixels;
  Solver& get(const BatchOptions& o, bool from_pixels) {
    auto& s = from_pixels ? pixels : symbols;
    if (!s)
      s = std::make_unique<Solver>(o.backend, from_pixels ? readings_options(o.solve) : o.solve,
                                   o.budget);
    return *s;
  }
};

// The image of the npz named (or beside the XML named), perceived and solved; target from the npz.
void solve_pixels(Solver& solver, const BatchOptions& options, FileResult& r,
                  CandidateReadings& explained) {
  const fs::path npz = r.file.extension() == ".npz" ? r.file : engine::sibling_npz(r.file);
  const engine::NpzFile file = engine::read_npz(npz, {"image", "target"});
  r.perceived = perceive_npz(file, options.drawing ? *options.drawing : recorded_drawing(npz));
  r.problem = r.perceived->problem();
  if (file.contains("target")) r.problem.target = static_cast<int>(file.target());
  r.solution = solve_perceived(solver, *r.perceived, &explained);
}

using MakeProblem = std::function<engine::Problem(std::size_t)>;

void solve_one(Solvers& solvers, const BatchOptions& options, FileResult& r,
               const MakeProblem* make, std::size_t i) {
  const bool pixels = !make && solves_from_pixels(r.file, options.from_pixels);
  Solver& solver = solvers.get(options, pixels);
  CandidateReadings explained;
  try {
    if (pixels) {
      solve_pixels(solver, options, r, explained);
    } else {
      r.problem = make ? (*make)(i) : engine::read_problem(r.file);
      r.solution = solver.solve(r.problem);
    }
  } catch (const InputError& e) {  // the solver's own (rules unknown) do not know the file
    r.error =
        e.file().empty() ? InputError(r.file.string(), e.place(), e.message()).what() : e.what();
    return;
  }
  std::vector<int> order = r.solution.consistent_candidates();
  std::stable_partition(order.begin(), order.end(), [&](int i) { return i == r.solution.answer; });
  for (int i : order) r.readings.emplace_back(i, pixels ? explained[i] : solver.reading(i));
}

// Solves n problems (item i named name(i), read from its file unless `make` gives it).
void solve_batch(std::size_t n, const BatchOptions& options,
                 const std::function<fs::path(std::size_t)>& name, const MakeProblem* make,
                 const std::function<void(const FileResult&)>& on_result) {
  tbb::enumerable_thread_specific<Solvers> solvers;
  std::vector<FileResult> results(std::min(n, kChunk));
  run_ordered(
      n, options.threads,
      [&](std::size_t i) {
        FileResult& r = results[i % kChunk];
        r.file = name(i);  // the slot's fields reset in place, its buffers kept
        r.error.clear();
        r.problem = engine::Problem();
        r.solution = Solution{};
        r.readings.clear();
        r.perceived.reset();
        solve_one(solvers.local(), options, r, make, i);
      },
      [&](std::size_t i) { on_result(results[i % kChunk]); });
}

}  // namespace

perception::PerceiveOptions recorded_drawing(const fs::path& file) {
  static std::mutex mutex;
  static std::map<fs::path, perception::PerceiveOptions> known;
  const fs::path folder = file.parent_path();
  std::lock_guard lock(mutex);
  if (const auto it = known.find(folder); it != known.end()) return it->second;
  perception::PerceiveOptions drawing;
  for (const fs::path& dir : {folder, folder.parent_path()}) {
    const auto manifest = read_manifest(dir / kManifestName);
    if (!manifest) continue;
    const ManifestVariant& v = manifest->variant;
    if (!v.style.empty()) drawing.style = engine::parse_style(v.style);
    drawing.variant.values = v.values;
    drawing.variant.confounders = v.confounders;
    break;
  }
  return known.emplace(folder, drawing).first->second;
}

perception::PerceivedProblem perceive_npz(const engine::NpzFile& npz,
                                          const perception::PerceiveOptions& drawing) {
  int grid = 0, side = 0;
  const auto image = npz.panels(grid, side);
  if (side != drawing.style.size)
    throw InputError(npz.file(), "image.npy",
                     "panels of " + std::to_string(side) + " pixels, but style " +
                         drawing.style.name + " draws " + std::to_string(drawing.style.size));
  return perception::perceive(image, side, drawing);
}

bool solves_from_pixels(const fs::path& file, bool from_pixels) {
  std::error_code ec;
  return from_pixels || (file.extension() == ".npz" && !fs::exists(engine::sibling_xml(file), ec));
}

std::vector<fs::path> collect_inputs(const std::vector<fs::path>& inputs, bool from_pixels) {
  if (!from_pixels)
    return engine::collect_problem_files(inputs, [](const fs::path& f) {
      return engine::is_problem_file(f) || solves_from_pixels(f, false);
    });
  std::vector<fs::path> out = engine::collect_problem_files(
      inputs, [](const fs::path& f) { return f.extension() == ".npz"; });
  for (fs::path& f : out)
    if (f.extension() == ".xml") f = engine::sibling_npz(f);
  return out;
}

void solve_files(const std::vector<std::filesystem::path>& files, const BatchOptions& options,
                 const std::function<void(const FileResult&)>& on_result) {
  solve_batch(
      files.size(), options, [&](std::size_t i) { return files[i]; }, nullptr, on_result);
}

void solve_made(std::size_t n, const BatchOptions& options,
                const std::function<std::filesystem::path(std::size_t)>& name,
                const std::function<engine::Problem(std::size_t)>& make,
                const std::function<void(const FileResult&)>& on_result) {
  BatchOptions symbolic = options;
  symbolic.from_pixels = false;
  solve_batch(n, symbolic, name, &make, on_result);
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
    cell->identical_images += r.solution.reason.starts_with("identical images");
    if (!r.perceived) continue;
    for (const auto& panel : r.perceived->panels) {
      ++cell->panels;
      cell->exact_panels += panel.exact;
    }
  }
}

std::optional<double> AccuracyTable::accuracy(const Cell& cell) {
  if (cell.with_target == 0) return std::nullopt;
  return static_cast<double>(cell.correct) / cell.with_target;
}

}  // namespace rave::jobs
