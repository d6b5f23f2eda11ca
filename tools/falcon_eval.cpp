// falcon_eval: evaluate a trained model (greedy, best of N, adaptive Best-of-N) and heuristic /
// reference solvers on a dataset split or benchmark files; one YAML config (docs/evaluation.md).
//
//   falcon_eval configs/eval/tsp.yaml
//   falcon_eval configs/eval/tsp.yaml method.tau=0.9 data.limit=20 output_dir=runs/eval_tau09
//   falcon_eval configs/eval/tsp.yaml --plot runs/eval/first.svg
//   falcon_eval configs/eval/tsp.yaml --resume           # after an interruption: only what is missing
//   falcon_eval configs/eval/tsp.yaml --print-config
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "falcon/core/error.h"
#include "falcon/eval/run_eval.h"

int main(int argc, char** argv) {
  CLI::App app{"falcon_eval: greedy / fixed-N / adaptive Best-of-N and solver rows over a dataset or benchmark files"};
  std::vector<std::string> args;
  bool print_config = false, quiet = false;
  falcon::eval::EvalOptions options;
  app.add_option("config", args, "CONFIG [key.path=value ...]: a configs/eval/*.yaml file, then overrides")->required();
  app.add_option("--plot", options.plot_file, "draw one delivered solution (plot.instance, plot.row) to FILE (.svg or .png)");
  app.add_flag("--print-config", print_config, "print the resolved config (defaults filled in) and exit");
  app.add_flag("--quiet", quiet, "no progress lines");
  app.add_flag("--resume", options.resume,
               "keep the results an interrupted run of the same config left in output_dir; evaluate the rest");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    auto config = falcon::Config::from_file(args.front());
    config.set_overrides(std::vector<std::string>(args.begin() + 1, args.end()));
    if (print_config) {
      std::cout << falcon::eval::resolved_eval_config(config);
      return 0;
    }
    options.progress = !quiet;
    const auto report = falcon::eval::run_eval(config, options);
    std::printf("%s\nresults: %s/instances.jsonl, %s/summary.json\n", report.table.c_str(), report.output_dir.c_str(),
                report.output_dir.c_str());
    if (!report.plot_file.empty()) std::printf("picture: %s\n", report.plot_file.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "falcon_eval: error: %s\n", e.what());
    return 1;
  }
}
