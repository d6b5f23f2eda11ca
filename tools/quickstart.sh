#!/usr/bin/env bash
# README's first command: set up, build, and run the main job on the small default recipe:
# falcon_train configs/bopo_tsp.yaml makes a TSP-20 dataset (reference labels) and a tokenizer, trains
# a 1.4M model from scratch with SFT then BOPO, evaluates after each stage and prints the summary
# (about 21 minutes with one thread beside another run, plus 1.5-2 minutes of labelling; README). Pass
# overrides through, e.g. tools/quickstart.sh stages[0].steps=50
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
# Only what the main job runs: the tests are built by tools/test.sh.
FALCON_TARGETS="falcon_train falcon_tokenizer" tools/build.sh build
./build/tools/falcon_train configs/bopo_tsp.yaml "$@"
