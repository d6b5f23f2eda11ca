#!/usr/bin/env bash
# fp32 against bf16 over the whole main recipe (configs/bopo_tsp.yaml: SFT 1,200 steps, BOPO 60):
# both runs at once, one thread each, a checkpoint every 200 steps; then each checkpoint decoded
# greedily on the 200 held-out instances (the model alone: grammar on, repair off), and the recipe's
# own end-of-stage evaluations. precision.py prints the learning curves against wall time, the time
# to a 15% gap of the model alone, and the held-out figures of both.
#   experiments/train_speed/precision.sh          # about 30 minutes on 2 cores; runs/precision/
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-runs/precision}
for program in "$BUILD/tools/falcon_train" "$BUILD/tools/falcon_eval"; do
  [ -x "$program" ] || { echo "precision: $program is missing: build it first (tools/build.sh $BUILD)" >&2; exit 2; }
done
[ -f data/tsp20.h5 ] || "$BUILD/datagen/falcon_datagen" configs/data/tsp20.yaml
mkdir -p "$OUT"
for precision in none bf16; do  # a run already finished is kept
  [ -f "$OUT/$precision/final/config.json" ] && continue
  "$BUILD/tools/falcon_train" configs/bopo_tsp.yaml output_dir="$OUT/$precision" threads=1 mixed_precision=$precision \
    checkpoint.every=200 checkpoint.keep_last=10 --resume > "$OUT/$precision.log" 2>&1 &
done
wait
for precision in none bf16; do
  for ckpt in "$OUT/$precision"/checkpoints/step_*; do
    step=${ckpt##*step_}
    [ -f "$OUT/$precision/eval/step_$step/summary.json" ] && continue
    mkdir -p "$OUT/$precision/eval"
    "$BUILD/tools/falcon_eval" experiments/learning_curves/eval_checkpoint.yaml model.checkpoint="$ckpt" \
      model.tokenizer="$OUT/$precision/tokenizer.model" output_dir="$OUT/$precision/eval/step_$step" \
      > "$OUT/$precision/eval/step_$step.log" 2>&1 &
    [ "$(jobs -rp | wc -l)" -ge 2 ] && wait -n
  done
done
wait
/usr/bin/python3 experiments/train_speed/precision.py "$OUT"
