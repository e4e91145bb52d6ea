#pragma once
// Which problems a human study shows, and in what order (docs/study.md#protocol): every participant
// answers the same problems, drawn once from the set by the study's seed (K per configuration from
// one split, and a few practice problems from another), each in an order of their own: a seeded
// shuffle per participant, balanced over configurations (every block of seven consecutive test
// problems holds one of each configuration the set has), the practice problems first.
//
//   StudySet set = choose_problems(items, {.per_config = 4, .practice = 3, .seed = 7});
//   std::vector<std::string> ids = participant_sequence(set, 7, /*participant=*/1);
#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/configuration.hpp"
#include "evaluation/items.hpp"

namespace rave::study {

/// How the study's problems are drawn from a set.
struct StudyOptions {
  std::string split = "test";            ///< the test problems' split ("" = any)
  int per_config = 4;                    ///< test problems per configuration
  std::string practice_split = "train";  ///< the practice problems' split ("" = any)
  int practice = 3;                      ///< practice problems, answered with feedback
  std::uint64_t seed = 1;                ///< the draw, and with the participant, each order
};

/// One problem of a study: its id in the set, its configuration and its answer (the target index).
struct StudyProblem {
  std::string id;
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  int answer = 0;
};

/// The problems every participant sees.
struct StudySet {
  std::vector<StudyProblem> practice;  ///< in draw order
  std::vector<StudyProblem> test;      ///< grouped by configuration, in draw order
};

/// Draws the study's problems from `items` (problems without a known answer are skipped). Throws
/// UsageError when the options are out of range or the set has too few problems of a split.
StudySet choose_problems(const std::vector<evaluation::Item>& items, const StudyOptions& options);

/// The problem ids participant `participant` answers, in order: the practice problems (shuffled),
/// then the test problems shuffled in blocks balanced over configurations. A function of (seed,
/// participant) only.
std::vector<std::string> participant_sequence(const StudySet& set, std::uint64_t seed,
                                              std::int64_t participant);

}  // namespace rave::study
