#!/bin/sh
# Builds the measurement against the libraries of an existing build (ninja -C build falcon_solvers)
# and prints the tables of results.md. Usage: run.sh [count]
set -e
cd "$(dirname "$0")/../.."
ninja -C build falcon_solvers >/dev/null
g++ -std=c++20 -O2 -I. experiments/labels_toward_greedy/label_ranks.cpp \
  build/falcon/libfalcon_solvers.a build/falcon/libfalcon_problems.a build/falcon/libfalcon_core.a -lfmt -pthread \
  -o build/label_ranks
for p in mis mvc; do ./build/label_ranks $p "${1:-1000}"; echo; done
