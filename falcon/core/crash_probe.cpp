#include "falcon/core/crash_probe.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <thread>

#include "falcon/core/error.h"

// A sanitizer's death callback, when the program has a sanitizer (weak: null without one).
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace falcon {
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};

// In a forked child: runs the work with the fatal-signal handlers reset (a crash kills the child
// plainly), its stderr sent to /dev/null and no sanitizer death callback (what broke is reported
// by how the child ended; a sanitizer's report of the library's error, or a fuzzer's crash file
// written by its callback, would read as this process's), and exits without running this
// process's exit handlers.
[[noreturn]] void run_in_child(const std::function<void()>& work) {
  for (int sig : kFatalSignals) std::signal(sig, SIG_DFL);
  if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(nullptr);
  const int null = ::open("/dev/null", O_WRONLY);
  if (null >= 0) ::dup2(null, STDERR_FILENO);
  try {
    work();
  } catch (...) {
  }
  ::_exit(0);
}

// In a forked child: ends it when `parent`, the process waiting for it, is gone. A child left
// spinning in a library after its parent was killed (a fuzzer stopped with Ctrl-C, a training run
// killed while it opens a damaged dataset) would hold a core for good, and with it the pipes it
// inherited, which a probe server reads to learn that its client has ended.
void end_with_parent(pid_t parent) {
#ifdef __linux__
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // sent when the forking thread ends: it waits for this child
#endif
  if (::getppid() != parent) ::_exit(1);  // the parent ended before the line above
}

// How a child that was reaped ended; "" (not failed) for a clean exit.
ProbeOutcome outcome_of(int status) {
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFSIGNALED(status))
    return {true, "signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")"};
  return {true, "exit status " + std::to_string(WEXITSTATUS(status))};
}

ProbeOutcome no_end(double time_limit_s) {
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", time_limit_s);
  return {true, std::string("no end after ") + limit + " s"};
}

void kill_and_reap(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Waits for the child `pid`, killing it once it has run past the limit. `end_fd` is the read end
// of a pipe whose write end the child holds (-1: none): it closes when the child ends, which
// wakes the wait at once, where polling waitpid would sleep past a child of a few milliseconds.
// Should the pipe not close (another process forked meanwhile holds a copy of its write end),
// waitpid is still checked every 20 ms.
ProbeOutcome wait_for_child(pid_t pid, double time_limit_s, int end_fd) {
  const auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(50);
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return outcome_of(status);
    if (done < 0 && errno != EINTR) return {};
    const double left_s = time_limit_s - seconds_since(start);
    if (left_s < 0) {
      kill_and_reap(pid);
      return no_end(time_limit_s);
    }
    if (end_fd >= 0) {
      pollfd end{end_fd, POLLIN, 0};
      const int wait_ms = std::clamp(static_cast<int>(std::ceil(left_s * 1000)), 1, 20);
      // Closed: the child is ending, and becomes waitable microseconds later (polled below).
      if (::poll(&end, 1, wait_ms) > 0) end_fd = -1;
    } else {
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(20000));
    }
  }
}

bool write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // 0: the other end closed
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Strings on the pipes: a 32-bit length, then the bytes.
bool write_string(int fd, const std::string& s) {
  const auto n = static_cast<std::uint32_t>(s.size());
  return write_all(fd, &n, sizeof n) && write_all(fd, s.data(), s.size());
}

bool read_string(int fd, std::string* s) {
  std::uint32_t n = 0;
  if (!read_all(fd, &n, sizeof n)) return false;
  s->resize(n);
  return read_all(fd, s->data(), n);
}

// Forks a child that runs `work` and waits for it (wait_for_child). `close_in_child`: descriptors
// of this process the child must not hold.
ProbeOutcome run_once(const std::function<void()>& work, double time_limit_s,
                      std::initializer_list<int> close_in_child) {
  int end[2];
  const bool have_end = ::pipe2(end, O_CLOEXEC) == 0;
  std::fflush(nullptr);  // buffered output would be written twice
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    end_with_parent(parent);
    for (int fd : close_in_child) ::close(fd);
    if (have_end) ::close(end[0]);  // the write end stays open until the child ends
    run_in_child(work);
  }
  if (have_end) ::close(end[1]);
  const ProbeOutcome outcome = pid < 0 ? ProbeOutcome{} : wait_for_child(pid, time_limit_s, have_end ? end[0] : -1);
  if (have_end) ::close(end[0]);
  return outcome;
}

// The server's loop: a request (the string, then the limit) in, a reply (failed, how) out, until
// the requests pipe closes. Each request runs in a fresh child, so that no request is judged by
// what an earlier one left behind (HDF5 does not always do the same on a damaged file after others).
[[noreturn]] void serve(const std::function<void(const std::string&)>& work, int requests, int replies) {
  // Signals for this process (a fuzzer's interrupt and crash handlers) must not run here.
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM}) std::signal(sig, SIG_DFL);
  std::signal(SIGPIPE, SIG_IGN);
  std::string request;
  double limit_s = 0;
  while (read_string(requests, &request) && read_all(requests, &limit_s, sizeof limit_s)) {
    const ProbeOutcome outcome = run_once([&] { work(request); }, limit_s, {requests, replies});
    const char failed = outcome.failed ? 1 : 0;
    if (!write_all(replies, &failed, 1) || !write_string(replies, outcome.how)) break;
  }
  ::_exit(0);
}

}  // namespace

ProbeOutcome probe_in_child(const std::function<void()>& work, double time_limit_s) {
  return run_once(work, time_limit_s, {});
}

ProbeServer::ProbeServer(std::function<void(const std::string&)> work) {
  int requests[2], replies[2];
  if (::pipe2(requests, O_CLOEXEC) != 0) throw Error(std::string("probe server: no pipe: ") + std::strerror(errno));
  if (::pipe2(replies, O_CLOEXEC) != 0) {
    ::close(requests[0]);
    ::close(requests[1]);
    throw Error(std::string("probe server: no pipe: ") + std::strerror(errno));
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(requests[1]);
    ::close(replies[0]);
    serve(work, requests[0], replies[1]);
  }
  ::close(requests[0]);
  ::close(replies[1]);
  if (pid < 0) {
    ::close(requests[1]);
    ::close(replies[0]);
    throw Error(std::string("probe server: cannot fork: ") + std::strerror(errno));
  }
  to_server_ = requests[1];
  from_server_ = replies[0];
  pid_ = pid;
}

ProbeServer::~ProbeServer() {
  ::close(to_server_);  // the server reads the end of its requests and exits
  ::close(from_server_);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

ProbeOutcome ProbeServer::probe(const std::string& request, double time_limit_s) {
  // A server that died would make a write here raise SIGPIPE; MSG_NOSIGNAL is for sockets only.
  struct sigaction ignore {}, before {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &before);
  ProbeOutcome outcome;
  char failed = 0;
  const bool ok = write_string(to_server_, request) && write_all(to_server_, &time_limit_s, sizeof time_limit_s) &&
                  read_all(from_server_, &failed, 1) && read_string(from_server_, &outcome.how);
  ::sigaction(SIGPIPE, &before, nullptr);
  if (!ok) throw Error("probe server (pid " + std::to_string(pid_) + ") is gone; start another ProbeServer");
  outcome.failed = failed != 0;
  return outcome;
}

}  // namespace falcon
