#pragma once
// `rave study export`: every participant's test answers as a predictions file that `rave score`
// reads (docs/evaluation.md#predictions): OUT/participant-<id>.jsonl, one line per answered test
// problem, {"id", "answer", "seconds", "model": "Human"}, so `rave score --seeds` makes one Human row
// with intervals over the participants, and the time per problem beside it. Practice answers stay
// in the database.
#include <cstddef>
#include <filesystem>

#include "study/store.hpp"

namespace rave::study {

struct ExportCounts {
  std::size_t participants = 0;  ///< files written (participants with a test answer)
  std::size_t answers = 0;       ///< lines written
};

/// Writes the files into the folder `out` (created); each file is written whole or not at all.
ExportCounts export_predictions(const Store& store, const std::filesystem::path& out);

}  // namespace rave::study
