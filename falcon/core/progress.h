#pragma once
// Progress line for long loops: "solve 12/100  3.2/s  ETA 27s" on stderr, at most once a second
// (and always at the end), so stdout stays clean for JSON lines.
#include <chrono>
#include <string>

namespace falcon {

class Progress {
 public:
  Progress(std::string label, long total, bool enabled = true);
  void advance(long by = 1);
  // Extra text after the rate and ETA ("loss 1.23  4,100 tok/s"), shown from the next print.
  void set_status(std::string status) { status_ = std::move(status); }
  void finish();

 private:
  void print(bool final_line);

  std::string label_;
  std::string status_;
  long total_;
  long done_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point start_, last_print_;
};

}  // namespace falcon
