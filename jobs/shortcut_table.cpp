#include "jobs/shortcut_table.hpp"

#include <span>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/audit_features.hpp"
#include "engine/formats/problem_files.hpp"

namespace rave::jobs {

ShortcutTable shortcut_table(const std::vector<std::filesystem::path>& files, int threads) {
  ShortcutTable t;
  const std::size_t n = files.size();
  t.files = files;
  t.errors.assign(n, "");
  t.config.assign(n, 0);
  t.grid.assign(n, 3);
  t.target.assign(n, -1);
  t.blind_width = engine::blind_feature_names().size();
  t.bag_width = engine::bag_feature_names().size();
  const std::size_t wb = engine::kCandidates * t.blind_width;
  const std::size_t wg = engine::kCandidates * t.bag_width;
  t.blind.assign(n * wb, 0.0F);
  t.bag.assign(n * wg, 0.0F);
  parallel_for_index(n, threads, [&](std::size_t i) {
    try {
      const engine::Problem p = engine::read_problem(files[i]);
      t.config[i] = engine::config_index(p.config);
      t.grid[i] = p.grid();
      t.target[i] = p.target.value_or(-1);
      engine::shortcut_features(p, std::span(t.blind).subspan(i * wb, wb),
                                std::span(t.bag).subspan(i * wg, wg));
    } catch (const InputError& e) {
      t.errors[i] = e.what();
    }
  });
  return t;
}

}  // namespace rave::jobs
