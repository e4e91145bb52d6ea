#pragma once
// Progress of long work on stderr. On a terminal: `label  done/total  rate/s  ETA mm:ss`, redrawn
// in place at most 5 times a second. Otherwise (a log file, a cluster job's output): one full line
// every few seconds (RAVE_PROGRESS_SECONDS, default 5; 0 prints every update), none for short work.
//
//   ProgressLine line("generate", total);
//   line.update(done);   // from any thread, one call at a time
//   line.finish();
#include <chrono>
#include <cstdint>
#include <string>

namespace rave::cli {

class ProgressLine {
 public:
  /// `total` units of work; `unit` names them in the rate ("problems").
  ProgressLine(std::string label, std::uint64_t total, std::string unit = "problems");
  /// Reports `done` units finished; redraws when due.
  void update(std::uint64_t done);
  /// Draws the final state and ends the line.
  void finish();
  /// Seconds since construction.
  double elapsed() const;

 private:
  void draw(std::uint64_t done);
  void log_line(std::uint64_t done);
  std::string label_;
  std::string unit_;
  std::uint64_t total_;
  bool terminal_;
  std::chrono::milliseconds log_every_;
  std::uint64_t last_done_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

/// "1:05", "12:00:03": a duration for humans.
std::string format_duration(double seconds);

}  // namespace rave::cli
