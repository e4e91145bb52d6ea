#include "cli/python_forward.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "common/error.hpp"

namespace rave::cli {
namespace {

namespace fs = std::filesystem;

// <prefix>/bin/python3 when this executable is <prefix>/lib/pythonX.Y/site-packages/rave/bin/rave.
std::optional<fs::path> installed_python() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  const fs::path package = self.parent_path().parent_path();  // .../site-packages/rave
  if (package.filename() != "rave" || package.parent_path().filename() != "site-packages")
    return std::nullopt;
  const fs::path prefix = package.parent_path().parent_path().parent_path().parent_path();
  for (const char* name : {"python3", "python"})
    if (fs::is_regular_file(prefix / "bin" / name, ec)) return prefix / "bin" / name;
  return std::nullopt;
}

// The build's Python (configure time), with the build tree's package put first on PYTHONPATH.
std::optional<fs::path> build_python() {
#if defined(RAVE_BUILD_PYTHON) && defined(RAVE_BUILD_PYTHON_DIR)
  std::error_code ec;
  if (!fs::is_regular_file(RAVE_BUILD_PYTHON, ec)) return std::nullopt;
  std::string path = RAVE_BUILD_PYTHON_DIR;
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) path.append(1, ':').append(old);
  ::setenv("PYTHONPATH", path.c_str(), 1);
  return fs::path(RAVE_BUILD_PYTHON);
#else
  return std::nullopt;
#endif
}

fs::path python_with_rave() {
  if (const char* chosen = std::getenv("RAVE_PYTHON"); chosen && *chosen) return chosen;
  if (auto p = installed_python()) return *p;
  if (auto p = build_python()) return *p;
  return "python3";
}

}  // namespace

namespace {

std::vector<std::string> python_words(const fs::path& python,
                                      const std::vector<std::string>& args) {
  std::vector<std::string> words{python.string(), "-m", "rave"};
  words.insert(words.end(), args.begin(), args.end());
  return words;
}

std::vector<char*> argv_of(std::vector<std::string>& words) {
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

void exec_python_rave(const std::vector<std::string>& args) {
  const fs::path python = python_with_rave();
  std::vector<std::string> words = python_words(python, args);
  std::vector<char*> argv = argv_of(words);
  ::execvp(python.c_str(), argv.data());
  throw Error(python.string() + ": cannot run (" + std::strerror(errno) +
              "); set RAVE_PYTHON to a Python with the rave package, pyarrow and datasets");
}

int run_python_rave(const std::vector<std::string>& args) {
  const fs::path python = python_with_rave();
  std::vector<std::string> words = python_words(python, args);
  std::vector<char*> argv = argv_of(words);
  std::fflush(nullptr);  // our output first, then the child's
  pid_t pid = 0;
  const int failed = ::posix_spawnp(&pid, python.c_str(), nullptr, nullptr, argv.data(), environ);
  if (failed != 0)
    throw Error(python.string() + ": cannot run (" + std::strerror(failed) +
                "); set RAVE_PYTHON to a Python with the rave package and scikit-learn");
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw Error(std::string("waiting for Python: ") + std::strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace rave::cli
