#pragma once
// `--nproc N`: run this program as N local data-parallel workers, the way torchrun would.
// Each worker is the same executable (/proc/self/exe) with the same arguments minus --nproc,
// and RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR=127.0.0.1 and MASTER_PORT (a
// free port) in its environment. Rank 0 writes to this terminal; the other ranks' stdout is
// dropped and their stderr kept aside and shown only when that rank fails.
#include <chrono>
#include <string>
#include <vector>

namespace falcon::distributed {

// Set to "1" in every worker; spawn_local_workers refuses to run inside one (no fork bombs
// when a worker's config also asks for --nproc).
inline constexpr const char* kLocalWorkerEnv = "FALCON_LOCAL_WORKER";

// The launcher's private directory, where a worker whose collective failed because a peer went
// away leaves a marker (note_peer_failure): that tells the failure's cause from its echoes.
inline constexpr const char* kLaunchDirEnv = "FALCON_LAUNCH_DIR";

struct LaunchOptions {
  std::string program = "/proc/self/exe";  // what each worker executes
  std::string master_addr = "127.0.0.1";
  int master_port = 0;                        // 0: a free port, found by binding port 0
  std::chrono::milliseconds timeout{0};       // 0: none; else all workers are killed past it
  std::chrono::milliseconds settle{1000};     // after a failure, others may fail on their own
  std::chrono::milliseconds grace{5000};      // then SIGTERM -> SIGKILL when stopping workers
  std::size_t stderr_tail_bytes = 64 << 10;   // how much of a failed rank's stderr is shown
};

struct LaunchResult {
  int exit_code = 0;     // 0, or the failed worker's exit code (128 + signal when killed), or
                         // 128 + the signal that stopped the launcher
  int failed_rank = -1;  // the cause: the first rank that failed other than by losing its
                         // peers (else the first that failed); -1 when none or on timeout
  std::vector<int> failed_ranks;  // every rank that failed by itself, in exit order
  std::string message;   // one line naming the failed rank(s), empty on success
  bool ok() const { return exit_code == 0; }
};

// Starts `nproc` workers running `args` (argv, including argv[0], which the workers keep as
// their argv[0]) minus any "--nproc N" / "--nproc=N", waits for all of them, and returns the
// outcome. When one fails, the others get `settle` to finish or fail by themselves, are then
// stopped (SIGTERM, then SIGKILL after `grace`), and the stderr tail of every failed rank > 0 is
// copied to this process's stderr, each line prefixed with "[rank R] ". The caller prints
// `message`. Workers die with the launcher (PR_SET_PDEATHSIG of the calling thread). Each worker
// has its own process group; a first SIGINT or SIGTERM to the launcher is passed to every worker
// (falcon_train then checkpoints after the step in progress), a second one ends the launcher.
// Throws falcon::Error when nproc < 1, inside a worker, or when no process can be started.
LaunchResult spawn_local_workers(int nproc, const std::vector<std::string>& args, const LaunchOptions& options = {});

// Called by DistributedContext when a collective or the rendezvous fails in a worker of
// spawn_local_workers: marks this rank's failure as an echo of another's. No-op elsewhere.
void note_peer_failure(int rank);
std::string peer_failure_marker(int rank);

// `args` without "--nproc N" and "--nproc=N".
std::vector<std::string> without_nproc_flag(const std::vector<std::string>& args);

// A TCP port that was free on `host` a moment ago (bind to port 0, read it, close).
int find_free_port(const std::string& host = "127.0.0.1");

}  // namespace falcon::distributed
