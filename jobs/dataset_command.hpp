#pragma once
// The `rave generate` command that makes a dataset, as rave.json records it (docs/dataset.md) and
// the folder lock names its holder: every parameter the data depends on, spelled out in full; not
// the folder, -j or --resume, on which the bytes do not depend, so that the same dataset written
// anywhere at any thread count has the same rave.json.
//
//   spec.command = dataset_command(spec);   // {"rave", "generate", "--num-samples", "10", ...}
#include <string>
#include <vector>

#include "jobs/dataset.hpp"

namespace rave::jobs {

/// The canonical command line of `spec`'s dataset.
std::vector<std::string> dataset_command(const DatasetSpec& spec);

}  // namespace rave::jobs
