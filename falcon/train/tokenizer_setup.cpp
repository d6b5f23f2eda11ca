#include "falcon/train/tokenizer_setup.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "falcon/core/error.h"

extern char** environ;

namespace falcon::train {
namespace {

namespace fs = std::filesystem;

std::string find_tool(const std::string& tool) {
  if (!tool.empty()) return tool;
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const auto& candidate : {self.parent_path() / "falcon_tokenizer",
                                  self.parent_path().parent_path() / "tools" / "falcon_tokenizer"})
      if (fs::exists(candidate)) return candidate.string();
  }
  return "falcon_tokenizer";  // posix_spawnp searches PATH
}

}  // namespace

std::string ensure_tokenizer(const recipe::Recipe& recipe, const std::vector<std::string>& dataset_paths, const std::string& tool,
                             bool progress) {
  if (!recipe.tokenizer.path.empty()) {
    if (!fs::exists(recipe.tokenizer.path))
      throw Error(recipe.source + ": tokenizer.path: '" + recipe.tokenizer.path +
                  "' does not exist (give a tokenizer.model or a tokenizer.json, or leave the key out to train one)");
    return recipe.tokenizer.path;
  }
  const std::string prefix = recipe.output_dir + "/tokenizer";
  if (fs::exists(prefix + ".model")) return prefix + ".model";
  const std::string program = find_tool(tool);
  std::vector<std::string> args = {program, "train", "--split", recipe.data.train_split, "--out", prefix,
                                   "--vocab", std::to_string(recipe.tokenizer.vocab_size), "--numbers",
                                   recipe.tokenizer.numbers, "--text-style", recipe.text_style.name,
                                   "--candidates", std::to_string(recipe.text_style.candidates)};
  for (const auto& p : recipe.text_style.per_problem)
    args.insert(args.end(), {"--problem-style", p.problem + "=" + p.name + ":" + std::to_string(p.candidates)});
  for (const auto& path : dataset_paths) args.insert(args.end(), {"--dataset", path});
  if (progress) std::fprintf(stderr, "tokenizer: training %s.model with %s\n", prefix.c_str(), program.c_str());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ) != 0)
    throw Error("tokenizer: cannot run '" + program + "' (build the falcon_tokenizer target, or set tokenizer.path)");
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !fs::exists(prefix + ".model"))
    throw Error("tokenizer: '" + program + " train' failed (its message is above)");
  return prefix + ".model";
}

std::string existing_tokenizer(const recipe::Recipe& recipe) {
  const std::string path = recipe.tokenizer.path.empty() ? recipe.output_dir + "/tokenizer.model" : recipe.tokenizer.path;
  if (!fs::exists(path))
    throw Error(path + ": rank 0 has the tokenizer, but this rank cannot see it: every rank must see output_dir and "
                       "tokenizer.path on one filesystem (one machine, or a shared one)");
  return path;
}

}  // namespace falcon::train
