#!/usr/bin/env bash
# Labels per second per core for each problem at the default config sizes, with the reference
# solver (falcon_datagen --benchmark: one thread, generation included, nothing written).
# Usage (repository root): experiments/label_throughput/run.sh [SECONDS]   -> results.md
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-8}
out=experiments/label_throughput/results.md
{
  echo "# Labels per second per core (reference solvers, default configs)"
  echo
  echo "Made by \`experiments/label_throughput/run.sh $seconds\` on a 2-core Debian 12 machine."
  echo
  echo "| problem | method | split | mean n | labels | seconds | labels/s/core |"
  echo "|---|---|---|---|---|---|---|"
  for p in tsp op cvrp mis mvc pfsp jssp; do
    build/datagen/falcon_datagen configs/data/$p.yaml --benchmark --seconds "$seconds"
  done
} > "$out"
cat "$out"
