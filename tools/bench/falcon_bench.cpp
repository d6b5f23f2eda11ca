// falcon_bench: performance figures as JSON (one object on stdout; progress on stderr).
//
//   falcon_bench                              # model suite on the default CPU model
//   falcon_bench --hidden 128 --layers 4      # another size
//   falcon_bench --device cuda --dtype bfloat16 --batch 32 --sequence 1024
//   falcon_bench --no-uncached                # skip the slow no-KV-cache baseline
//
// Figures: fp32 (or --dtype) matmul peak of this process; training tokens/s, achieved FLOP/s
// (6 * parameters * tokens + attention) and MFU against that peak; decoding tokens/s at batch 1
// and 64 with and without the KV cache; sampling tokens/s with the TSP grammar mask vs without.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "tools/bench/model_bench.h"
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
  app.add_option("--suite", suite, "model | constrained | all");
  app.add_option("--constrained-tokens", constrained.max_new_tokens, "max new tokens in the constrained-decoding suite");
  app.add_option("--device", device_name, "cpu | cuda");
  app.add_option("--dtype", dtype_name, "float32 | bfloat16 | float16");
  app.add_option("--threads", threads, "intra-op threads (0 = all cores)");
  app.add_option("--out", out_path, "also write the JSON to this file");
  CLI11_PARSE(app, argc, argv);
  decoding.without_cache = !no_uncached;

  try {
    const auto runtime = falcon::init_torch_runtime(threads);
    config.validate("model size options");
    const torch::Device device(device_name);
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
    if (suite != "model" && suite != "constrained" && suite != "all")
      throw falcon::Error("--suite: use model, constrained or all");
    if (suite != "constrained") {
      std::fprintf(stderr, "bench: matmul peak ...\n");
      report["matmul"] = falcon::bench::measure_matmul_peak(device, dtype);
      const double peak = report["matmul"]["peak_flops"].get<double>();
      report["training"] = falcon::bench::measure_training(config, training, device, dtype, peak);
      report["decoding"] = falcon::bench::measure_decoding(config, decoding, device, dtype);
    }
    if (suite != "model") {
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
