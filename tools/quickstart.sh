#!/usr/bin/env bash
# README's first command: set up, build, and run the main job on a small embedded default.
# For now the main job generates 3 instances of each of the seven problems (n = 20), solves them
# with every heuristic baseline, and prints a table; later issues make it the training quickstart.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
tools/build.sh build
./build/tools/falcon_solve --problem all --method all --generate n=20,count=3,seed=1 --format table
