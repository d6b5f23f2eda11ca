#!/usr/bin/env bash
# Does the number tokenization (or a Fourier start for number embeddings) let the default TSP
# recipe's SFT learn to route? Runs the default recipe with each setting, one thread each, two at
# a time, then prints the SFT loss at steps 100..400 and each stage's held-out evaluation.
#   experiments/tokenizer_learning/run.sh [OUT_DIR]        # ~17-27 min a run on one core
# Then the long run (both cores, ~50 min):
#   build/tools/falcon_train configs/bopo_tsp.yaml output_dir=OUT_DIR/long tokenizer.numbers=whole \
#     init.number_embedding=fourier 'data.overrides=[output=data/tsp16k.h5, splits.train.count=16000]' \
#     stages[0].steps=1600 checkpoint.every=400 checkpoint.keep_last=4
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-/tmp/tokenizer_learning}
mkdir -p "$out"
run() {  # name, overrides...
  local name=$1; shift
  [ -f "$out/$name/summary.json" ] && return 0
  build/tools/falcon_train configs/bopo_tsp.yaml output_dir="$out/$name" threads=1 --resume "$@" > "$out/$name.log" 2>&1
}
run whole tokenizer.numbers=whole & run split_digits tokenizer.numbers=split_digits & wait
run fourier tokenizer.numbers=whole init.number_embedding=fourier &
run fourier_lr3e-3 tokenizer.numbers=whole init.number_embedding=fourier 'stages[0].lr=3.0e-3' & wait
/usr/bin/python3 experiments/tokenizer_learning/uniform_baselines.py data/tsp.h5 "$out"/*/tokenizer.model
/usr/bin/python3 experiments/tokenizer_learning/loss_table.py "$out"/*/
