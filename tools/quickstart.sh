#!/usr/bin/env bash
# README's first command: set up, build, and run the main job on the small default recipe:
# falcon_train configs/bopo_tsp.yaml makes a TSP dataset (reference labels) and a tokenizer, trains
# the CPU default model with SFT then BOPO, evaluates after each stage and prints the summary
# (7 minutes on a quiet 2-core CPU, experiments/bopo_tsp_cpu). Pass overrides through, e.g. tools/quickstart.sh stages[0].steps=50
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
tools/build.sh build
./build/train/falcon_train configs/bopo_tsp.yaml "$@"
