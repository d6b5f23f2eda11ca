#include "falcon/core/progress.h"

#include <cstdio>

namespace falcon {

Progress::Progress(std::string label, long total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled),
      start_(std::chrono::steady_clock::now()), last_print_(start_) {}

void Progress::advance(long by) {
  done_ += by;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_print_ >= std::chrono::seconds(1)) {
    last_print_ = now;
    print(false);
  }
}

void Progress::finish() {
  // Runs that never printed a progress line (under a second) stay quiet.
  if (last_print_ != start_) print(true);
}

void Progress::print(bool final_line) {
  if (!enabled_) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? done_ / elapsed : 0.0;
  if (final_line) {
    std::fprintf(stderr, "\r%s %ld/%ld  %.1f/s  done in %.1fs  %s\n", label_.c_str(), done_, total_, rate, elapsed,
                 status_.c_str());
  } else {
    const double eta = rate > 0 ? (total_ - done_) / rate : 0.0;
    std::fprintf(stderr, "\r%s %ld/%ld  %.1f/s  ETA %.0fs  %s ", label_.c_str(), done_, total_, rate, eta,
                 status_.c_str());
  }
  std::fflush(stderr);
}

}  // namespace falcon
