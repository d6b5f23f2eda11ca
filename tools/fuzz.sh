#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs them, one after the other:
#   solution_fuzzer       model output text -> parse, score, repair (every problem)
#   instance_file_fuzzer  benchmark files -> every reader (TSPLIB, CVRPLIB, OP, Taillard, JSSP, DIMACS)
# Usage: tools/fuzz.sh [--runs N | --seconds S] [--target NAME]   (default: a short deterministic
# run of each, -seed=1). Longer campaigns: tools/fuzz.sh --seconds 3600 --target instance_file_fuzzer
# (each target's corpus stays in build-fuzz/corpus/<target>).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=20000 seconds=0
targets=(solution_fuzzer instance_file_fuzzer)
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; runs=-1; shift 2 ;;
    --target)
      case " ${targets[*]} " in *" $2 "*) targets=("$2") ;; *) echo "fuzz.sh: unknown target '$2' (${targets[*]})" >&2; exit 2 ;; esac
      shift 2 ;;
    *) echo "fuzz.sh: unknown argument '$1' (use --runs N, --seconds S or --target NAME)" >&2; exit 2 ;;
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
for target in "${targets[@]}"; do
  cmake --build build-fuzz --parallel "$(nproc)" --target "$target"
  corpus=build-fuzz/corpus/$target
  mkdir -p "$corpus"
  max_len=4096
  [ "$target" = instance_file_fuzzer ] && max_len=65536  # whole small benchmark files
  args=(-seed=1 -max_len="$max_len" -print_final_stats=1)
  if [ "$seconds" -gt 0 ]; then args+=(-max_total_time="$seconds"); else args+=(-runs="$runs"); fi
  "./build-fuzz/tests/fuzz/$target" "${args[@]}" "$corpus"
  echo "fuzz.sh: $target ran clean"
done
