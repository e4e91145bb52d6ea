// The C++ half of rave.gym (the RL environment, docs/rl.md): the entries of a set made by
// evaluation/export/gym.hpp on `threads` workers with the GIL released. Replies are read by
// rave.read_reply (faces/python/reply.cpp), as `rave score --text-answer` reads them.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "engine/model/configuration.hpp"
#include "evaluation/export/gym.hpp"
#include "evaluation/items.hpp"
#include "python/binding.hpp"
#include "solver/solution.hpp"

namespace rave::python {
namespace {

using namespace pybind11::literals;

py::dict item_data(const evaluation::GymItem& item) {
  py::list images;
  for (const auto& png : item.images) images.append(py::bytes(png));
  return py::dict("configuration"_a = std::string(engine::configuration(item.config).folder),
                  "index"_a = item.k, "split"_a = std::string(engine::split_name(item.split)),
                  "attempt"_a = item.attempt, "target"_a = item.target,
                  "verdict"_a = std::string(solver::verdict_name(item.verdict)),
                  "rewarded"_a = item.rewarded, "question"_a = item.question, "images"_a = images,
                  "rules"_a = item.rules);
}

py::list gym_items(const std::vector<std::string>& configs,
                   const std::vector<std::int64_t>& indices, std::uint64_t seed,
                   const std::string& answers, int grid, std::optional<int> values, int confounders,
                   const std::string& form, int image_size, const std::string& prefix, bool redraw,
                   int threads) {
  evaluation::GymSpec spec{
      .configs = {},
      .answers = strategy_arg(answers),
      .seed = seed,
      .variant = engine::variant_from_options(grid, values, confounders, "neutral", ""),
      .form = evaluation::GymForm::kText,
      .image_size = image_size,
      .text = {.rows_shown = 0, .prefix = prefix},
      .redraw = redraw};
  for (const auto& name : configs) spec.configs.push_back(config_arg(name));
  const auto parsed = evaluation::parse_gym_form(form);
  if (!parsed) throw UsageError("form must be text, sheet or panels, not '" + form + "'");
  spec.form = *parsed;
  if (threads < 1) throw UsageError("threads must be at least 1, not " + std::to_string(threads));
  evaluation::check_gym_spec(spec);
  std::vector<std::uint64_t> ks;
  for (const auto i : indices) ks.push_back(index_arg(i));
  std::vector<evaluation::GymItem> items;
  {
    py::gil_scoped_release release;
    items = evaluation::gym_items(spec, ks, threads);
  }
  py::list out;
  for (const auto& item : items) out.append(item_data(item));
  return out;
}

}  // namespace

void bind_gym(py::module_& m) {
  m.def("_gym_items", &gym_items, "configs"_a, "indices"_a, "seed"_a, "answers"_a, "grid"_a,
        "values"_a, "confounders"_a, "form"_a, "image_size"_a, "prefix"_a, "redraw"_a, "threads"_a,
        "entries `indices` of the RL environment's set (evaluation/export/gym.hpp): one dict each "
        "(rave.gym builds the reasoning-gym entries from them)");
}

}  // namespace rave::python
