#include "falcon/core/stop_signal.h"

#include <signal.h>
#include <unistd.h>

#include <csignal>

namespace falcon {
namespace {

volatile std::sig_atomic_t g_requested = 0;  // the signal that asked, 0 when none
volatile std::sig_atomic_t g_graceful = 0;   // inside a GracefulStopScope
bool g_installed = false;

// Only async-signal-safe calls here: write, signal, raise.
extern "C" void on_stop_signal(int sig) {
  if (!g_graceful || g_requested) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_requested = sig;
  static const char kMessage[] =
      "\nstopping after the current step, with a checkpoint (send the signal again to stop at once and lose the step)\n";
  const ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  (void)ignored;
}

}  // namespace

void install_stop_signal_handlers() {
  if (g_installed) return;
  g_installed = true;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes in progress go on
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int stop_signal() { return g_requested; }

void clear_stop_signal() { g_requested = 0; }

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

GracefulStopScope::GracefulStopScope() { g_graceful = 1; }

GracefulStopScope::~GracefulStopScope() { g_graceful = 0; }

}  // namespace falcon
