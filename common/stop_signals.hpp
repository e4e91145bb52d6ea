#pragma once
// The handlers of the two signals that ask a process to stop, SIGINT and SIGTERM, swapped as a pair
// and put back: the one place rave installs them (DeferredSignals, jobs::InterruptGuard).
//
//   const StopSignalHandlers old = install_stop_handler(on_signal, SA_RESETHAND);
//   ...
//   restore_stop_handlers(old);
#include <csignal>

namespace rave {

/// The dispositions of SIGINT and SIGTERM as they were before an install_stop_handler.
struct StopSignalHandlers {
  struct sigaction interrupt {};
  struct sigaction terminate {};
};

/// Installs `handler` for SIGINT and SIGTERM with SA_RESTART (interrupted system calls go on) and
/// `extra_flags`, blocking nothing else while it runs; returns the dispositions it replaced.
StopSignalHandlers install_stop_handler(void (*handler)(int), int extra_flags = 0);

/// Puts back what install_stop_handler replaced.
void restore_stop_handlers(const StopSignalHandlers& old);

}  // namespace rave
