#pragma once
// Pieces the two views of engine/audit_features.hpp share (audit_features.cpp: blind,
// audit_features_bag.cpp: bag). Not part of the public API.
//
//   View v = view_of(panel.components[0], family_count(problem));   // slots and values by slot
//   Table t{out, width, 0};  t.put(row);                             // one feature, 8 candidates
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::engine::audit_detail {

/// Components a feature table has room for (no configuration has more).
inline constexpr std::size_t kComponentSlots = 2;

using Values = std::vector<int>;
/// One feature of every candidate.
using Row = std::array<float, kCandidates>;

/// One component of one panel: its slots in slot order and each family's values in that order
/// (Type, Size, Color, Angle, then the confounders); `mask` has bit s for slot s.
struct View {
  std::vector<int> slots;
  std::vector<Values> families;
  std::uint32_t mask = 0;
  friend bool operator==(const View&, const View&) = default;
};
using Views = std::array<View, kCandidates>;

/// Type, Size, Color, Angle and the problem's confounders.
int family_count(const Problem& p);
View view_of(const ComponentPanel& panel, int families);
double mean_of(const Values& v);
/// The average rank (0..7, ties averaged) of each value among the 8, scaled to [0, 1].
Row ranks(const std::array<double, kCandidates>& x);

/// Writes one feature (every candidate) into column `col` of a row-major candidate x feature
/// table that starts zeroed.
struct Table {
  std::span<float> data;
  std::size_t width = 0;
  std::size_t col = 0;
  void put(const Row& row) {
    for (std::size_t i = 0; i < kCandidates; ++i) data[i * width + col] = row[i];
    ++col;
  }
  template <std::size_t N>
  void put_all(const std::array<Row, N>& rows) {
    for (const Row& row : rows) put(row);
  }
  void skip(std::size_t n) { col += n; }
};

/// Per-confounder row sets pooled: their mean, then their maximum (zeros without confounders).
template <std::size_t N>
void put_pooled(Table& t, const std::vector<std::array<Row, N>>& per) {
  std::array<Row, N> mean{}, max{};
  for (std::size_t k = 0; k < N; ++k)
    for (std::size_t i = 0; i < kCandidates; ++i) {
      float sum = 0, most = per.empty() ? 0.0F : per[0][k][i];
      for (const auto& rows : per) {
        sum += rows[k][i];
        most = std::max(most, rows[k][i]);
      }
      mean[k][i] = per.empty() ? 0.0F : sum / static_cast<float>(per.size());
      max[k][i] = most;
    }
  t.put_all(mean);
  t.put_all(max);
}

/// The bag view (audit_features_bag.cpp): its names, and the table for one problem.
std::vector<std::string> bag_names();
void fill_bag(const Problem& p, Table t);

}  // namespace rave::engine::audit_detail
