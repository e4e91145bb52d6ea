#include "common/deferred_signals.hpp"
#include "common/stop_signals.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace rave {
namespace {

std::atomic<int> g_seen{0};
extern "C" void count_signal(int number) { g_seen.fetch_add(number); }

// Installs count_signal for SIGINT and SIGTERM for the test's life, and puts the old ones back.
class CountingHandlers {
 public:
  CountingHandlers() {
    g_seen.store(0);
    old_ = install_stop_handler(count_signal);
  }
  ~CountingHandlers() { restore_stop_handlers(old_); }

 private:
  StopSignalHandlers old_;
};

TEST(DeferredSignals, ASignalInTheScopeReachesTheOldHandlerWhenItEnds) {
  CountingHandlers handlers;
  {
    DeferredSignals hold;
    std::raise(SIGTERM);
    EXPECT_EQ(g_seen.load(), 0) << "delivered inside the scope";
  }
  EXPECT_EQ(g_seen.load(), SIGTERM);
}

TEST(DeferredSignals, ASignalFromAnotherThreadWaitsToo) {
  CountingHandlers handlers;
  {
    DeferredSignals hold;
    std::thread([] { std::raise(SIGINT); }).join();  // raise() in a thread: delivered to it
    EXPECT_EQ(g_seen.load(), 0);
  }
  EXPECT_EQ(g_seen.load(), SIGINT);
}

TEST(DeferredSignals, WithoutASignalNothingIsRaisedAndTheHandlersAreBack) {
  CountingHandlers handlers;
  { DeferredSignals hold; }
  EXPECT_EQ(g_seen.load(), 0);
  std::raise(SIGTERM);  // the counting handler is in place again
  EXPECT_EQ(g_seen.load(), SIGTERM);
}

TEST(DeferredSignals, TheDefaultActionStillEndsTheProcessAfterTheScope) {
  EXPECT_EXIT(
      {
        std::signal(SIGTERM, SIG_DFL);
        {
          DeferredSignals hold;
          std::raise(SIGTERM);
          std::fputs("survived the scope's signal\n", stderr);
        }
        std::exit(0);
      },
      testing::KilledBySignal(SIGTERM), "survived the scope's signal");
}

}  // namespace
}  // namespace rave
