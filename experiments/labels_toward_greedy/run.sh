#!/bin/sh
# Builds the measurements against the libraries of an existing build (ninja -C build falcon_data)
# and prints the tables of results.md.
#   run.sh [count]                          the label statistics on COUNT graphs (default 1000)
#   run.sh --deviations DATASET EVAL_DIR... where each MIS model's greedy answers leave the greedy
#   run.sh --tie-breaks [count]             min-degree greedy's ties broken other ways (default 300)
set -e
cd "$(dirname "$0")/../.."
ninja -C build falcon_data >/dev/null
libs="build/falcon/libfalcon_data.a build/falcon/libfalcon_solvers.a build/falcon/libfalcon_problems.a build/falcon/libfalcon_core.a"
hdf5=/usr/lib/x86_64-linux-gnu/hdf5/serial
if [ "$1" = "--deviations" ]; then
  g++ -std=c++20 -O2 -I. experiments/labels_toward_greedy/deviations.cpp $libs -lfmt -lyaml-cpp \
    -Wl,-rpath,$hdf5 $hdf5/libhdf5_cpp.so $hdf5/libhdf5.so -pthread -o build/mis_deviations
  dataset=$2
  shift 2
  for dir in "$@"; do ./build/mis_deviations "$dataset" "$dir"; echo; done
  exit 0
fi
if [ "$1" = "--tie-breaks" ]; then
  g++ -std=c++20 -O2 -I. experiments/labels_toward_greedy/tie_breaks.cpp $libs -lfmt -pthread -o build/mis_tie_breaks
  ./build/mis_tie_breaks "${2:-300}"
  exit 0
fi
g++ -std=c++20 -O2 -I. experiments/labels_toward_greedy/label_ranks.cpp $libs -lfmt -pthread -o build/label_ranks
for p in mis mvc; do ./build/label_ranks $p "${1:-1000}"; echo; done
