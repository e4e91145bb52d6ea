#include "tests/support/test_support.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <unistd.h>

namespace rave::testing {

std::optional<std::filesystem::path> shared_dir() {
  std::filesystem::path dir = RAVE_DEFAULT_SHARED_DIR;
  if (const char* env = std::getenv("RAVE_SHARED_DIR"); env != nullptr && *env != '\0') dir = env;
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return std::filesystem::weakly_canonical(dir, ec);
  return std::nullopt;
}

std::optional<std::filesystem::path> reference_dir(const std::string& name) {
  auto shared = shared_dir();
  if (!shared) return std::nullopt;
  auto dir = *shared / "data" / name;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  return dir;
}

std::vector<std::filesystem::path> reference_xmls(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".xml") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::filesystem::path source_dir() { return RAVE_SOURCE_DIR; }

std::filesystem::path scratch_dir(const std::string& tag) {
  static std::atomic<int> counter{0};
  auto dir = std::filesystem::temp_directory_path() /
             ("rave-test-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::optional<std::string> python_with_numpy() {
  for (const char* candidate : {"/usr/bin/python3"}) {
    std::string command = std::string(candidate) + " -c 'import numpy' >/dev/null 2>&1";
    if (std::system(command.c_str()) == 0) return std::string(candidate);
  }
  return std::nullopt;
}

}  // namespace rave::testing
