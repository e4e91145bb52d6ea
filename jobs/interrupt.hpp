#pragma once
// SIGINT and SIGTERM as a request to stop cleanly (a cluster scheduler sends SIGTERM at its time
// limit): while an InterruptGuard lives, the first such signal sets a flag that long work checks
// between items (jobs::DatasetSpec::stop), and a second one ends the process at once.
//
//   InterruptGuard guard;
//   spec.stop = &guard.flag();
//   ... run ...
//   if (guard.signal() != 0) { print how to resume; return guard.exit_code(); }
#include <atomic>

namespace rave::jobs {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  /// Non-zero (the signal number) once a signal came.
  const std::atomic<int>& flag() const;
  /// The signal that came, 0 if none.
  int signal() const { return flag().load(); }
  /// "SIGINT", "SIGTERM".
  const char* signal_name() const;
  /// The shell's code for death by that signal: 128 + its number.
  int exit_code() const { return 128 + signal(); }
};

}  // namespace rave::jobs
