#pragma once
// Progress line for long loops: "solve 12/100  3.2/s  ETA 27s" on stderr, so stdout stays clean
// for JSON lines. On a terminal one line is redrawn (carriage return) at most once a second; in a
// file or pipe (nohup, CI, `2>log`) a whole line is written every 30 s instead, so the log reads
// with tail and grep and does not grow by a line a second. A run of a second or more ends with
// a total line.
#include <chrono>
#include <cstdio>
#include <string>

namespace falcon {

struct ProgressStyle {
  bool redraw;                        // "\r" over one line (a terminal) vs one line per print
  std::chrono::milliseconds interval; // at most one print per interval
  // The style for `stream`: a terminal redraws every second, anything else prints every 30 s.
  static ProgressStyle for_stream(std::FILE* stream);
};

class Progress {
 public:
  Progress(std::string label, long total, bool enabled = true,
           ProgressStyle style = ProgressStyle::for_stream(stderr), std::FILE* out = stderr);
  void advance(long by = 1);
  // Work a resumed job did before this process: counted as done, but not in the rate, which
  // (and so the ETA) is measured on this process's own work only.
  void resume_at(long done) { done_ = resumed_ = done; }
  // Extra text after the rate and ETA ("loss 1.23  4,100 tok/s"), shown from the next print.
  void set_status(std::string status) { status_ = std::move(status); }
  void finish();

 private:
  void print(bool final_line);

  std::string label_;
  std::string status_;
  long total_;
  long done_ = 0;
  long resumed_ = 0;  // of done_, what an earlier process did
  bool enabled_;
  ProgressStyle style_;
  std::FILE* out_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_, last_print_;
};

}  // namespace falcon
