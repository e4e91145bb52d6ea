#include "jobs/generator_history.hpp"

#include <array>
#include <charconv>
#include <optional>

#include "engine/answers/answer_set.hpp"
#include "engine/rules/matrix.hpp"

namespace rave::jobs {
namespace {

using Version = std::array<int, 3>;

struct GeneratorChange {
  Version version;  ///< the first rave that generates this way
  const char* what;
  bool (*touches)(const engine::Variant&, engine::AnswerStrategy);
};

// The sets drawn exchangeably: `balanced` at every size, iraven and fair at every variant.
bool touches_exchangeable_sets(const engine::Variant& v, engine::AnswerStrategy s) {
  return s == engine::AnswerStrategy::kBalanced ||
         (!v.is_original() && s != engine::AnswerStrategy::kRaven);
}

// Newest last. A change to the 3 x 3 originals' output would break their byte-identity with the
// original generators and never belongs here.
constexpr std::array<GeneratorChange, 6> kChanges{{
    {{0, 3, 0},
     "rave 0.3.0 draws a variant's answer sets without the originals' shortcuts (--grid above 3 "
     "or --values)",
     [](const engine::Variant& v, engine::AnswerStrategy) {
       return v.grid != engine::kDefaultGrid || v.values != 0;
     }},
    {{0, 4, 0},
     "rave 0.4.0 draws a variant's rules directly from those that can hold, with the same "
     "distribution but other random draws (--grid above 3, --values or --regime)",
     [](const engine::Variant& v, engine::AnswerStrategy) {
       return !engine::draws_original_rules(v);
     }},
    {{0, 4, 0},
     "rave 0.4.0 builds a variant's I-RAVEN and FAIR answer sets exchangeably, the answer a "
     "uniformly random candidate (any --grid, --values, --confounders or --regime)",
     [](const engine::Variant& v, engine::AnswerStrategy) { return !v.is_original(); }},
    {{0, 5, 0},
     "rave 0.5.0 draws the replicas of an exchangeable answer set under rules drawn afresh, so "
     "that no set falls back to the old draw (--answers balanced at any size; iraven and fair "
     "at any --grid, --values, --confounders or --regime)",
     touches_exchangeable_sets},
    {{0, 6, 0},
     "rave 0.6.0 draws the replicas of an exchangeable answer set under the matrix's own rules "
     "first, under rules drawn afresh only where those offer no shape (--answers balanced at "
     "any size; iraven and fair at any --grid, --values, --confounders or --regime)",
     touches_exchangeable_sets},
    {{0, 7, 0},
     "rave 0.7.0 draws the matrix of an exchangeable answer set again where a pool under its own "
     "rules offers no shape, instead of drawing pools under fresh rules for the same answer "
     "(--answers balanced at any size; iraven and fair at any --grid, --values, --confounders "
     "or --regime)",
     touches_exchangeable_sets},
}};

std::optional<Version> parse_version(std::string_view text) {
  Version v{};
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0 && (p == end || *p++ != '.')) return std::nullopt;
    const auto [next, ec] = std::from_chars(p, end, v[i]);
    if (ec != std::errc()) return std::nullopt;
    p = next;
  }
  return p == end ? std::optional(v) : std::nullopt;
}

}  // namespace

bool generates_alike(std::string_view made_by, std::string_view current,
                     const engine::Variant& variant, engine::AnswerStrategy answers) {
  const auto old = parse_version(made_by);
  const auto now = parse_version(current);
  if (!old || !now || *now < *old) return false;
  for (const GeneratorChange& change : kChanges)
    if (*old < change.version && !(*now < change.version) && change.touches(variant, answers))
      return false;
  return true;
}

std::string generator_changes_since(std::string_view version, const engine::Variant& variant,
                                    engine::AnswerStrategy answers) {
  const auto made_by = parse_version(version);
  if (!made_by) return {};
  std::string out;
  for (const GeneratorChange& change : kChanges) {
    if (!(*made_by < change.version) || !change.touches(variant, answers)) continue;
    out += (out.empty() ? "" : "; ") + std::string(change.what);
  }
  return out;
}

}  // namespace rave::jobs
