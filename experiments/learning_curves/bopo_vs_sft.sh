#!/usr/bin/env bash
# Does BOPO add what more SFT or GRPO would not? From one SFT checkpoint (default: the main job's
# SFT stage, `falcon_train configs/bopo_tsp.yaml`'s step 1200), per seed, one arm per ARMS entry:
#  - bopo: configs/bopo_tsp.yaml's BOPO stage as the main job runs it (LoRA 16, lr 2e-4,
#    8 instances x 8 samples at temperature 1, beta 0.1) for STEPS steps (twice the main job's),
#    a checkpoint every STEPS / 4;
#  - grpo: configs/grpo_tsp.yaml's GRPO stage, the same LoRA, rate and samples for the same steps
#    (so the same number of samples as bopo);
#  - sft:  the same wall time of more SFT: configs/bopo_tsp.yaml's SFT stage continued on the
#    labels (full fine-tuning at a constant SFT_LR, default the stage's peak 1e-3, no warmup),
#    stopped when the bopo run of the same seed took as long.
# PROBLEM (default tsp) picks the labels and held-out instances: tsp (TSP-20), jssp (JSSP 6x6,
# the learning curves' jssp run, whose checkpoint is then the BASE), mis or mvc (ER-50, from a
# learning-curve *_state run: the decoder computes the notes in the rollouts and the evaluation;
# STYLE=compact_ranked for a *_ranked run, CHOICES_ONLY=1 for one trained with loss_on_notes: false),
# cvrp, op (CVRP-20, OP-20) or pfsp (20 x 5) from a learning-curve *_ranked run (notes computed
# likewise; STYLE=compact_insert for pfsp_insert).
# All runs one thread, one at a time (run it beside at most one other one-thread job), or with
# PARALLEL=1 every seed at once, GRPO beside BOPO and SFT after it (a machine with cores to spare;
# the SFT arm's budget is then BOPO's wall time under a like load). TRAIN_ARGS and EVAL_ARGS are overrides of every
# falcon_train and falcon_eval call (on a GPU: TRAIN_ARGS=device=cuda
# EVAL_ARGS="device=cuda batch_instances=100"); REPORT=none writes no report. Every
# preference checkpoint, and every 150th SFT step and the last, is decoded on LIMIT (default 200)
# held-out instances (eval_bopo.yaml: greedy without repair, and FALCON best of 8), then
# bopo_vs_sft.py writes bopo_vs_sft.md and .png.
#   falcon_train configs/bopo_tsp.yaml threads=1 && experiments/learning_curves/bopo_vs_sft.sh
# (results.md's base was the main job's SFT at a constant rate: add 'stages[0].schedule=constant'.)
#   SEEDS="1 2 3" STEPS=200 BASE=runs/.../step_N TOKENIZER=runs/.../tokenizer.model experiments/learning_curves/bopo_vs_sft.sh
#   OUT=runs/bopo_sftw BOPO_ARGS="stages[1].sft_weight=1" REPORT=experiments/learning_curves/bopo_sft_weight \
#     experiments/learning_curves/bopo_vs_sft.sh         # a BOPO variant, its report in its own folder
#   PROBLEM=jssp OUT=runs/pref_jssp BASE=runs/curves_sched/jssp/checkpoints/step_4250 TOKENIZER=runs/curves_sched/jssp/tokenizer.model \
#     REPORT=experiments/learning_curves/problems/jssp_preferences experiments/learning_curves/bopo_vs_sft.sh
# Each arm's checkpoints are evaluated as soon as it has trained.
# Resumable: a run with its wall time written is not run again (an interrupted one starts over),
# and an evaluated checkpoint is not evaluated again. The sft arm needs the bopo arm's wall time.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${BIN:-build}
out=${OUT:-runs/bopo_vs_sft}
base=${BASE:-runs/bopo_tsp/checkpoints/step_1200}
tokenizer=${TOKENIZER:-runs/bopo_tsp/tokenizer.model}
read -r -a seeds <<< "${SEEDS:-1 2 3}"
steps=${STEPS:-120}
limit=${LIMIT:-200}  # held-out instances each checkpoint is decoded on
sft_lr=${SFT_LR:-1e-3}
read -r -a bopo_args <<< "${BOPO_ARGS:-}"  # overrides of the BOPO arm's recipe
read -r -a arms <<< "${ARMS:-bopo sft grpo}"
read -r -a train_args <<< "${TRAIN_ARGS:-}"  # overrides of every falcon_train call
read -r -a more_eval_args <<< "${EVAL_ARGS:-}"  # overrides of every falcon_eval call
for arm in "${arms[@]}"; do
  case $arm in bopo | sft | grpo) ;; *) echo "bopo_vs_sft.sh: unknown arm '$arm' in ARMS (bopo, sft, grpo)" >&2; exit 2 ;; esac
done
problem=${PROBLEM:-tsp}
pref_args=() eval_args=()  # the preference arms' and the evaluation's changes for the problem
case $problem in  # the curve recipe's changes for the problem (run.sh's), and its held-out instances
  tsp) recipe_args=() dataset=data/tsp20.h5 ;;
  jssp) recipe_args=(data.config=configs/data/jssp6.yaml text.candidates=0 model.max_position_embeddings=512) dataset=data/jssp6.h5 ;;
  mis | mvc)
    recipe_args=(data.config=configs/data/${problem}50.yaml text.style=${STYLE:-compact_state} text.candidates=0
      model.max_position_embeddings=$(case $problem/${STYLE:-compact_state} in mis/*) echo 1024 ;; mvc/compact_ranked) echo 2048 ;; *) echo 1280 ;; esac))
    dataset=data/${problem}50.h5 ;;
  cvrp | op)  # run.sh's *_ranked runs: 4 candidates per node, as the learning-curve recipe
    recipe_args=(data.config=configs/data/${problem}20.yaml text.style=${STYLE:-compact_ranked} model.max_position_embeddings=1024)
    dataset=data/${problem}20.h5 ;;
  pfsp)  # run.sh's pfsp_ranked (STYLE=compact_insert for pfsp_insert)
    recipe_args=(data.config=configs/data/pfsp20.yaml text.style=${STYLE:-compact_ranked} text.candidates=0 model.max_position_embeddings=1024)
    dataset=data/pfsp20.h5 ;;
  *) echo "bopo_vs_sft.sh: unknown PROBLEM '$problem' (tsp, jssp, mis, mvc, cvrp, op, pfsp)" >&2; exit 2 ;;
esac
case $problem in  # the texts with notes: the decoder computes them in the rollouts and the evaluation
  mis | mvc | cvrp | op | pfsp)
    pref_args=(stages[1].rollout.computed_notes=true) eval_args=(rows[0].computed_notes=true rows[1].computed_notes=true)
    # CHOICES_ONLY=1: every arm's loss leaves the decoder's notes out (a base trained that way)
    if [ "${CHOICES_ONLY:-0}" = 1 ]; then recipe_args+=(stages[0].loss_on_notes=false stages[1].loss_on_notes=false); fi ;;
esac
report=${REPORT:-experiments/learning_curves}  # where bopo_vs_sft.md and .png go
here=experiments/learning_curves

for f in "$base/model.safetensors" "$tokenizer"; do
  [ -f "$f" ] || { echo "bopo_vs_sft.sh: $f is missing (set BASE to an SFT checkpoint and TOKENIZER to its run's tokenizer.model)" >&2; exit 2; }
done
mkdir -p "$out"
[ "$report" = none ] || mkdir -p "$report"
echo "${BOPO_ARGS:-}" > "$out/bopo_args"  # named in the report
echo "${TRAIN_ARGS:-}" > "$out/train_args"
echo "$problem" > "$out/problem"

start_run() {  # dir: a clean run folder (an interrupted run starts over)
  rm -rf "$1" && mkdir -p "$1"
}

run_preference() {  # arm (bopo or grpo), seed
  local arm=$1 dir=$out/$1_seed$2 start=$SECONDS recipe=configs/bopo_tsp.yaml extra=("${pref_args[@]}" "${bopo_args[@]}")
  [ "$arm" = grpo ] && recipe=configs/grpo_tsp.yaml extra=("${pref_args[@]}")
  [ -f "$dir/train.seconds" ] && return 0
  start_run "$dir"
  "$bin/tools/falcon_train" $recipe output_dir="$dir" seed="$2" threads=1 "${recipe_args[@]}" \
    init.checkpoint="$base" init.start_stage=1 tokenizer.path="$tokenizer" "stages[1].steps=$steps" \
    checkpoint.every=$((steps / 4 > 0 ? steps / 4 : 1)) checkpoint.keep_last=100 eval.instances=0 "${extra[@]}" "${train_args[@]}" \
    > "$dir/train.log" 2>&1
  echo $((SECONDS - start)) > "$dir/train.seconds"
}

run_sft() {  # seed: as long as the bopo run of that seed took
  local dir=$out/sft_seed$1 start=$SECONDS budget
  [ -f "$dir/train.seconds" ] && return 0
  [ -f "$out/bopo_seed$1/train.seconds" ] || { echo "bopo_vs_sft.sh: the sft arm of seed $1 needs the bopo arm's wall time (ARMS with bopo)" >&2; exit 2; }
  budget=$(cat "$out/bopo_seed$1/train.seconds")
  start_run "$dir"
  local rc=0
  timeout --signal=TERM "$budget" "$bin/tools/falcon_train" configs/bopo_tsp.yaml output_dir="$dir" seed="$1" \
    threads=1 "${recipe_args[@]}" init.checkpoint="$base" tokenizer.path="$tokenizer" "stages[0].steps=20000" "stages[0].lr=$sft_lr" "stages[0].schedule=constant" \
    "stages[0].warmup_steps=0" checkpoint.every=50 checkpoint.keep_last=1000 eval.instances=0 "${train_args[@]}" > "$dir/train.log" 2>&1 || rc=$?
  # 124: stopped by the budget, as meant; its last checkpoint is the comparison point
  [ $rc -eq 0 ] || [ $rc -eq 124 ] || { echo "bopo_vs_sft.sh: SFT seed $1 failed (see $dir/train.log)" >&2; exit 1; }
  echo $((SECONDS - start)) > "$dir/train.seconds"
}

evaluate() {  # checkpoint folder, output folder
  [ -f "$2/summary.json" ] && return 0
  mkdir -p "$(dirname "$2")"
  "$bin/tools/falcon_eval" $here/eval_bopo.yaml model.checkpoint="$1" model.tokenizer="$tokenizer" \
    output_dir="$2" data.dataset="$dataset" data.limit="$limit" "${eval_args[@]}" "${more_eval_args[@]}" > "$2.log" 2>&1 || echo "bopo_vs_sft.sh: evaluating $1 failed (see $2.log)" >&2
}

evaluate_arm() {  # arm, seed: the run's checkpoints (SFT's: every 150th step and the last)
  local dir=$out/$1_seed$2 ckpt last
  last=$(cat "$dir/checkpoints/latest" 2> /dev/null || true)
  for ckpt in "$dir"/checkpoints/step_*; do
    [ -d "$ckpt" ] || continue
    if [ "$1" = sft ]; then [ $((${ckpt##*step_} % 150)) -eq 0 ] || [ "${ckpt##*/}" = "$last" ] || continue; fi
    evaluate "$ckpt" "$dir/eval/${ckpt##*/}"
  done
}

run_arm() {  # arm, seed: trained, then evaluated (an arm cut short by a time cap leaves its evaluations)
  if [ "$1" = sft ]; then run_sft "$2"; else run_preference "$1" "$2"; fi
  evaluate_arm "$1" "$2"
}

if [ "${PARALLEL:-0}" = 1 ]; then  # per seed, GRPO beside BOPO and then SFT (which needs BOPO's wall time)
  pids=()
  evaluate "$base" "$out/base/eval" & pids+=($!)
  for seed in "${seeds[@]}"; do
    chain=()
    for arm in "${arms[@]}"; do
      if [ "$arm" = grpo ]; then run_arm grpo "$seed" & pids+=($!); else chain+=("$arm"); fi
    done
    (for arm in "${chain[@]}"; do run_arm "$arm" "$seed"; done) & pids+=($!)
  done
  failed=0
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  [ $failed = 0 ] || { echo "bopo_vs_sft.sh: a run failed (see its train.log)" >&2; exit 1; }
else
  evaluate "$base" "$out/base/eval"
  for seed in "${seeds[@]}"; do
    for arm in "${arms[@]}"; do run_arm "$arm" "$seed"; done
  done
fi
[ "$report" = none ] || /usr/bin/python3 $here/bopo_vs_sft.py --out "$report" "$out" "${seeds[@]}"
