#include "falcon/scoring/svg_to_png.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <filesystem>
#include <vector>

#include "falcon/core/error.h"

extern char** environ;

namespace falcon::scoring {
namespace {

namespace fs = std::filesystem;

constexpr const char* kProgram = "rsvg-convert";

// Runs kProgram with `args`; stdout (and stderr when `quiet`) to /dev/null. The exit code, or
// -1 when it could not start or did not exit normally.
int run_converter(std::vector<std::string> args, bool quiet) {
  args.insert(args.begin(), kProgram);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  if (quiet) posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, kProgram, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Absolute, so that a name starting with '-' is never read as an option.
std::string absolute(const std::string& path) { return fs::absolute(path).string(); }

}  // namespace

bool png_converter_available() { return run_converter({"--version"}, /*quiet=*/true) == 0; }

void svg_to_png(const std::string& svg_file, const std::string& png_file) {
  // Into a temporary name first, so a failed run leaves no half-written PNG under the real one.
  const std::string part = png_file + ".part";
  const int code = run_converter({"--format", "png", "--output", absolute(part), absolute(svg_file)}, /*quiet=*/false);
  std::error_code ec;
  if (code != 0) {
    fs::remove(part, ec);
    throw Error(png_file + ": rsvg-convert " + (code < 0 ? "could not run (apt-get install librsvg2-bin, or tools/setup.sh)"
                                                          : "failed (its message is above)") +
                "; the SVG is in " + svg_file);
  }
  fs::rename(part, png_file, ec);
  if (ec) throw Error(png_file + ": cannot move the PNG into place (" + ec.message() + "); the SVG is in " + svg_file);
}

}  // namespace falcon::scoring
