#include "falcon/distributed/launcher.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "falcon/core/error.h"
#include "falcon/core/stop_signal.h"

extern char** environ;

namespace falcon::distributed {
namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

struct Worker {
  int rank = 0;
  pid_t pid = -1;
  int stderr_fd = -1;  // memfd holding the rank's stderr (ranks > 0)
  bool done = false;
  int exit_code = 0;
  bool signaled = false;
};

// The environment every worker starts from: ours, minus what the launcher sets per rank.
std::vector<std::string> base_environment() {
  static const std::set<std::string> kOwned = {"RANK",        "WORLD_SIZE",  "LOCAL_RANK",   "LOCAL_WORLD_SIZE",
                                               "MASTER_ADDR", "MASTER_PORT", kLocalWorkerEnv,
                                               kLaunchDirEnv};
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    if (kOwned.count(entry.substr(0, entry.find('='))) == 0) env.push_back(entry);
  }
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

int decode_status(int status, bool* signaled) {
  *signaled = WIFSIGNALED(status);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// The last `max_bytes` of what a rank wrote to stderr, each line prefixed with "[rank R] ".
std::string stderr_tail(const Worker& worker, std::size_t max_bytes) {
  if (worker.stderr_fd < 0) return {};
  const off_t size = ::lseek(worker.stderr_fd, 0, SEEK_END);
  if (size <= 0) return {};
  const off_t begin = std::max<off_t>(0, size - static_cast<off_t>(max_bytes));
  std::string text(static_cast<std::size_t>(size - begin), '\0');
  const ssize_t got = ::pread(worker.stderr_fd, text.data(), text.size(), begin);
  text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += fmt::format("[rank {}] {}\n", worker.rank, text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// A private directory where workers leave peer-failure markers (see context.cpp).
std::string make_launch_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/falcon_launch_XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error(fmt::format("--nproc: cannot create a directory like {}: {}", pattern, std::strerror(errno)));
  }
  return pattern;
}

void kill_all(std::vector<Worker>& workers, int signal) {
  for (const auto& w : workers) {
    if (!w.done && w.pid > 0) ::kill(w.pid, signal);
  }
}

}  // namespace

std::string peer_failure_marker(int rank) { return fmt::format("rank{}.lost_peers", rank); }

void note_peer_failure(int rank) {
  const char* dir = std::getenv(kLaunchDirEnv);
  if (dir == nullptr || *dir == '\0') return;
  const std::string path = std::string(dir) + "/" + peer_failure_marker(rank);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0) ::close(fd);
}

std::vector<std::string> without_nproc_flag(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--nproc") {
      ++i;  // and its value
    } else if (args[i].rfind("--nproc=", 0) != 0) {
      out.push_back(args[i]);
    }
  }
  return out;
}

int find_free_port(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), "0", &hints, &found) != 0 || found == nullptr) {
    throw Error(fmt::format("find_free_port: cannot resolve host '{}'", host));
  }
  int port = -1;
  for (addrinfo* a = found; a != nullptr && port < 0; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    sockaddr_storage bound{};
    socklen_t length = sizeof(bound);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length) == 0) {
      port = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                         : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    }
    ::close(fd);
  }
  ::freeaddrinfo(found);
  if (port <= 0) throw Error(fmt::format("find_free_port: cannot bind a TCP port on '{}': {}", host, std::strerror(errno)));
  return port;
}

namespace {

// Each rank's environment: ours minus what the launcher owns, plus the rank's own variables.
std::vector<std::vector<std::string>> worker_environments(int nproc, const LaunchOptions& options, int port,
                                                          const std::string& launch_dir) {
  const std::vector<std::string> base_env = base_environment();
  std::vector<std::vector<std::string>> envs(static_cast<std::size_t>(nproc), base_env);
  for (int rank = 0; rank < nproc; ++rank) {
    auto& env = envs[static_cast<std::size_t>(rank)];
    env.push_back(fmt::format("RANK={}", rank));
    env.push_back(fmt::format("WORLD_SIZE={}", nproc));
    env.push_back(fmt::format("LOCAL_RANK={}", rank));
    env.push_back(fmt::format("LOCAL_WORLD_SIZE={}", nproc));
    env.push_back(fmt::format("MASTER_ADDR={}", options.master_addr));
    env.push_back(fmt::format("MASTER_PORT={}", port));
    env.push_back(fmt::format("{}=1", kLocalWorkerEnv));
    env.push_back(fmt::format("{}={}", kLaunchDirEnv, launch_dir));
  }
  return envs;
}

// After a failed fork: the workers already started are killed and reaped, and nothing is left.
[[noreturn]] void abandon_start(std::vector<Worker>& workers, int null_fd, const std::string& launch_dir, int nproc,
                                int rank, const std::string& why) {
  kill_all(workers, SIGKILL);
  for (auto& other : workers) {
    if (!other.done && other.pid > 0) ::waitpid(other.pid, nullptr, 0);
    if (other.stderr_fd >= 0) ::close(other.stderr_fd);
  }
  if (null_fd >= 0) ::close(null_fd);
  std::error_code ignored;
  fs::remove_all(launch_dir, ignored);
  throw Error(fmt::format("--nproc {}: cannot start worker rank {}: {}", nproc, rank, why));
}

// Forks one worker per rank. Everything the children need is built before fork: after it only
// async-signal-safe calls. Ranks > 0 write stdout to /dev/null and stderr to a memfd.
std::vector<Worker> start_workers(int nproc, std::vector<std::string>& worker_args,
                                  std::vector<std::vector<std::string>>& envs, const LaunchOptions& options,
                                  const std::string& launch_dir) {
  std::vector<char*> argv = c_strings(worker_args);
  std::vector<std::vector<char*>> envps;
  for (auto& env : envs) envps.push_back(c_strings(env));
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const pid_t parent = ::getpid();
  const char* program = options.program.c_str();

  std::vector<Worker> workers(static_cast<std::size_t>(nproc));
  for (int rank = 0; rank < nproc; ++rank) {
    Worker& w = workers[static_cast<std::size_t>(rank)];
    w.rank = rank;
    if (rank > 0) w.stderr_fd = ::memfd_create("falcon_worker_stderr", MFD_CLOEXEC);
    char** envp = envps[static_cast<std::size_t>(rank)].data();
    w.pid = ::fork();
    if (w.pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // the launcher dying takes its workers along
      if (::getppid() != parent) ::_exit(1);
      ::setpgid(0, 0);  // a terminal's Ctrl-C reaches the launcher alone, which passes it on once
      if (rank > 0) {
        if (null_fd >= 0) ::dup2(null_fd, STDOUT_FILENO);
        if (w.stderr_fd >= 0) ::dup2(w.stderr_fd, STDERR_FILENO);
      }
      ::execve(program, argv.data(), envp);
      const char msg[] = "spawn_local_workers: execve failed\n";
      [[maybe_unused]] const auto ignored = ::write(STDERR_FILENO, msg, sizeof(msg) - 1);
      ::_exit(127);
    }
    if (w.pid < 0) {
      const std::string why = std::strerror(errno);
      w.done = true;
      abandon_start(workers, null_fd, launch_dir, nproc, rank, why);
    }
  }
  if (null_fd >= 0) ::close(null_fd);
  return workers;
}

// How the workers ended, as supervise saw it.
struct Supervision {
  std::vector<int> failed;  // ranks that failed on their own, in exit order
  bool timed_out = false;
  bool stopping = false;    // the launcher stopped the others (after a failure or the timeout)
  int forwarded = 0;        // the stop signal passed on to every worker, 0 when none
};

// One blocking waitpid per worker, so exits are seen in the order they happen: the rank that
// failed first is the cause; the others usually fail a moment later on the broken connection.
Supervision supervise(std::vector<Worker>& workers, const LaunchOptions& options) {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<int> exit_order;
  std::vector<std::thread> waiters;
  for (auto& w : workers) {
    waiters.emplace_back([&mutex, &changed, &exit_order, &w] {
      // Wait without reaping, then reap under the lock: kill_all (also under it) never signals
      // a pid the system may already have given to another process.
      siginfo_t info{};
      while (::waitid(P_PID, static_cast<id_t>(w.pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
      }
      const std::lock_guard<std::mutex> lock(mutex);
      int status = 0;
      pid_t r;
      do {
        r = ::waitpid(w.pid, &status, 0);
      } while (r < 0 && errno == EINTR);
      w.exit_code = r == w.pid ? decode_status(status, &w.signaled) : 1;
      w.done = true;
      exit_order.push_back(w.rank);
      changed.notify_all();
    });
  }

  // A first SIGINT or SIGTERM to the launcher goes to every worker once: they stop together after
  // a step, with a checkpoint. A second one ends the launcher, and the workers with it.
  install_stop_signal_handlers();
  GracefulStopScope graceful;
  Supervision s;
  const auto start = Clock::now();
  Clock::time_point first_failure, kill_at;
  {
    std::unique_lock<std::mutex> lock(mutex);
    const auto collect_failed = [&] {
      s.failed.clear();
      for (const int rank : exit_order) {
        if (workers[static_cast<std::size_t>(rank)].exit_code != 0) s.failed.push_back(rank);
      }
    };
    while (exit_order.size() < workers.size()) {
      changed.wait_for(lock, std::chrono::milliseconds(20));
      const auto now = Clock::now();
      if (s.forwarded == 0 && stop_signal() != 0) {
        s.forwarded = stop_signal();
        kill_all(workers, s.forwarded);
      }
      if (!s.stopping) {
        collect_failed();
        if (!s.failed.empty() && first_failure == Clock::time_point{}) first_failure = now;
        s.timed_out = s.failed.empty() && options.timeout.count() > 0 && now - start > options.timeout;
        // After a failure the others get `settle` to fail by themselves (they usually do, on the
        // broken connection) before being stopped, so their own errors can be told apart.
        if ((!s.failed.empty() && now - first_failure >= options.settle) || s.timed_out) {
          s.stopping = true;
          kill_all(workers, SIGTERM);
          kill_at = now + options.grace;
        }
      } else if (now > kill_at) {
        kill_all(workers, SIGKILL);
      }
    }
    if (!s.stopping) collect_failed();
  }
  for (auto& t : waiters) t.join();
  return s;
}

// The cause of a failed run: the first failure that was not a rank losing its peers in a
// collective; every failed rank's stderr tail goes to ours.
void report_failure(int nproc, const std::vector<Worker>& workers, const Supervision& s, const std::string& launch_dir,
                    const LaunchOptions& options, LaunchResult& result) {
  std::vector<int> lost_peers;
  for (const int rank : s.failed) {
    if (fs::exists(fs::path(launch_dir) / peer_failure_marker(rank))) lost_peers.push_back(rank);
  }
  const auto lost = [&lost_peers](int rank) {
    return std::find(lost_peers.begin(), lost_peers.end(), rank) != lost_peers.end();
  };
  result.failed_rank = s.failed.front();
  for (const int rank : s.failed) {
    if (!lost(rank)) {
      result.failed_rank = rank;
      break;
    }
  }
  result.failed_ranks = s.failed;
  const Worker& w = workers[static_cast<std::size_t>(result.failed_rank)];
  result.exit_code = w.exit_code;
  for (const int rank : s.failed) {
    const std::string tail = stderr_tail(workers[static_cast<std::size_t>(rank)], options.stderr_tail_bytes);
    if (!tail.empty()) std::fputs(tail.c_str(), stderr);
  }
  std::string others;
  for (const int rank : s.failed) {
    if (rank == result.failed_rank) continue;
    others += fmt::format("{}rank {}{}", others.empty() ? "; then " : ", ", rank, lost(rank) ? " (lost its peers)" : "");
  }
  result.message = fmt::format("--nproc {}: worker rank {} failed ({} {}){}{}", nproc, w.rank,
                               w.signaled ? "killed by signal" : "exit code",
                               w.signaled ? w.exit_code - 128 : w.exit_code, others,
                               s.stopping ? "; stopped the other workers" : "");
}

}  // namespace

LaunchResult spawn_local_workers(int nproc, const std::vector<std::string>& args, const LaunchOptions& options) {
  if (nproc < 1) throw Error(fmt::format("--nproc {}: need at least 1 worker", nproc));
  if (std::getenv(kLocalWorkerEnv) != nullptr) {
    throw Error("--nproc inside a worker that --nproc started: give --nproc only on the outer command line");
  }
  if (args.empty()) throw Error("spawn_local_workers: empty argument list (need at least argv[0])");
  std::vector<std::string> worker_args = without_nproc_flag(args);
  const int port = options.master_port > 0 ? options.master_port : find_free_port(options.master_addr);
  const std::string launch_dir = make_launch_dir();
  auto envs = worker_environments(nproc, options, port, launch_dir);
  std::vector<Worker> workers = start_workers(nproc, worker_args, envs, options, launch_dir);
  const Supervision s = supervise(workers, options);

  LaunchResult result;
  if (s.forwarded != 0) {
    result.exit_code = 128 + s.forwarded;
    result.message = fmt::format("--nproc {}: stopped by {}, passed to every worker (rank 0 names the checkpoint "
                                 "they stopped at)", nproc, signal_name(s.forwarded));
  } else if (!s.failed.empty()) {
    report_failure(nproc, workers, s, launch_dir, options, result);
  } else if (s.timed_out) {
    result.exit_code = 124;
    result.message = fmt::format("--nproc {}: workers still running after {} s; stopped them all", nproc,
                                 static_cast<double>(options.timeout.count()) / 1000.0);
  }
  std::error_code ignored;
  fs::remove_all(launch_dir, ignored);
  for (auto& w : workers) {
    if (w.stderr_fd >= 0) ::close(w.stderr_fd);
  }
  return result;
}

}  // namespace falcon::distributed
