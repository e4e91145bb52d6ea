#include "cli/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rave::cli {

namespace {

// RAVE_PROGRESS_SECONDS, or 5 s: how often a log line is written when stderr is no terminal.
std::chrono::milliseconds log_interval() {
  const char* text = std::getenv("RAVE_PROGRESS_SECONDS");
  char* end = nullptr;
  const double seconds = text != nullptr ? std::strtod(text, &end) : 5.0;
  const bool valid =
      text == nullptr || (end != text && *end == '\0' && seconds >= 0 && seconds < 1e6);
  return std::chrono::milliseconds(static_cast<long long>((valid ? seconds : 5.0) * 1000));
}

}  // namespace

ProgressLine::ProgressLine(std::string label, std::uint64_t total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      terminal_(::isatty(STDERR_FILENO) != 0),
      log_every_(log_interval()),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

double ProgressLine::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressLine::update(std::uint64_t done) {
  last_done_ = done;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < (terminal_ ? std::chrono::milliseconds(200) : log_every_)) return;
  last_draw_ = now;
  if (terminal_)
    draw(done);
  else
    log_line(done);
}

void ProgressLine::finish() {
  if (!terminal_) return;
  draw(last_done_);
  std::fputc('\n', stderr);
}

void ProgressLine::log_line(std::uint64_t done) {
  const double seconds = elapsed();
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
  std::fprintf(stderr, "%s: %llu/%llu %s (%.0f%%), %.1f %s/s, elapsed %s, ETA %s\n", label_.c_str(),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
               unit_.c_str(),
               total_ > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0,
               rate, unit_.c_str(), format_duration(seconds).c_str(), format_duration(eta).c_str());
  std::fflush(stderr);
}

void ProgressLine::draw(std::uint64_t done) {
  const double seconds = elapsed();
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
  std::fprintf(stderr, "\r%s  %llu/%llu  %.1f %s/s  ETA %s   ", label_.c_str(),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), rate,
               unit_.c_str(), format_duration(eta).c_str());
  std::fflush(stderr);
}

std::string format_duration(double seconds) {
  auto total = std::llround(seconds);
  const long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
  char buffer[32];
  if (h > 0)
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", h, m, s);
  else
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld", m, s);
  return buffer;
}

}  // namespace rave::cli
