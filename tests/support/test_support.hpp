#pragma once
// Helpers shared by the test executables: where the reference data and the source tree are, and
// a scratch folder per test.
//
//   auto dir = reference_dir("raven-reference");  // GTEST_SKIPs inside the macro below if absent
//   RAVE_REQUIRE_REFERENCE(dir, "raven-reference");
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rave::testing {

/// `../shared` (or $RAVE_SHARED_DIR) when it exists.
std::optional<std::filesystem::path> shared_dir();
/// `<shared>/data/<name>` when it exists (e.g. "raven-reference").
std::optional<std::filesystem::path> reference_dir(const std::string& name);
/// Every problem XML under a reference folder, sorted.
std::vector<std::filesystem::path> reference_xmls(const std::filesystem::path& dir);
/// The repository root (for data/ and tests/data/).
std::filesystem::path source_dir();
/// A fresh empty folder under the system temp dir, unique per call.
std::filesystem::path scratch_dir(const std::string& tag);
/// Debian's python3 with numpy, when present (for the numpy reader checks).
std::optional<std::string> python_with_numpy();

}  // namespace rave::testing

/// Skips the current test cleanly when a reference folder is absent.
#define RAVE_REQUIRE_REFERENCE(var, name)                                            \
  auto var##_opt = ::rave::testing::reference_dir(name);                             \
  if (!var##_opt) GTEST_SKIP() << "reference data " << (name) << " not found (../shared absent)"; \
  const std::filesystem::path var = *var##_opt
