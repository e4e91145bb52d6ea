#pragma once
// SIGINT and SIGTERM held back while writes that belong together are made (a checkpoint and the
// record of the epochs it holds): a signal that comes meanwhile, in any thread, is delivered with
// the handlers that were in place when the scope began, once it ends. So a run stopped by a
// scheduler's SIGTERM never leaves last.pt one epoch ahead of metrics.jsonl.
//
//   {
//     DeferredSignals hold;  // a signal now waits
//     save_checkpoint(...);
//     write_metrics(...);
//   }                        // restored; a signal that came is raised here (by default: the end)
//
// One scope at a time per process (the handlers are process-wide).
#include "common/stop_signals.hpp"

namespace rave {

class DeferredSignals {
 public:
  DeferredSignals();
  /// Restores the handlers, then raises the signal that came while the scope lived, if one did.
  ~DeferredSignals();
  DeferredSignals(const DeferredSignals&) = delete;
  DeferredSignals& operator=(const DeferredSignals&) = delete;

 private:
  StopSignalHandlers old_;
};

}  // namespace rave
