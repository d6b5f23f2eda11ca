// falcon_bench: performance figures as JSON (one object on stdout; progress on stderr).
//
//   falcon_bench                              # model suite on the default CPU model
//   falcon_bench --hidden 128 --layers 4      # another size
//   falcon_bench --device cuda --dtype bfloat16 --batch 32 --sequence 1024
//   falcon_bench --no-uncached                # skip the slow no-KV-cache baseline
//   falcon_bench --suite scoring --vocab 2330 --hidden 128 --ffn 352 --layers 4 --heads 4 --kv-heads 4
//                                             # the trainer's SFT step (TSP-20's compact text)
//
// Figures: fp32 (or --dtype) matmul peak of this process; training tokens/s, achieved FLOP/s
// (6 * parameters * tokens + attention) and MFU against that peak; decoding tokens/s at batch 1
// and 64 with and without the KV cache; sampling tokens/s with the TSP grammar mask vs without;
// the trainer's own SFT step (suite scoring): lm_head on the trained positions against every
// position after the prompt, fp32 against bf16 autocast.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "tools/bench/model_bench.h"
#include "tools/bench/scoring_bench.h"
#include "falcon/core/error.h"
#include "falcon/core/torch/runtime.h"
#include "falcon/core/torch/shim.h"

int main(int argc, char** argv) {
  CLI::App app{"falcon_bench: model performance figures as JSON"};
  falcon::model::ModelConfig config;  // defaults: the CPU model of configs/models/cpu_small.yaml
  falcon::bench::TrainingBenchOptions training;
  falcon::bench::DecodingBenchOptions decoding;
  std::string device_name = "cpu", dtype_name = "float32", out_path;
  int threads = 0;
  bool no_uncached = false;
  std::string suite = "all";
  falcon::bench::ConstrainedBenchOptions constrained;
  falcon::bench::ScoringBenchOptions scoring;
  app.add_option("--vocab", config.vocab_size, "vocabulary size");
  app.add_option("--hidden", config.hidden_size, "hidden size");
  app.add_option("--ffn", config.intermediate_size, "SwiGLU width");
  app.add_option("--layers", config.num_hidden_layers, "decoder layers");
  app.add_option("--heads", config.num_attention_heads, "attention heads");
  app.add_option("--kv-heads", config.num_key_value_heads, "key/value heads");
  app.add_option("--batch", training.batch, "training batch (sequences)");
  app.add_option("--sequence", training.sequence, "training sequence length");
  app.add_option("--steps", training.steps, "timed training steps");
  app.add_option("--new-tokens", decoding.new_tokens, "tokens generated per decoding run");
  app.add_option("--prompt-tokens", decoding.prompt_tokens, "prompt length for decoding");
  app.add_option("--decode-batches", decoding.batches, "decoding batch sizes");
  app.add_flag("--no-uncached", no_uncached, "skip the decoding baseline without KV cache (slow on CPU)");
  app.add_option("--suite", suite, "model | constrained | all (model and constrained) | scoring");
  app.add_option("--scoring-batch", scoring.batch, "scoring suite: sequences a step");
  app.add_option("--scoring-prompt", scoring.prompt_tokens, "scoring suite: prompt tokens");
  app.add_option("--scoring-solution", scoring.solution_tokens, "scoring suite: solution tokens");
  app.add_option("--scoring-trained", scoring.trained_share, "scoring suite: share of solution tokens the model writes");
  app.add_option("--scoring-spread", scoring.length_spread, "scoring suite: solution lengths vary by this much");
  app.add_option("--scoring-steps", scoring.steps, "scoring suite: timed steps per arm and round");
  app.add_option("--scoring-profile", scoring.profile_ops,
                 "scoring suite: each arm's N costliest operators (self time), from one more profiled round");
  app.add_option("--constrained-tokens", constrained.max_new_tokens, "max new tokens in the constrained-decoding suite");
  app.add_option("--device", device_name, "cpu | cuda");
  app.add_option("--dtype", dtype_name, "float32 | bfloat16 | float16");
  app.add_option("--threads", threads, "intra-op threads (0 = the cores other processes leave free)");
  app.add_option("--out", out_path, "also write the JSON to this file");
  CLI11_PARSE(app, argc, argv);
  decoding.without_cache = !no_uncached;

  try {
    const auto runtime = falcon::init_torch_runtime(threads);
    config.validate("model size options");
    const torch::Device device(device_name);
    if (suite == "scoring" && (device_name != "cpu" || dtype_name != "float32"))
      throw falcon::Error("--suite scoring runs on the CPU from fp32 weights (it measures bf16 autocast itself)");
    const auto dtype = dtype_name == "bfloat16" ? torch::kBFloat16
                       : dtype_name == "float16" ? torch::kFloat16
                       : dtype_name == "float32" ? torch::kFloat32
                                                 : throw falcon::Error("--dtype: use float32, bfloat16 or float16");
    nlohmann::ordered_json report;
    report["torch"] = runtime.torch_version;
    report["device"] = device.str();
    report["threads"] = runtime.intra_op_threads;
    report["blas_core"] = runtime.blas_core;
    report["allocator"] = runtime.allocator;
    report["model"] = {{"hidden", config.hidden_size},      {"layers", config.num_hidden_layers},
                       {"heads", config.num_attention_heads}, {"kv_heads", config.num_key_value_heads},
                       {"ffn", config.intermediate_size},    {"vocab", config.vocab_size},
                       {"parameters", config.parameter_count()}};
    if (suite != "model" && suite != "constrained" && suite != "scoring" && suite != "all")
      throw falcon::Error("--suite: use model, constrained, scoring or all");
    if (suite == "model" || suite == "all") {
      std::fprintf(stderr, "bench: matmul peak ...\n");
      report["matmul"] = falcon::bench::measure_matmul_peak(device, dtype);
      const double peak = report["matmul"]["peak_flops"].get<double>();
      report["training"] = falcon::bench::measure_training(config, training, device, dtype, peak);
      report["decoding"] = falcon::bench::measure_decoding(config, decoding, device, dtype);
    }
    if (suite == "scoring") report["scoring"] = falcon::bench::measure_scoring(config, scoring);
    if (suite == "constrained" || suite == "all") {
      std::fprintf(stderr, "bench: grammar-constrained vs unconstrained sampling ...\n");
      report["constrained_decoding"] = falcon::bench::measure_constrained_decoding(config, constrained, device, dtype);
    }
    const auto text = report.dump(2);
    std::cout << text << std::endl;
    if (!out_path.empty()) std::ofstream(out_path) << text << "\n";
  } catch (const std::exception& e) {
    std::fprintf(stderr, "falcon_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
