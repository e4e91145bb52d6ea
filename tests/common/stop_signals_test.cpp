#include "common/stop_signals.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>

namespace rave {
namespace {

std::atomic<int> g_seen{0};
extern "C" void note_signal(int number) { g_seen.store(number); }

struct sigaction current(int number) {
  struct sigaction now {};
  sigaction(number, nullptr, &now);
  return now;
}

TEST(StopSignals, InstallsTheHandlerForBothWithRestartAndTheExtraFlags) {
  const StopSignalHandlers old = install_stop_handler(note_signal, SA_RESETHAND);
  for (const int number : {SIGINT, SIGTERM}) {
    const struct sigaction now = current(number);
    EXPECT_EQ(now.sa_handler, &note_signal) << number;
    EXPECT_TRUE(now.sa_flags & SA_RESTART) << number;
    EXPECT_TRUE(now.sa_flags & SA_RESETHAND) << number;
  }
  restore_stop_handlers(old);
}

TEST(StopSignals, RestorePutsBackWhatWasThere) {
  const StopSignalHandlers outer = install_stop_handler(note_signal);
  const StopSignalHandlers inner = install_stop_handler(SIG_IGN);
  EXPECT_EQ(inner.interrupt.sa_handler, &note_signal);
  EXPECT_EQ(inner.terminate.sa_handler, &note_signal);
  EXPECT_EQ(current(SIGTERM).sa_handler, SIG_IGN);
  restore_stop_handlers(inner);
  EXPECT_EQ(current(SIGINT).sa_handler, &note_signal);
  EXPECT_EQ(current(SIGTERM).sa_handler, &note_signal);
  restore_stop_handlers(outer);
  EXPECT_EQ(current(SIGINT).sa_handler, outer.interrupt.sa_handler);
  EXPECT_EQ(current(SIGTERM).sa_handler, outer.terminate.sa_handler);
}

TEST(StopSignals, TheHandlerRunsOnASignalAndResetHandMakesItOneShot) {
  const StopSignalHandlers old = install_stop_handler(note_signal, SA_RESETHAND);
  g_seen.store(0);
  std::raise(SIGTERM);
  EXPECT_EQ(g_seen.load(), SIGTERM);
  EXPECT_EQ(current(SIGTERM).sa_handler, SIG_DFL) << "SA_RESETHAND: the next one gets the default";
  EXPECT_EQ(current(SIGINT).sa_handler, &note_signal) << "the other signal keeps its handler";
  restore_stop_handlers(old);
}

}  // namespace
}  // namespace rave
