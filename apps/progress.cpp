#include "apps/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace rave::apps {

ProgressLine::ProgressLine(std::string label, std::uint64_t total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(::isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

double ProgressLine::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressLine::update(std::uint64_t done) {
  last_done_ = done;
  const auto now = std::chrono::steady_clock::now();
  if (!enabled_ || now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  draw(done);
}

void ProgressLine::finish() {
  if (!enabled_) return;
  draw(last_done_);
  std::fputc('\n', stderr);
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
  auto total = static_cast<long long>(seconds + 0.5);
  const long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
  char buffer[32];
  if (h > 0)
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", h, m, s);
  else
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld", m, s);
  return buffer;
}

}  // namespace rave::apps
