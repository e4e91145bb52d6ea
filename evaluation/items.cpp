#include "evaluation/items.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/audit.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/problem_files.hpp"
#include "evaluation/ibm_json.hpp"
#include "solver/heuristic.hpp"

namespace rave::evaluation {
namespace fs = std::filesystem;
namespace {

// Whether a path below a root is plain: relative, without empty, "." or ".." components (what a
// folder walk yields), so that its text is already what lexically_relative would give.
bool plain_relative(std::string_view relative) {
  if (relative.empty() || relative.front() == '/') return false;
  for (std::size_t at = 0; at <= relative.size();) {
    const std::size_t end = std::min(relative.find('/', at), relative.size());
    const std::string_view part = relative.substr(at, end - at);
    if (part.empty() || part == "." || part == "..") return false;
    at = end + 1;
  }
  return true;
}

// `relative` without the extension of its last component (path::replace_extension's rule: the
// last dot of the file name, unless it starts the name).
std::string without_extension(std::string_view relative) {
  const std::size_t name = relative.rfind('/') + 1;  // npos + 1 == 0
  const std::size_t dot = relative.rfind('.');
  if (dot != std::string_view::npos && dot > name) relative = relative.substr(0, dot);
  return std::string(relative);
}

// Ids relative to one root, the root examined once (not once per file). The paths of a walk of
// the root are the root's text, a separator and a plain relative path: their ids are cut from the
// text; any other path goes through the lexical normalisation.
class IdMaker {
 public:
  explicit IdMaker(const fs::path& root) : given_(root.native()), root_(root.lexically_normal()) {
    std::error_code ec;
    folder_ = fs::is_directory(root, ec);
  }
  std::string operator()(const fs::path& file) const {
    if (!folder_) return file.stem().string();
    const std::string& text = file.native();
    if (!given_.empty() && text.size() > given_.size() && text.starts_with(given_) &&
        (given_.back() == '/' || text[given_.size()] == '/')) {
      std::string_view relative = std::string_view(text).substr(given_.size());
      if (relative.front() == '/') relative.remove_prefix(1);
      if (plain_relative(relative)) return without_extension(relative);
    }
    fs::path relative = file.lexically_normal().lexically_relative(root_);
    if (relative.empty() || *relative.begin() == "..") relative = file.filename();
    return relative.replace_extension().generic_string();
  }

 private:
  std::string given_;
  fs::path root_;
  bool folder_ = false;
};

struct Slot {
  Item item;
  engine::Problem problem;
  std::optional<InputError> error;
};

// The item of a problem: its id and split, and what the two reference players make of it.
Item item_of(std::string id, std::string split, const engine::Problem& p,
             solver::HeuristicSolver& solver) {
  const solver::Solution s = solver.solve(p);
  return Item{.id = std::move(id),
              .config = p.config,
              .split = std::move(split),
              .answer = p.target,
              .candidates = static_cast<int>(p.candidates.size()),
              .verdict = s.verdict,
              .solver_answer = s.answer.value_or(-1),  // a `none` verdict has no answer
              .blind_answer = engine::context_blind_choice(p.candidates),
              .rules = rule_labels(p)};
}

void read_item(const IdMaker& id_of, const fs::path& file, solver::HeuristicSolver& solver,
               Slot& slot) {
  slot.error.reset();
  try {
    slot.problem = engine::read_problem(file, engine::TargetSource::kSibling);
  } catch (const InputError& e) {
    slot.error = e;
    return;
  }
  slot.item = item_of(id_of(file), named_split(file), slot.problem, solver);
}

using Solvers = tbb::enumerable_thread_specific<std::unique_ptr<solver::HeuristicSolver>>;

solver::HeuristicSolver& local_solver(Solvers& solvers) {
  auto& s = solvers.local();
  if (!s) s = std::make_unique<solver::HeuristicSolver>();
  return *s;
}

// The problems of an IBM JSON file (ibm_json.hpp), ids their keys, read on the workers a chunk at
// a time: memory holds one chunk of problems, whatever the file's size.
void for_each_ibm_item(const fs::path& path, int threads,
                       const std::function<void(const Item&, const engine::Problem&)>& visit) {
  const IbmFile file(path);
  Solvers solvers;
  std::vector<Slot> slots(std::min(file.size(), kChunk));
  run_ordered(
      file.size(), threads,
      [&](std::size_t i) {
        Slot& slot = slots[i % kChunk];
        slot.error.reset();
        try {
          IbmProblem p = file.read(i);
          slot.problem = std::move(p.problem);
          slot.item =
              item_of(std::move(p.key), std::move(p.split), slot.problem, local_solver(solvers));
        } catch (const InputError& e) {
          slot.error = e;
        }
      },
      [&](std::size_t i) {
        const Slot& slot = slots[i % kChunk];
        if (slot.error) throw *slot.error;
        visit(slot.item, slot.problem);
      });
}

}  // namespace

std::vector<std::string> rule_labels(const engine::Problem& problem) {
  std::vector<std::string> out;
  for (const engine::RuleGroup& g : problem.rules)
    for (const engine::Rule& r : g.rules) {
      std::string label(engine::rule_attr_text(r.attr));
      label += ' ';
      label += engine::rule_name_text(r.name);
      out.push_back(std::move(label));
    }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string item_id(const fs::path& root, const fs::path& file) { return IdMaker(root)(file); }

std::string named_split(const fs::path& file) {
  const std::optional<engine::Split> split = engine::parse_problem_name(file).split;
  return split ? std::string(engine::split_name(*split)) : std::string();
}

std::vector<fs::path> problem_files_under(const fs::path& root) {
  auto files = engine::collect_problem_files({root});
  if (files.empty())
    throw InputError(root.string(), "", "no problems here (no .xml or .asig files)");
  return files;
}

void UniqueIds::take(const std::string& id, std::size_t i) {
  if (const auto [at, fresh] = seen_.emplace(id, i); !fresh)
    throw InputError(files_[i].string(), "",
                     "has the id " + id + " of " + files_[at->second].string());
}

void for_each_item(const fs::path& root, int threads,
                   const std::function<void(const Item&, const engine::Problem&)>& visit) {
  std::error_code ec;
  if (is_ibm_json(root) && !fs::is_directory(root, ec))
    return for_each_ibm_item(root, threads, visit);
  const auto files = problem_files_under(root);
  Solvers solvers;
  std::vector<Slot> slots(std::min(files.size(), kChunk));
  UniqueIds ids(files);
  const IdMaker id_of(root);
  run_ordered(
      files.size(), threads,
      [&](std::size_t i) { read_item(id_of, files[i], local_solver(solvers), slots[i % kChunk]); },
      [&](std::size_t i) {
        const Slot& slot = slots[i % kChunk];
        if (slot.error) throw *slot.error;
        ids.take(slot.item.id, i);
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
