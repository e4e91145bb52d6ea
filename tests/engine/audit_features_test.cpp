// The learner audit's features (engine/audit_features.hpp): one row per candidate, one name per
// column, and no feature depends on the order the candidates are listed in (shuffling the
// candidates shuffles the rows alike); the bag view never reads where the context's values stand.
#include "engine/audit_features.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "engine/generate.hpp"

namespace rave::engine {
namespace {

struct Tables {
  std::vector<float> blind, bag;
};

Tables tables_of(const Problem& p) {
  Tables t{std::vector<float>(kCandidates * blind_feature_names().size()),
           std::vector<float>(kCandidates * bag_feature_names().size())};
  shortcut_features(p, t.blind, t.bag);
  return t;
}

std::vector<float> row(const std::vector<float>& table, std::size_t i) {
  const std::size_t width = table.size() / kCandidates;
  return {table.begin() + static_cast<std::ptrdiff_t>(i * width),
          table.begin() + static_cast<std::ptrdiff_t>((i + 1) * width)};
}

TEST(AuditFeatures, RowsFollowTheCandidatesWhateverTheirOrder) {
  Rng rng(3);
  for (const Variant& v : {Variant{}, Variant{.grid = 4, .values = 50, .confounders = 2}})
    for (const Configuration& config : all_configurations()) {
      SCOPED_TRACE(std::string(config.folder));
      Problem p = generate_problem(config.id, AnswerStrategy::kIRaven, 12, 3, v, Split::kTrain);
      const Tables before = tables_of(p);
      std::array<int, kCandidates> order{};
      std::iota(order.begin(), order.end(), 0);
      rng.shuffle(std::span<int>(order));
      Problem shuffled = p;
      for (std::size_t i = 0; i < kCandidates; ++i)
        shuffled.candidates[i] = p.candidates[static_cast<std::size_t>(order[i])];
      std::reverse(shuffled.context.begin(), shuffled.context.end());  // a bag has no order
      const Tables after = tables_of(shuffled);
      for (std::size_t i = 0; i < kCandidates; ++i) {
        const auto from = static_cast<std::size_t>(order[i]);
        EXPECT_EQ(row(after.blind, i), row(before.blind, from)) << i;
        EXPECT_EQ(row(after.bag, i), row(before.bag, from)) << i;
      }
    }
}

TEST(AuditFeatures, NamesAreUniqueAndTheWidthsFixed) {
  for (const auto* names : {&blind_feature_names(), &bag_feature_names()}) {
    std::vector<std::string> sorted = *names;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  }
  const Problem p = generate_problem(ConfigId::kCenterSingle, AnswerStrategy::kRaven, 1, 0);
  std::vector<float> wrong(3);
  EXPECT_THROW(shortcut_features(p, wrong, {}), std::logic_error);
}

// The features see what RAVEN's star is: the answer shares every value with most others.
TEST(AuditFeatures, TheAnswerOfARavenStarSharesTheMostBlocks) {
  const Problem p = generate_problem(ConfigId::kCenterSingle, AnswerStrategy::kRaven, 1234, 5);
  const Tables t = tables_of(p);
  const auto& names = blind_feature_names();
  const auto col =
      static_cast<std::size_t>(std::find(names.begin(), names.end(), "dist.sum") - names.begin());
  const std::size_t width = names.size();
  std::vector<float> sums;
  for (std::size_t i = 0; i < kCandidates; ++i) sums.push_back(t.blind[i * width + col]);
  EXPECT_EQ(std::min_element(sums.begin(), sums.end()) - sums.begin(), *p.target);
}

}  // namespace
}  // namespace rave::engine
