// neural_launch.hpp (part of rave-train).
#include "cli/neural/neural_launch.hpp"

#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/local_port.hpp"
#include "neural/distributed.hpp"

extern char** environ;

namespace rave::cli {
namespace {

constexpr const char* kErrorFileVariable = "RAVE_RANK_ERROR_FILE";
constexpr const char* kCpuBindingVariable = "RAVE_CPU_BINDING";  // each rank's CPUs, for the log
constexpr auto kGrace =
    std::chrono::seconds(10);  // after one rank fails, before the rest are stopped

// This process's command line (argv as started), without `--nproc N` / `--nproc=N`.
std::vector<std::string> command_line_without_nproc() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string arg; std::getline(in, arg, '\0');) args.push_back(arg);
  if (args.empty())
    throw UsageError("--nproc: cannot read this process's command line (/proc/self/cmdline)");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--nproc")
      ++i;
    else if (!args[i].starts_with("--nproc="))
      out.push_back(args[i]);
  }
  return out;
}

struct Rank {
  pid_t pid = 0;
  int status = 0;
  bool done = false;
  std::filesystem::path error_file;
};

pid_t spawn_rank(const std::vector<std::string>& args, const std::vector<std::string>& extra_env) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  env_strings.insert(env_strings.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc =
          ::posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), envp.data());
      rc != 0)
    throw UsageError(std::string("--nproc: cannot start a rank (") + std::strerror(rc) + ")");
  return pid;
}

// The CPUs this process may run on, in order (empty when unknown).
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return {};
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// Rank r's share of `cpus` among n ranks: the r-th of n contiguous blocks whose sizes differ by
// at most one.
std::vector<int> cpu_share(const std::vector<int>& cpus, int r, int n) {
  const auto c = cpus.size(), ranks = static_cast<std::size_t>(n), i = static_cast<std::size_t>(r);
  return {cpus.begin() + static_cast<std::ptrdiff_t>(i * c / ranks),
          cpus.begin() + static_cast<std::ptrdiff_t>((i + 1) * c / ranks)};
}

bool set_affinity(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  return ::sched_setaffinity(0, sizeof set, &set) == 0;
}

// "0-3" / "0,2,5": a CPU list as taskset and /proc write it.
std::string cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out.append("-").append(std::to_string(cpus[j]));
    i = j + 1;
  }
  return out;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Waits for every rank; once one fails, gives the others kGrace to notice, then stops them.
// Until then it sleeps in waitpid: polling would wake a core the ranks are using.
void wait_all(std::vector<Rank>& ranks) {
  std::optional<std::chrono::steady_clock::time_point> failed_at;
  for (std::size_t left = ranks.size(); left > 0;) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, failed_at ? WNOHANG : 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid <= 0) {
      if (failed_at && std::chrono::steady_clock::now() - *failed_at > kGrace)
        for (auto& r : ranks)
          if (!r.done) ::kill(r.pid, SIGTERM);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    for (auto& r : ranks) {
      if (r.pid != pid) continue;
      r.done = true, r.status = status, --left;
      if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && !failed_at)
        failed_at = std::chrono::steady_clock::now();
    }
  }
}

// The one line that explains a failed run and its exit code: the first rank's own error (not a
// consequence of another rank's loss), else a rank killed by a signal, else any error line.
int report(const std::vector<Rank>& ranks) {
  for (int pass = 0; pass < 3; ++pass) {
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const auto& r = ranks[i];
      const std::string text = read_text(r.error_file);
      const bool lost = text.starts_with("lost ");
      if (pass == 0 && !text.empty() && !lost) {
        std::fprintf(stderr, "rave: error: %s", text.substr(text.find(' ') + 1).c_str());
        return text.starts_with("usage ") ? 2 : 1;
      }
      if (pass == 1 && WIFSIGNALED(r.status) && WTERMSIG(r.status) != SIGTERM) {
        std::fprintf(
            stderr,
            "rave: error: rank %zu of %zu (pid %d) was killed by signal %d (%s); the other ranks "
            "stopped; continue the run from its last checkpoint with --resume\n",
            i, ranks.size(), r.pid, WTERMSIG(r.status), strsignal(WTERMSIG(r.status)));
        return 1;
      }
      if (pass == 2 && lost) {
        std::fprintf(stderr, "rave: error: %s", text.substr(text.find(' ') + 1).c_str());
        return 1;
      }
    }
  }
  for (const auto& r : ranks)
    if (!(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)) return 1;
  return 0;
}

}  // namespace

bool launched_rank() { return std::getenv(kErrorFileVariable) != nullptr; }

std::string rank_cpu_binding() {
  const char* binding = launched_rank() ? std::getenv(kCpuBindingVariable) : nullptr;
  return binding ? binding : "";
}

int launch_ranks(int nproc, bool bind_cpus) {
  const auto args = command_line_without_nproc();
  const int port = free_local_port();
  const auto dir =
      std::filesystem::temp_directory_path() / ("rave-ranks-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // Each rank inherits the affinity this process has while it starts it; ours is put back after.
  const auto cpus = allowed_cpus();
  bind_cpus = bind_cpus && cpus.size() >= static_cast<std::size_t>(nproc);
  std::string binding;
  for (int r = 0; bind_cpus && r < nproc; ++r)
    binding.append(r ? " | " : "").append(cpu_list(cpu_share(cpus, r, nproc)));
  std::vector<Rank> ranks(static_cast<std::size_t>(nproc));
  for (int r = 0; r < nproc; ++r) {
    auto& rank = ranks[static_cast<std::size_t>(r)];
    rank.error_file = dir / ("rank-" + std::to_string(r) + ".err");
    const std::string n = std::to_string(nproc), i = std::to_string(r);
    std::vector<std::string> env{"RANK=" + i,
                                 "LOCAL_RANK=" + i,
                                 "WORLD_SIZE=" + n,
                                 "LOCAL_WORLD_SIZE=" + n,
                                 "MASTER_ADDR=127.0.0.1",
                                 "MASTER_PORT=" + std::to_string(port),
                                 std::string(kErrorFileVariable) + "=" + rank.error_file.string()};
    if (bind_cpus && set_affinity(cpu_share(cpus, r, nproc)))
      env.push_back(std::string(kCpuBindingVariable) + "=" + binding);
    rank.pid = spawn_rank(args, env);
  }
  if (bind_cpus) set_affinity(cpus);
  wait_all(ranks);
  const int code = report(ranks);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return code;
}

int run_as_rank(const std::function<int()>& work) {
  const char* file = std::getenv(kErrorFileVariable);
  if (!file) return work();
  const auto leave = [&](const char* kind, const std::exception& e) {
    write_file_atomic(file, std::string_view(std::string(kind) + " " + e.what() + "\n"));
  };
  try {
    return work();
  } catch (const neural::DistributedError& e) {
    leave("lost", e);
  } catch (const UsageError& e) {
    leave("usage", e);
    return 2;
  } catch (const Error& e) {
    leave("error", e);
  }
  return 1;
}

}  // namespace rave::cli
