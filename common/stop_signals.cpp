#include "common/stop_signals.hpp"

namespace rave {

StopSignalHandlers install_stop_handler(void (*handler)(int), int extra_flags) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | extra_flags;
  StopSignalHandlers old;
  sigaction(SIGINT, &action, &old.interrupt);
  sigaction(SIGTERM, &action, &old.terminate);
  return old;
}

void restore_stop_handlers(const StopSignalHandlers& old) {
  sigaction(SIGINT, &old.interrupt, nullptr);
  sigaction(SIGTERM, &old.terminate, nullptr);
}

}  // namespace rave
