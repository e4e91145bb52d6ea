#include "evaluation/items.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/audit.hpp"
#include "engine/formats/problem_files.hpp"
#include "solver/heuristic.hpp"

namespace rave::evaluation {
namespace fs = std::filesystem;
namespace {

// Ids relative to one root, the root examined once (not once per file).
class IdMaker {
 public:
  explicit IdMaker(const fs::path& root) : root_(root.lexically_normal()) {
    std::error_code ec;
    folder_ = fs::is_directory(root, ec);
  }
  std::string operator()(const fs::path& file) const {
    if (!folder_) return file.stem().string();
    fs::path relative = file.lexically_normal().lexically_relative(root_);
    if (relative.empty() || *relative.begin() == "..") relative = file.filename();
    return relative.replace_extension().generic_string();
  }

 private:
  fs::path root_;
  bool folder_ = false;
};

struct Slot {
  Item item;
  engine::Problem problem;
  std::optional<InputError> error;
};

void read_item(const IdMaker& id_of, const fs::path& file, solver::HeuristicSolver& solver,
               Slot& slot) {
  slot.error.reset();
  try {
    slot.problem = engine::read_problem(file, engine::TargetSource::kSibling);
  } catch (const InputError& e) {
    slot.error = e;
    return;
  }
  const engine::Problem& p = slot.problem;
  const solver::Solution s = solver.solve(p);
  slot.item = Item{.id = id_of(file),
                   .config = p.config,
                   .split = split_of(file),
                   .answer = p.target,
                   .candidates = static_cast<int>(p.candidates.size()),
                   .verdict = s.verdict,
                   .solver_answer = s.answer.value_or(-1),  // a `none` verdict has no answer
                   .blind_answer = engine::context_blind_choice(p.candidates)};
}

}  // namespace

std::string item_id(const fs::path& root, const fs::path& file) { return IdMaker(root)(file); }

std::string split_of(const fs::path& file) {
  const std::string stem = file.stem().string();
  for (const char* split : {"train", "val", "test"}) {
    const std::string suffix = std::string("_") + split;
    if (stem.size() > suffix.size() &&
        stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0)
      return split;
  }
  return "";
}

void for_each_item(const fs::path& root, int threads,
                   const std::function<void(const Item&, const engine::Problem&)>& visit) {
  const auto files = engine::collect_problem_files({root});
  if (files.empty())
    throw InputError(root.string(), "", "no problems here (no .xml or .asig files)");
  tbb::enumerable_thread_specific<std::unique_ptr<solver::HeuristicSolver>> solvers;
  std::vector<Slot> slots(std::min(files.size(), kChunk));
  std::unordered_map<std::string, std::size_t> seen;
  const IdMaker id_of(root);
  run_ordered(
      files.size(), threads,
      [&](std::size_t i) {
        auto& s = solvers.local();
        if (!s) s = std::make_unique<solver::HeuristicSolver>();
        read_item(id_of, files[i], *s, slots[i % kChunk]);
      },
      [&](std::size_t i) {
        const Slot& slot = slots[i % kChunk];
        if (slot.error) throw *slot.error;
        const auto [at, fresh] = seen.emplace(slot.item.id, i);
        if (!fresh)
          throw InputError(files[i].string(), "",
                           "has the id " + slot.item.id + " of " + files[at->second].string());
        visit(slot.item, slot.problem);
      });
}

std::vector<Item> load_items(const fs::path& root, int threads) {
  std::vector<Item> items;
  for_each_item(root, threads,
                [&](const Item& item, const engine::Problem&) { items.push_back(item); });
  return items;
}

}  // namespace rave::evaluation
