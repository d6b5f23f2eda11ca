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
// there kills it plainly; a child still running after `time_limit_s` is killed. When fork is
// unavailable the work is not probed (failed = false).
ProbeOutcome probe_in_child(const std::function<void()>& work, double time_limit_s);

}  // namespace falcon
