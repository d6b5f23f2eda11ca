#!/usr/bin/env bash
# Training speed on this CPU, measured by the trainer's own code. Run it on a quiet machine.
#  1. The SFT step (falcon_bench --suite scoring): lm_head and the loss on the trained positions
#     against every position after the prompt (the trainer before), fp32 against bf16 autocast,
#     alternating in one process; on TSP-20's compact text and on MVC-50's ranked text (the decoder
#     writes the notes, most of the solution).
#     On TSP also each arm's costliest operators (--scoring-profile): where the step's time goes.
#  2. fp32 against bf16 autocast in the trainer: configs/sft_tsp.yaml from models/tsp for STEPS
#     steps on two threads, two alternating rounds.
#  3. Threads beside a busy process: configs/sft_tsp.yaml for STEPS steps with auto threads
#     (`threads: 0`) and with two fixed threads, quiet and beside one process that keeps a core busy.
#   experiments/train_speed/run.sh                 # about 14 minutes; writes runs/train_speed/
#   STEPS=100 experiments/train_speed/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-runs/train_speed}
STEPS=${STEPS:-60}
for program in "$BUILD/tools/bench/falcon_bench" "$BUILD/tools/falcon_train"; do
  [ -x "$program" ] || { echo "train_speed: $program is missing: build it first (tools/build.sh $BUILD)" >&2; exit 2; }
done
[ -f data/tsp20.h5 ] || "$BUILD/datagen/falcon_datagen" configs/data/tsp20.yaml
mkdir -p "$OUT"
MODEL=(--vocab 2330 --hidden 128 --ffn 352 --layers 4 --heads 4 --kv-heads 4)  # the CPU recipes' model

echo "train_speed: the SFT step, TSP-20 compact (prompt 222, solution 69 tokens)" >&2
"$BUILD/tools/bench/falcon_bench" --suite scoring "${MODEL[@]}" --scoring-prompt 222 --scoring-solution 69 \
  --scoring-profile 12 --out "$OUT/scoring_tsp.json" > /dev/null
echo "train_speed: the SFT step, MVC-50 ranked (prompt 300, solution 800-1,100 tokens, 3% written by the model)" >&2
"$BUILD/tools/bench/falcon_bench" --suite scoring "${MODEL[@]}" --scoring-prompt 300 --scoring-solution 1100 \
  --scoring-spread 300 --scoring-trained 0.03 --scoring-batch 16 --scoring-steps 3 --out "$OUT/scoring_mvc.json" > /dev/null

train() {  # name, extra keys...
  local name=$1; shift
  rm -rf "$OUT/$name"
  # the release's weights only: the text stays the recipe's compact one, whatever the release's
  "$BUILD/tools/falcon_train" configs/sft_tsp.yaml init.checkpoint=models/tsp init.other_text_style=true \
    output_dir="$OUT/$name" stages[0].steps="$STEPS" \
    eval.instances=0 checkpoint.every=0 logging.every=10 "$@" > "$OUT/$name.log" 2>&1
}
busy() { bash -c 'while :; do :; done' & BUSY=$!; }
echo "train_speed: fp32 against bf16 autocast in the trainer, two threads ($STEPS steps each, two rounds)" >&2
for round in 1 2; do
  train "fp32_$round" threads=2 mixed_precision=none
  train "bf16_$round" threads=2 mixed_precision=bf16
done
echo "train_speed: threads, quiet and beside a busy process ($STEPS steps each)" >&2
train quiet_auto threads=0
busy; train busy_auto threads=0; kill "$BUSY"
train quiet_two threads=2
busy; train busy_two threads=2; kill "$BUSY"
python3 experiments/train_speed/summarize.py "$OUT"
