#pragma once
// Runs a piece of work in a forked child process first, to learn whether it crashes or hangs, for
// libraries that may do either on untrusted input instead of returning an error (HDF5 1.10 on a
// damaged file). The child's result is thrown away; only how it ended is reported.
#include <functional>
#include <string>

namespace falcon {

struct ProbeOutcome {
  bool failed = false;  // the child died (a signal, a sanitizer's exit) or ran past the time limit
  std::string how;      // "signal 11 (Segmentation fault)", "exit status 1", "no end after 60 s"
};

// Forks; the child runs `work` (any exception it throws counts as finishing: the caller will meet
// the same error in-process) and exits. Fatal-signal handlers are reset in the child, so a crash
// there kills it plainly, and its stderr goes to /dev/null; a child still running after
// `time_limit_s` is killed, and so is one whose parent is killed first (on Linux). When fork is
// unavailable the work is not probed (failed = false).
ProbeOutcome probe_in_child(const std::function<void()>& work, double time_limit_s);

// The same probe through a server: a process forked once, while this one is small, that runs
// `work(request)` in a fresh child of its own for each request. Forking copies the page tables of
// the whole process, milliseconds for a fuzzer's hundreds of MB of sanitizer state, while a probe
// of a small file reads for far less; forking the small server instead keeps thousands of probes a
// second affordable. Each request gets a fresh child, never one that ran an earlier request: the
// libraries probed (HDF5) do not always do the same on a damaged input after others. The work is
// fixed when the server starts (it runs in the server's copy of this process); a request is a
// string, such as a path. One probe at a time.
class ProbeServer {
 public:
  explicit ProbeServer(std::function<void(const std::string&)> work);
  ~ProbeServer();  // ends the server
  ProbeServer(const ProbeServer&) = delete;
  ProbeServer& operator=(const ProbeServer&) = delete;

  // How a child running work(request) ended. Throws falcon::Error if the server is gone.
  ProbeOutcome probe(const std::string& request, double time_limit_s);

 private:
  int to_server_ = -1;
  int from_server_ = -1;
  int pid_ = -1;
};

}  // namespace falcon
