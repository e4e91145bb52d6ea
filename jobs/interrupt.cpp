#include "jobs/interrupt.hpp"

#include <csignal>

#include "common/stop_signals.hpp"

namespace rave::jobs {
namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the handler stores into it");
std::atomic<int> g_signal{0};
StopSignalHandlers g_old;

extern "C" void on_signal(int number) {
  g_signal.store(number);
}  // async-signal-safe: a lock-free store

}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal.store(0);
  g_old = install_stop_handler(on_signal, SA_RESETHAND);  // a second signal: the default, the end
}

InterruptGuard::~InterruptGuard() { restore_stop_handlers(g_old); }

const std::atomic<int>& InterruptGuard::flag() const { return g_signal; }

const char* InterruptGuard::signal_name() const {
  switch (signal()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

}  // namespace rave::jobs
