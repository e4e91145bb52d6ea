#pragma once
// rave's version (CMake's project version), for --version and for what rave records in the files
// it writes (the dataset manifest, jobs/dataset_manifest.hpp).
//
//   std::string line = "rave " + std::string(rave::version());   // "rave 0.1.0"
#include <string_view>

namespace rave {

/// "MAJOR.MINOR.PATCH" of this build.
std::string_view version();

}  // namespace rave
