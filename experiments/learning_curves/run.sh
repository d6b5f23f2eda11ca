#!/usr/bin/env bash
# Learning curves on TSP-20: which text style / lever gets a small from-scratch model off the
# "uniform over the unvisited nodes" plateau? Each variant trains sft_tsp20.yaml (one thread,
# checkpoints every 250 steps) for MINUTES of wall time, two variants at a time; then every
# EVAL_EVERY-th checkpoint is decoded greedily on the 200 held-out instances (grammar on, repair
# off and on), and curves.py writes tables.md and curves.png.
#   experiments/learning_curves/run.sh                        # paper, compact_k0, compact_k4
#   MINUTES=60 experiments/learning_curves/run.sh compact_k4  # one variant, longer
# BIN (build folder), OUT (results folder) and EVAL_ARGS (falcon_eval overrides, e.g.
# device=cuda) are read from the environment; tools/gpu_check.sh runs compact_k4_cuda this way.
# Resumable: a variant with checkpoints continues from its newest (--resume) until its
# time is spent; evaluated checkpoints are not evaluated again.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${BIN:-build}
out=${OUT:-runs/curves}
minutes=${MINUTES:-45}
eval_every=${EVAL_EVERY:-250}
here=experiments/learning_curves

overrides() {  # the variant's changes to sft_tsp20.yaml
  case $1 in
    paper) echo "text.style=paper text.candidates=0 tokenizer.numbers=plain tokenizer.vocab_size=2000" ;;
    paper_whole) echo "text.style=paper text.candidates=0 tokenizer.numbers=whole tokenizer.vocab_size=2000" ;;
    compact_k0) echo "text.candidates=0" ;;
    compact_k4) echo "" ;;
    compact_k4_seed2) echo "seed=2" ;;
    compact_k4_aug) echo "data.augment=true" ;;
    compact_k4_bf16) echo "mixed_precision=bf16" ;;
    compact_k4_cuda) echo "device=cuda" ;;
    *) echo "run.sh: unknown variant '$1' (paper, paper_whole, compact_k0, compact_k4, compact_k4_seed2, compact_k4_aug, compact_k4_bf16, compact_k4_cuda)" >&2; return 1 ;;
  esac
}

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(paper compact_k0 compact_k4)
for v in "${variants[@]}"; do overrides "$v" > /dev/null; done

# The dataset once, on both cores, before any training starts.
"$bin/datagen/falcon_datagen" configs/data/tsp20.yaml

train() {  # variant: train for the rest of its time budget (the seconds already spent are in train.seconds)
  local v=$1 dir=$out/$1 spent=0 resume=()
  mkdir -p "$dir"
  [ -f "$dir/train.seconds" ] && spent=$(cat "$dir/train.seconds")
  local left=$((minutes * 60 - spent))
  [ "$left" -gt 30 ] || return 0
  [ -e "$dir/checkpoints/latest" ] && resume=(--resume)
  local start=$SECONDS
  # shellcheck disable=SC2046
  timeout --signal=TERM "$left" "$bin/tools/falcon_train" $here/sft_tsp20.yaml output_dir="$dir" \
    $(overrides "$v") "${resume[@]}" >> "$dir/train.log" 2>&1 || true
  echo $((spent + SECONDS - start)) > "$dir/train.seconds"
}

evaluate() {  # variant: greedy decoding of every eval_every-th checkpoint not yet evaluated
  local v=$1 dir=$out/$1
  for ckpt in "$dir"/checkpoints/step_*; do
    [ -d "$ckpt" ] || continue
    local step=${ckpt##*step_}
    [ $((step % eval_every)) -eq 0 ] || continue
    [ -f "$dir/eval/step_$step/summary.json" ] && continue
    "$bin/tools/falcon_eval" $here/eval_checkpoint.yaml model.checkpoint="$ckpt" \
      model.tokenizer="$dir/tokenizer.model" output_dir="$dir/eval/step_$step" ${EVAL_ARGS:-} > "$dir/eval/step_$step.log" 2>&1 ||
      echo "run.sh: evaluating $ckpt failed (see $dir/eval/step_$step.log)" >&2
  done
}

solution_tokens() {  # variant: tokens of one TSP-20 label + EOS in its text style and tokenizer (curves.py's yardstick)
  local v=$1 dir=$out/$1 style=compact text
  case " $(overrides "$v") " in *" text.style=paper "*) style=paper ;; esac
  [ -f "$dir/tokenizer.model" ] || return 0
  text=$("$bin/tools/falcon_solve" --problem tsp --method reference --text-style $style --generate n=20,seed=7 |
    /usr/bin/python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["solution"])')
  "$bin/tools/falcon_tokenizer" encode "$dir/tokenizer.model" "$text" |
    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["tokens"] + 1)' > "$dir/solution_tokens"
}

for ((i = 0; i < ${#variants[@]}; i += 2)); do  # two one-thread runs at a time
  train "${variants[i]}" &
  [ $((i + 1)) -lt ${#variants[@]} ] && train "${variants[i + 1]}" &
  wait
done
for ((i = 0; i < ${#variants[@]}; i += 2)); do
  mkdir -p "$out/${variants[i]}/eval"; evaluate "${variants[i]}" &
  if [ $((i + 1)) -lt ${#variants[@]} ]; then mkdir -p "$out/${variants[i + 1]}/eval"; evaluate "${variants[i + 1]}" & fi
  wait
done
for v in "${variants[@]}"; do solution_tokens "$v"; done
/usr/bin/python3 $here/curves.py "$out" "${variants[@]}"
