// falcon_train: one recipe, from nothing to a trained model. Makes the dataset (datagen) and the
// tokenizer when missing, trains every stage of the recipe (SFT, BOPO, GRPO, FOARL, DPO),
// checkpoints, evaluates briefly after each stage and prints what each stage bought.
//
//   falcon_train configs/bopo_tsp.yaml
//   falcon_train configs/bopo_tsp.yaml stages[1].beta=0.2 output_dir=runs/beta02
//   falcon_train configs/bopo_tsp.yaml --resume          # continue from the last checkpoint
//                                                        # (Ctrl-C or kill writes one after the current step)
//   falcon_train configs/bopo_tsp.yaml --overwrite       # start again where an earlier run is (else refused)
//   falcon_train configs/bopo_tsp.yaml --print-config    # the resolved recipe, defaults included
//   falcon_train configs/bopo_tsp.yaml --nproc 2         # data parallel over 2 local processes
//   RANK=.. WORLD_SIZE=.. MASTER_ADDR=.. MASTER_PORT=.. falcon_train ...   # torchrun / Slurm style
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/core/stop_signal.h"
#include "falcon/distributed/environment.h"
#include "falcon/distributed/launcher.h"
#include "falcon/train/trainer.h"

namespace {

void print_summary(const falcon::train::TrainResult& result) {
  std::printf("\n| stage | type | steps | time | last loss | eval: samples feasible before repair | feasible | mean gap |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const auto& s : result.stages) {
    std::printf("| %s | %s | %lld | %.0fs | %.4f | %.1f%% | %.1f%% | %.2f%% |\n", s.name.c_str(),
                falcon::recipe::to_string(s.kind).c_str(), static_cast<long long>(s.steps), s.seconds, s.last_loss,
                100 * s.eval.sample_feasible_raw, 100 * s.eval.feasible, 100 * s.eval.mean_gap);
    for (const auto& [name, e] : s.eval.by_dataset)  // a model of several datasets: each one's figures
      std::printf("| %s: %s | | | | | %.1f%% | %.1f%% | %.2f%% |\n", s.name.c_str(), name.c_str(),
                  100 * e.sample_feasible_raw, 100 * e.feasible, 100 * e.mean_gap);
  }
  if (!result.final_dir.empty()) std::printf("\nmodel: %s\n", result.final_dir.c_str());
}

// --nproc N: check the recipe once here (one error, not N), then run N local workers of this
// program, which find their ranks in the environment the launcher sets.
int launch_workers(int nproc, falcon::Config& config, int argc, char** argv) {
  if (falcon::distributed::distributed_env_from_process().distributed())
    throw falcon::Error("--nproc " + std::to_string(nproc) + " with RANK / WORLD_SIZE already set (torchrun, Slurm): "
                        "use either --nproc or the launcher's variables, not both");
  std::ostringstream resolved;
  falcon::train::print_resolved_recipe(config, resolved);
  const auto result = falcon::distributed::spawn_local_workers(nproc, std::vector<std::string>(argv, argv + argc));
  if (!result.ok()) std::fprintf(stderr, "falcon_train: %s\n", result.message.c_str());
  return result.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"falcon_train: tokenizer, SFT and preference optimisation from one YAML recipe"};
  std::vector<std::string> args;
  bool resume = false, overwrite = false, print_config = false, quiet = false;
  int nproc = 1;
  falcon::train::TrainOptions options;
  app.add_option("config", args, "CONFIG [key.path=value ...]: a configs/*.yaml recipe, then overrides")->required();
  app.add_flag("--resume", resume, "continue from output_dir/checkpoints (bit-identical on CPU)");
  app.add_flag("--overwrite", overwrite, "start from step 0 where output_dir holds an earlier run, removing its "
               "checkpoints, final model and metrics (without it such a run is refused)");
  app.add_flag("--print-config", print_config, "print the resolved recipe (defaults filled in) and exit");
  app.add_flag("--quiet", quiet, "no progress lines");
  app.add_option("--tokenizer-tool", options.tokenizer_tool, "the falcon_tokenizer program (default: next to this one)");
  app.add_option("--nproc", nproc, "data parallel over N local processes (Gloo on loopback; docs/training.md)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--stop-after-steps", options.stop_after_steps,
                 "checkpoint and stop after this many optimizer steps (tests of --resume)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    auto config = falcon::Config::from_file(args.front());
    config.set_overrides(std::vector<std::string>(args.begin() + 1, args.end()));
    if (print_config) {
      falcon::train::print_resolved_recipe(config, std::cout);
      return 0;
    }
    if (nproc > 1) return launch_workers(nproc, config, argc, argv);
    options.resume = resume;
    options.overwrite = overwrite;
    options.progress = !quiet;
    // Ctrl-C or kill during a step: finish it, checkpoint, and say how to go on.
    falcon::install_stop_signal_handlers();
    options.stop_requested = [] { return falcon::stop_signal() != 0; };
    const auto result = falcon::train::run_training(config, options);
    if (const int signal = falcon::stop_signal(); result.stopped_early && signal != 0) {
      if (result.rank == 0)
        std::fprintf(stderr, "falcon_train: stopped by %s after a step; checkpoint %s written; the same command with "
                     "--resume continues from it\n", falcon::signal_name(signal).c_str(), result.last_checkpoint.c_str());
      return 128 + signal;  // the shell's code for a process ended by that signal
    }
    if (!result.stopped_early && result.rank == 0) print_summary(result);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "falcon_train: error: %s\n", e.what());
    return 1;
  }
}
