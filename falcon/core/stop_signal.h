#pragma once
// Ctrl-C (SIGINT) or `kill` (SIGTERM) as a request to stop at the next safe point, such as the end
// of a training step, where a checkpoint can be written, instead of losing the work since the
// last one. Only inside a GracefulStopScope: elsewhere, and on a second signal, the signal's
// default action runs and the process ends at once, as it would without these handlers.
#include <string>

namespace falcon {

// Installs the handlers for SIGINT and SIGTERM (once per process; later calls do nothing).
void install_stop_signal_handlers();

// The signal that asked to stop (SIGINT or SIGTERM), 0 when none has.
int stop_signal();

// Forgets a request (tests).
void clear_stop_signal();

// "SIGINT", "SIGTERM", or "signal N".
std::string signal_name(int signal);

// While one is alive, a first SIGINT or SIGTERM only records the request. Not nested.
class GracefulStopScope {
 public:
  GracefulStopScope();
  ~GracefulStopScope();
  GracefulStopScope(const GracefulStopScope&) = delete;
  GracefulStopScope& operator=(const GracefulStopScope&) = delete;
};

}  // namespace falcon
