// falcon_bench_decoding: grammar-mask figures as JSON (see decoding_bench.h).
//   build/tools/bench/falcon_bench_decoding [--tokenizer tok.model] [--steps 20000] [--quick]
#include <CLI/CLI.hpp>
#include <cstdio>

#include "tools/bench/decoding_bench.h"
#include "falcon/core/error.h"

int main(int argc, char** argv) {
  falcon::bench::DecodingBenchOptions options;
  CLI::App app{"Grammar-mask benchmark: mask time per step and compile time per (grammar, n), as JSON"};
  app.add_option("--tokenizer", options.tokenizer, "tokenizer.model or tokenizer.json to measure (default: train a 2000-piece BPE)");
  app.add_option("--synthetic-vocab", options.synthetic_vocab, "size of the synthetic vocabulary");
  app.add_option("--n", options.mask_n, "instance size for the per-step timings");
  app.add_option("--steps", options.mask_steps, "timed steps per (vocabulary, problem)");
  app.add_option("--semantic-steps", options.semantic_steps, "timed semantic-mask steps per (vocabulary, problem)");
  bool quick = false;
  app.add_flag("--quick", quick, "a few steps and sizes only (a smoke test)");
  CLI11_PARSE(app, argc, argv);
  if (quick) {
    options.mask_steps = 500;
    options.semantic_steps = 100;
    options.compile_sizes = {20};
    options.compile_repeats = 1;
    options.synthetic_vocab = 4000;
  }
  try {
    std::printf("%s\n", falcon::bench::run_decoding_benchmarks(options).dump(2).c_str());
  } catch (const falcon::Error& e) {
    std::fprintf(stderr, "falcon_bench_decoding: %s\n", e.what());
    return 1;
  }
  return 0;
}
