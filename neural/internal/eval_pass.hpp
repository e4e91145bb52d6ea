#pragma once
// The evaluation pass shared by the epoch loop (epoch_loop.cpp: validation and test each epoch)
// and `rave eval` (evaluate, eval_pass.cpp): one pass in eval mode over a split's files, accuracy
// counted per configuration, with running totals reported as progress. Torch-facing, internal.
//
//   PhaseMeter meter("train", epoch, epochs, stream.size(), progress);
//   meter.add(train_step(...));                       // progress after every step
//   EvalTotals val = evaluate_files(model, files, pipe, {device, precision, group}, label, progress);
#include <chrono>
#include <cstdint>
#include <string_view>
#include <vector>

#include "neural/epoch_loop.hpp"
#include "neural/train_step.hpp"

namespace rave::neural::internal {

using Clock = std::chrono::steady_clock;

/// Seconds from `t0` until now.
double seconds_since(Clock::time_point t0);

/// Running totals of one phase (train, val, test) and the progress reports made from them.
class PhaseMeter {
 public:
  PhaseMeter(std::string_view phase, int epoch, int epochs, std::size_t steps,
             const ProgressFn& report);
  /// Adds a step's totals and reports progress.
  void add(const StepStats& s);
  StepStats& totals() { return totals_; }
  double seconds() const { return seconds_since(start_); }

 private:
  const ProgressFn& report_;
  Clock::time_point start_;
  Progress progress_;
  StepStats totals_;
};

/// sum / n, 0 when n is 0.
double mean(double sum, std::int64_t n);

/// Sums a phase's totals over the ranks (a no-op alone).
void reduce(Collective* group, StepStats& s);

/// The totals of an evaluation pass.
struct EvalTotals {
  double loss_sum = 0;
  AccuracyByConfig accuracy;
  double mean_loss() const { return mean(loss_sum, accuracy.problems()); }
  std::vector<ProblemScores>
      predictions;  // with EvalPass::keep_scores: every problem's answer logits
};

/// Where a pass evaluates and how.
struct EvalPass {
  const torch::Device& device;
  Precision precision;
  Collective* group;         // each rank evaluates its shard; totals summed (nullptr: alone)
  bool keep_scores = false;  // also keep every problem's answer logits (a pass alone, not sharded)
};

/// One pass in eval mode over this rank's share of `files`, accuracy counted per configuration.
EvalTotals evaluate_files(RavenModelImpl& model, const std::vector<DataFile>& files,
                          const PipelineOptions& options, const EvalPass& pass,
                          const Progress& label, const ProgressFn& progress,
                          ProblemCache* cache = nullptr);

/// `threads`, or the hardware's thread count when it is 0 or less.
int threads_or_hardware(int threads);

}  // namespace rave::neural::internal
