#!/usr/bin/env bash
# Builds the libFuzzer target for solution parsing + repair with clang and runs it.
# Usage: tools/fuzz.sh [--runs N] [--seconds S]   (default: a short deterministic run, -seed=1)
# Longer campaigns: tools/fuzz.sh --seconds 3600 (the corpus stays in build-fuzz/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=20000 seconds=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; runs=-1; shift 2 ;;
    *) echo "fuzz.sh: unknown argument '$1' (use --runs N or --seconds S)" >&2; exit 2 ;;
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
cmake --build build-fuzz --parallel "$(nproc)" --target solution_fuzzer
mkdir -p build-fuzz/corpus
args=(-seed=1 -max_len=4096 -print_final_stats=1)
if [ "$seconds" -gt 0 ]; then args+=(-max_total_time="$seconds"); else args+=(-runs="$runs"); fi
./build-fuzz/tests/fuzz/solution_fuzzer "${args[@]}" build-fuzz/corpus
echo "fuzz.sh: solution_fuzzer ran clean"
