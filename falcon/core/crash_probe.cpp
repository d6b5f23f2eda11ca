#include "falcon/core/crash_probe.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>

namespace falcon {

ProbeOutcome probe_in_child(const std::function<void()>& work, double time_limit_s) {
  std::fflush(nullptr);  // buffered output would be written twice
  const pid_t pid = ::fork();
  if (pid < 0) return {};
  if (pid == 0) {
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) std::signal(sig, SIG_DFL);
    try {
      work();
    } catch (...) {
    }
    ::_exit(0);
  }
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(200);
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return {};
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > time_limit_s) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", time_limit_s);
      return {true, std::string("no end after ") + limit + " s"};
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFSIGNALED(status))
    return {true, "signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")"};
  return {true, "exit status " + std::to_string(WEXITSTATUS(status))};
}

}  // namespace falcon
