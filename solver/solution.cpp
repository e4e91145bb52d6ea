#include "solver/solution.hpp"

#include <bit>

namespace rave::solver {

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kUnique: return "unique";
    case Verdict::kAmbiguous: return "ambiguous";
    case Verdict::kUnknown: return "unknown";
    case Verdict::kNone: return "none";
  }
  return "none";
}

int Solution::consistent_count() const { return std::popcount(consistent); }

std::vector<int> Solution::consistent_candidates() const {
  std::vector<int> out;
  for (int i = 0; i < 8; ++i)
    if ((consistent >> i) & 1u) out.push_back(i);
  return out;
}

Verdict verdict_of(std::uint8_t consistent) {
  const int n = std::popcount(consistent);
  return n == 0 ? Verdict::kNone : n == 1 ? Verdict::kUnique : Verdict::kAmbiguous;
}

}  // namespace rave::solver
