#include "common/deferred_signals.hpp"

#include <atomic>
#include <csignal>

namespace rave {
namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the handler stores into it");
std::atomic<int> g_pending{0};

extern "C" void on_deferred_signal(int number) { g_pending.store(number); }  // async-signal-safe

}  // namespace

DeferredSignals::DeferredSignals() {
  g_pending.store(0);
  old_ = install_stop_handler(on_deferred_signal);  // SA_RESTART: the writes' system calls go on
}

DeferredSignals::~DeferredSignals() {
  restore_stop_handlers(old_);
  if (const int number = g_pending.exchange(0); number != 0) std::raise(number);
}

}  // namespace rave
