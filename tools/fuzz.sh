#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs them, one after the other:
#   solution_fuzzer         model output text -> parse, score, repair (every problem)
#   instance_file_fuzzer    benchmark files -> every reader (TSPLIB, CVRPLIB, OP, Taillard, JSSP, DIMACS)
#   config_fuzzer           YAML configs -> falcon_datagen's and falcon_eval's spec readers, falcon_train's recipe reader
#   tokenizer_model_fuzzer  tokenizer.model -> the SentencePiece reader, then encode / decode
#   grammar_fuzzer          BNF grammar files -> parse, compile to a byte automaton
#   dataset_fuzzer          HDF5 dataset files -> open, verify, load
#   safetensors_fuzzer      checkpoint / weight files -> the safetensors header and tensor table
# (The sweep file is read by Python: tests/tools/sweep_config_fuzz.py fuzzes it the same way.)
# Usage: tools/fuzz.sh [--runs N | --seconds S] [--target NAME] [--seed N]   (default: a short
# deterministic run of each, seed 1). Longer campaigns: tools/fuzz.sh --seconds 3600 --target
# instance_file_fuzzer (each target's corpus stays in build-fuzz/corpus/<target>, seeded on the first
# run; crashing inputs are written to build-fuzz/findings/). Campaigns side by side, one core each,
# share the corpus and need seeds of their own: build first (--runs 0), then start --seed 2 and,
# a minute later (each run checks the build, and two builds in one folder at once can collide),
# --seed 3.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=20000 seconds=0 seed=1
all_targets=(solution_fuzzer instance_file_fuzzer config_fuzzer tokenizer_model_fuzzer grammar_fuzzer dataset_fuzzer
  safetensors_fuzzer)
targets=("${all_targets[@]}")
while [ $# -gt 0 ]; do
  case "$1" in --runs | --seconds | --target | --seed)
    [ $# -ge 2 ] || { echo "fuzz.sh: $1 needs a value" >&2; exit 2; } ;;
  esac
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; runs=-1; shift 2 ;;
    --seed)
      case $2 in '' | *[!0-9]*) echo "fuzz.sh: --seed takes a whole number, not '$2'" >&2; exit 2 ;; esac
      seed=$2; shift 2 ;;
    --target)
      case " ${all_targets[*]} " in *" $2 "*) targets=("$2") ;; *) echo "fuzz.sh: unknown target '$2' (${all_targets[*]})" >&2; exit 2 ;; esac
      shift 2 ;;
    *) echo "fuzz.sh: unknown argument '$1' (use --runs N, --seconds S, --target NAME or --seed N)" >&2; exit 2 ;;
  esac
done
if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ not found; run tools/setup.sh first" >&2
  exit 1
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFALCON_BUILD_FUZZ=ON -DFALCON_BUILD_TESTS=OFF -DFALCON_BUILD_TOOLS=OFF -DFALCON_WITH_TORCH=OFF
fi
# Seed corpora once: the repository's own files of each kind, the smallest benchmark files of each
# reader, small datasets of every problem (tests/fuzz/write_seed_corpora.cpp).
if [ ! -f build-fuzz/corpus/.seeded ]; then
  cmake --build build-fuzz --parallel "$(nproc)" --target fuzz_seed_corpora
  ./build-fuzz/tests/fuzz/fuzz_seed_corpora . ../shared/benchmarks build-fuzz/corpus
  touch build-fuzz/corpus/.seeded
fi
for target in "${targets[@]}"; do
  cmake --build build-fuzz --parallel "$(nproc)" --target "$target"
  corpus=build-fuzz/corpus/$target
  mkdir -p "$corpus"
  max_len=4096
  case $target in instance_file_fuzzer | tokenizer_model_fuzzer | dataset_fuzzer) max_len=65536 ;; esac  # whole small files
  mkdir -p build-fuzz/findings
  args=(-seed="$seed" -max_len="$max_len" -print_final_stats=1 -artifact_prefix=build-fuzz/findings/)
  # No stack trace of each allocation: up to 1.3 times the executions a second on the file readers.
  # A finding's report then says where memory was freed but not where it was allocated; rerun
  # its artifact without this option for that.
  asan=malloc_context_size=0
  # HDF5 1.10 leaks a few hundred bytes of its metadata cache when an object header is damaged
  # (inside libhdf5, experiments/reliability/results.md): not ours to fix, so not a failure here.
  # LeakSanitizer also checks at exit, hence the ASAN_OPTIONS.
  [ "$target" = dataset_fuzzer ] && args+=(-detect_leaks=0) && asan+=:detect_leaks=0
  # About 1 in 70 inputs crashes HDF5 in a probe's child, where the sanitizer's report (thrown
  # away) would start llvm-symbolizer on this binary's debug information each time: 1.2-1.5 times
  # the executions a second without. A finding's stack is then addresses; rerun its artifact
  # without this option for the names.
  [ "$target" = dataset_fuzzer ] && asan+=:symbolize=0
  # The probe may not see every spin of the library (tests/fuzz/dataset_fuzz_target.cpp): one
  # here would end the run after 30 s, with the input in build-fuzz/findings/, not after 20 minutes.
  [ "$target" = dataset_fuzzer ] && args+=(-timeout=30)
  target_runs=$runs
  # A dataset input is read twice, first in a fresh child of a probe server (DatasetReader's crash
  # probe): about 50-100 executions a second instead of thousands, so a tenth of the runs.
  [ "$target" = dataset_fuzzer ] && [ "$runs" -gt 0 ] && target_runs=$((runs / 10))
  if [ "$seconds" -gt 0 ]; then args+=(-max_total_time="$seconds"); else args+=(-runs="$target_runs"); fi
  ASAN_OPTIONS=$asan "./build-fuzz/tests/fuzz/$target" "${args[@]}" "$corpus"
  echo "fuzz.sh: $target ran clean"
done
