#include "common/deferred_signals.hpp"

#include <atomic>

namespace rave {
namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the handler stores into it");
std::atomic<int> g_pending{0};

extern "C" void on_deferred_signal(int number) { g_pending.store(number); }  // async-signal-safe

}  // namespace

DeferredSignals::DeferredSignals() {
  g_pending.store(0);
  struct sigaction action {};
  action.sa_handler = on_deferred_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // the writes' system calls go on
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
}

DeferredSignals::~DeferredSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
  if (const int number = g_pending.exchange(0); number != 0) std::raise(number);
}

}  // namespace rave
