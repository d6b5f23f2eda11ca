#!/bin/sh
# Builds falcon_bench_decoding in an existing build (cmake -S . -B build -G Ninja
# -DFALCON_WITH_TORCH=OFF) and writes its JSON figures to results.json, then prints the tables
# of results.md. Usage: run.sh [falcon_bench_decoding options, e.g. --tokenizer tok.model]
set -e
cd "$(dirname "$0")/../.."
ninja -C build falcon_bench_decoding >/dev/null
build/tools/bench/falcon_bench_decoding "$@" > experiments/grammar_mask/results.json
python3 experiments/grammar_mask/tables.py experiments/grammar_mask/results.json
