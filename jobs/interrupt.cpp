#include "jobs/interrupt.hpp"

#include <csignal>

namespace rave::jobs {
namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the handler stores into it");
std::atomic<int> g_signal{0};
struct sigaction g_old_int {
}, g_old_term{};

extern "C" void on_signal(int number) {
  g_signal.store(number);
}  // async-signal-safe: a lock-free store

}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags =
      SA_RESTART | SA_RESETHAND;  // the second signal gets the default action: the process ends
  sigaction(SIGINT, &action, &g_old_int);
  sigaction(SIGTERM, &action, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

const std::atomic<int>& InterruptGuard::flag() const { return g_signal; }

const char* InterruptGuard::signal_name() const {
  switch (signal()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

}  // namespace rave::jobs
