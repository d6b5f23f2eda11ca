#include "falcon/core/progress.h"

#include <unistd.h>

namespace falcon {

ProgressStyle ProgressStyle::for_stream(std::FILE* stream) {
  if (isatty(fileno(stream)) != 0) return {true, std::chrono::seconds(1)};
  return {false, std::chrono::seconds(30)};
}

Progress::Progress(std::string label, long total, bool enabled, ProgressStyle style, std::FILE* out)
    : label_(std::move(label)), total_(total), enabled_(enabled), style_(style), out_(out),
      start_(std::chrono::steady_clock::now()), last_print_(start_) {}

void Progress::advance(long by) {
  done_ += by;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_print_ >= style_.interval) {
    last_print_ = now;
    print(false);
  }
}

void Progress::finish() {
  // Runs under a second that printed nothing stay quiet; a longer one ends with its total line,
  // also when it was shorter than a file's 30 s interval.
  if (printed_ || std::chrono::steady_clock::now() - start_ >= std::chrono::seconds(1)) print(true);
}

void Progress::print(bool final_line) {
  if (!enabled_) return;
  printed_ = true;
  const char* start = style_.redraw ? "\r" : "";
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? (done_ - resumed_) / elapsed : 0.0;
  if (final_line) {
    std::fprintf(out_, "%s%s %ld/%ld  %.1f/s  done in %.1fs  %s\n", start, label_.c_str(), done_, total_, rate,
                 elapsed, status_.c_str());
  } else {
    const double eta = rate > 0 ? (total_ - done_) / rate : 0.0;
    std::fprintf(out_, "%s%s %ld/%ld  %.1f/s  ETA %.0fs  %s%s", start, label_.c_str(), done_, total_, rate, eta,
                 status_.c_str(), style_.redraw ? " " : "\n");
  }
  std::fflush(out_);
}

}  // namespace falcon
