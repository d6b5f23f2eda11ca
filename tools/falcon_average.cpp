// falcon_average: average several checkpoints of one model into a model directory that
// falcon_eval (model.path) and falcon_train (init.checkpoint) read, as fairseq's
// average_checkpoints does. Each input is a model directory (a run's final/, a release in models/)
// or a falcon_train checkpoint (step_N; give --tokenizer, the run's tokenizer.model).
//
//   falcon_average runs/x/checkpoints/step_1500 runs/x/checkpoints/step_2000 --tokenizer T --out runs/x/avg
//   falcon_average runs/x/checkpoints --last 4 --tokenizer models/jssp/tokenizer.model --out runs/x/avg4
//
// The directory also gets averaged_from.json (the inputs, in order). Errors: one line on stderr,
// exit code 1; an existing --out is never written over.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"
#include "falcon/eval/load_policy.h"
#include "falcon/model/checkpoint.h"
#include "falcon/model/config/model_config.h"
#include "falcon/model/weight_average.h"
#include "falcon/policy/model_dir.h"
#include "falcon/recipe/recipe.h"
#include "falcon/text/tokenizer.h"

namespace {

namespace fs = std::filesystem;
using falcon::Error;

struct Args {
  std::vector<std::string> inputs;
  int last = 0;
  std::string tokenizer;
  std::string out;
};

// The step directories and model directories to average: --last K takes the newest K
// checkpoints of the one input, a checkpoints root.
std::vector<std::string> input_dirs(const Args& args) {
  if (args.last <= 0) return args.inputs;
  if (args.inputs.size() != 1)
    throw Error("--last " + std::to_string(args.last) + ": give one input, a run's checkpoints directory");
  const auto steps = falcon::model::list_checkpoints(args.inputs.front());
  if (static_cast<int>(steps.size()) < args.last)
    throw Error(args.inputs.front() + ": holds " + std::to_string(steps.size()) + " complete checkpoints, fewer than --last " +
                std::to_string(args.last));
  return {steps.end() - args.last, steps.end()};
}

falcon::scoring::ModelSpec spec_of(const std::string& dir, const std::string& tokenizer) {
  if (!fs::is_directory(dir)) throw Error(dir + ": not a directory; give model directories or step_N checkpoints");
  falcon::scoring::ModelSpec spec;
  if (falcon::recipe::is_model_directory(dir)) {
    spec.path = dir;
    spec.tokenizer = tokenizer.empty() ? falcon::text::tokenizer_file(dir) : tokenizer;
  } else {
    if (tokenizer.empty())
      throw Error(dir + ": a training checkpoint holds no tokenizer; give --tokenizer (the run's tokenizer.model)");
    spec.checkpoint = dir;
    spec.tokenizer = tokenizer;
  }
  return spec;
}

void run(const Args& args) {
  if (fs::exists(args.out)) throw Error("--out " + args.out + ": exists; give a new directory (nothing is written over)");
  const auto dirs = input_dirs(args);
  if (dirs.size() < 2) throw Error("give at least two checkpoints to average");
  const auto cpu = torch::Device(torch::kCPU);

  std::vector<falcon::model::WeightSource> sources;
  falcon::model::ModelConfig config;
  falcon::formats::TextStyle style;
  std::string tokenizer, tokenizer_bytes;
  for (const auto& dir : dirs) {
    const auto spec = spec_of(dir, args.tokenizer);
    auto policy = falcon::eval::load_policy(spec, cpu);
    const std::string bytes = falcon::read_file(spec.tokenizer);
    if (sources.empty()) {
      config = policy.model->config();
      style = policy.style;
      tokenizer = spec.tokenizer;
      tokenizer_bytes = bytes;
    } else {
      const auto& first = sources.front().name;
      if (falcon::model::model_config_to_hf_json(policy.model->config()) != falcon::model::model_config_to_hf_json(config))
        throw Error(dir + ": its model shape differs from " + first + "'s; average checkpoints of one model");
      if (!(policy.style == style))
        throw Error(dir + ": its text style differs from " + first + "'s; average checkpoints trained on one text");
      if (bytes != tokenizer_bytes)
        throw Error(spec.tokenizer + ": differs from " + tokenizer + "; average checkpoints of one tokenizer");
    }
    sources.push_back({dir, falcon::policy::merged_weights(policy.model)});
    std::fprintf(stderr, "falcon_average: read %s\n", policy.description.c_str());
  }
  const auto mean = falcon::model::average_weights(sources);
  falcon::policy::write_model_dir(args.out, config, mean, tokenizer, style);
  nlohmann::json provenance = {{"averaged_from", dirs}, {"tokenizer", tokenizer}};
  falcon::write_file_atomic(args.out + "/averaged_from.json", provenance.dump(2) + "\n");
  std::printf("%s: the mean of %zu checkpoints\n", args.out.c_str(), dirs.size());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"falcon_average: the mean of several checkpoints of one model, as a model directory"};
  Args args;
  app.add_option("inputs", args.inputs, "model directories or step_N checkpoints (or, with --last, a checkpoints root)")
      ->required();
  app.add_option("--last", args.last, "average the newest K checkpoints of the one input, a run's checkpoints directory");
  app.add_option("--tokenizer", args.tokenizer, "the tokenizer the checkpoints were trained with (required for step_N)");
  app.add_option("--out", args.out, "the model directory to write (must not exist)")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    torch::set_num_threads(1);
    run(args);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "falcon_average: error: %s\n", e.what());
    return 1;
  }
}
