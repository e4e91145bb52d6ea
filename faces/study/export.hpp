#pragma once
// `rave study export`: every participant's test problems as a predictions file that `rave score`
// reads (docs/evaluation.md#predictions, docs/study.md#scoring): OUT/participant-<id>.jsonl, one
// line per test problem of their sequence in the order they were shown, {"id", "answer",
// "seconds", "model": "Human", "participant": <id>}, "answer": null for a problem they did not
// answer (they stopped early). `rave score` scores each participant on the problems they answered,
// so `rave score --seeds` makes one Human row with intervals over the participants, and the time
// per problem beside it; OUT/problems.txt lists the study's test problems (a `--subset` for the
// other rows). Practice answers stay in the database.
//
//   ExportCounts n = export_predictions(store, "out/study-answers");
//   std::vector<evaluation::PredictionFile> files = participant_files(store);  // the same, in memory
#include <cstddef>
#include <filesystem>
#include <vector>

#include "evaluation/scoring/predictions.hpp"
#include "study/store.hpp"

namespace rave::study {

struct ExportCounts {
  std::size_t participants = 0;  ///< files written (participants with a test answer)
  std::size_t answers = 0;       ///< test answers written
  std::size_t unanswered = 0;    ///< test problems of those participants not answered
  std::size_t without = 0;       ///< participants enrolled without a test answer (no file)
};

/// Every participant with a test answer as the file export_predictions writes (file
/// "participant-<id>.jsonl", model "Human", participant set), by participant id.
std::vector<evaluation::PredictionFile> participant_files(const Store& store);

/// Writes the files and problems.txt into the folder `out` (created); each file is written whole or
/// not at all.
ExportCounts export_predictions(const Store& store, const std::filesystem::path& out);

}  // namespace rave::study
