#!/usr/bin/env bash
# Does BOPO add what more SFT or GRPO would not? From one SFT checkpoint of PROBLEM (default tsp;
# default BASE: the newest checkpoint of runs/sft_<p>, the tables' SFT model, which
# `falcon_train configs/sft_<p>.yaml` or experiments/common/train_models.sh makes), per seed, one
# arm per ARMS entry:
#  - bopo: configs/bopo_<p>.yaml's BOPO stage as the main job runs it (LoRA 16, lr 2e-4,
#    8 instances x 8 samples at temperature 1, beta 0.1) for STEPS steps (twice the main job's),
#    a checkpoint every STEPS / 4;
#  - grpo: configs/grpo_tsp.yaml's GRPO stage, the same LoRA, rate and samples for the same steps
#    (so the same number of samples as bopo);
#  - sft:  the same wall time of more SFT: configs/bopo_<p>.yaml's SFT stage continued on the
#    labels (full fine-tuning at a constant SFT_LR, default the stage's peak 1e-3, no warmup),
#    stopped when the bopo run of the same seed took as long: SIGTERM at the budget, so it
#    checkpoints the step in progress and that checkpoint is its comparison point. SFT_STOP=kill:
#    SIGKILL at the budget, its last 50-step checkpoint the comparison point, up to 50 steps
#    short of the budget (the studies made before SFT_STOP existed; their study.txt has no
#    sft_stop line).
# BASE may be a released model (models/<p>): every arm then continues the release, as its card's
# continuation does (experiments/common/base_sections.py reads its sections).
# Every arm trains the model BASE was trained as, on its text and data (the model, text and data
# sections of BASE's config.yaml, experiments/common/base_sections.py, as train_models.sh does),
# and is decoded on that data's held-out split; the decoder writes the notes of a text that has
# them (computed_notes: auto), the model every choice. CHOICES_ONLY=1: every arm's loss leaves
# those notes out (for a BASE trained with loss_on_notes: false).
# All runs one thread, one at a time (run it beside at most one other one-thread job), or with
# PARALLEL=1 every seed at once, GRPO beside BOPO and SFT after it (a machine with cores to spare;
# the SFT arm's budget is then BOPO's wall time under a like load). TRAIN_ARGS and EVAL_ARGS are overrides of every
# falcon_train and falcon_eval call (on a GPU: TRAIN_ARGS=device=cuda
# EVAL_ARGS="device=cuda batch_instances=100"); REPORT=none writes no report. Every
# preference checkpoint, and every 150th SFT step and the last, is decoded on LIMIT (default 200)
# held-out instances (eval_bopo.yaml: greedy without repair, and FALCON best of 8), then
# bopo_vs_sft.py writes bopo_vs_sft.md and .png.
#   PROBLEMS=mis RECIPES=sft experiments/common/train_models.sh && \
#     PROBLEM=mis OUT=runs/pref_mis REPORT=experiments/learning_curves/problems/mis_preferences experiments/learning_curves/bopo_vs_sft.sh
#   SEEDS="1 2 3" STEPS=200 BASE=runs/.../step_N TOKENIZER=runs/.../tokenizer.model experiments/learning_curves/bopo_vs_sft.sh
#   PROBLEM=pfsp BASE=models/pfsp OUT=runs/pref_pfsp_release REPORT=experiments/learning_curves/problems/pfsp_preferences_release \
#     experiments/learning_curves/bopo_vs_sft.sh      # from the release
#   OUT=runs/bopo_sftw BOPO_ARGS="stages[1].sft_weight=1" REPORT=experiments/learning_curves/bopo_sft_weight \
#     experiments/learning_curves/bopo_vs_sft.sh         # a BOPO variant, its report in its own folder
#   PROBLEM=jssp OUT=runs/pref_jssp BASE=runs/curves_sched/jssp/checkpoints/step_4250 TOKENIZER=runs/curves_sched/jssp/tokenizer.model \
#     REPORT=experiments/learning_curves/problems/jssp_preferences experiments/learning_curves/bopo_vs_sft.sh
# Each arm's checkpoints are evaluated as soon as it has trained.
# Resumable: a run with its wall time written is not run again, an interrupted one resumes from its
# last checkpoint (its time up to that checkpoint counted; stop it with `pkill -TERM -f bopo_vs_sft.sh;
# pkill -TERM -f "^build/tools/falcon_train .*output_dir=OUT/"`, and falcon_train checkpoints the step
# in progress; the ^ spares the sft arm's `timeout`, which would pass on a second TERM), and an evaluated
# checkpoint is not evaluated again. The sft arm needs the bopo arm's wall time.
# Each finished and evaluated run's small files (metrics.jsonl, train.seconds, eval/*/summary.json)
# are copied to REPORT/runs, to be committed with the report: a run found there is not run again,
# and the report reads it when OUT has lost it. REPORT/runs/study.txt names the study (problem,
# the starting checkpoint's hash, steps, instances, arguments); a run with other settings is refused.
set -euo pipefail
cd "$(dirname "$0")/../.."
problem=${PROBLEM:-tsp}
[ -f "configs/bopo_$problem.yaml" ] || { echo "bopo_vs_sft.sh: PROBLEM '$problem' has no configs/bopo_$problem.yaml (tsp, op, cvrp, mis, mvc, pfsp, jssp)" >&2; exit 2; }
bin=${BIN:-build}
out=${OUT:-runs/bopo_vs_sft}
base=${BASE:-$(ls -d "runs/sft_$problem"/checkpoints/step_* 2> /dev/null | sort -V | tail -n 1 || true)}
base=${base:-runs/sft_$problem/checkpoints/step_N}  # named in the error below
# a released model (models/<p>) keeps its tokenizer beside its weights; a checkpoint's is its run's
if [ -f "$base/release.json" ]; then tokenizer=${TOKENIZER:-$base/tokenizer.model}
else tokenizer=${TOKENIZER:-$(dirname "$(dirname "$base")")/tokenizer.model}; fi
read -r -a seeds <<< "${SEEDS:-1 2 3}"
steps=${STEPS:-120}
limit=${LIMIT:-200}  # held-out instances each checkpoint is decoded on
sft_lr=${SFT_LR:-1e-3}
sft_stop=${SFT_STOP:-term}
case $sft_stop in term | kill) ;; *) echo "bopo_vs_sft.sh: SFT_STOP=$sft_stop: give term (checkpoint at the budget) or kill (the last 50-step checkpoint)" >&2; exit 2 ;; esac
read -r -a bopo_args <<< "${BOPO_ARGS:-}"  # overrides of the BOPO arm's recipe
read -r -a arms <<< "${ARMS:-bopo sft grpo}"
read -r -a train_args <<< "${TRAIN_ARGS:-}"  # overrides of every falcon_train call
read -r -a more_eval_args <<< "${EVAL_ARGS:-}"  # overrides of every falcon_eval call
for arm in "${arms[@]}"; do
  case $arm in bopo | sft | grpo) ;; *) echo "bopo_vs_sft.sh: unknown arm '$arm' in ARMS (bopo, sft, grpo)" >&2; exit 2 ;; esac
done
report=${REPORT:-experiments/learning_curves}  # where bopo_vs_sft.md and .png go
here=experiments/learning_curves

for f in "$base/model.safetensors" "$tokenizer"; do
  [ -f "$f" ] || { echo "bopo_vs_sft.sh: $f is missing (train the SFT model: PROBLEMS=$problem RECIPES=sft experiments/common/train_models.sh, or set BASE to an SFT checkpoint and TOKENIZER to its run's tokenizer.model, or BASE to a release in models/)" >&2; exit 2; }
done
# model=..., text=..., data=..., dataset=..., problem=...: base_sections.py needs PyYAML, so a
# machine without it (a lent GPU's python) reads them from sections.txt beside the checkpoint,
# written where it runs (docs/gpu.md)
if [ -f "$base/sections.txt" ]; then described=$(cat "$base/sections.txt")
else described=$(/usr/bin/python3 experiments/common/base_sections.py --all "$base"); fi
mapfile -t recipe_args < <(grep -E '^(model|text|data)=' <<< "$described")
dataset=$(sed -n 's/^dataset=//p' <<< "$described")
[ ${#recipe_args[@]} -eq 3 ] && [ -n "$dataset" ] || { echo "bopo_vs_sft.sh: $base: its sections.txt lacks model, text, data or dataset (rewrite it with experiments/common/base_sections.py --all)" >&2; exit 2; }
[ "$(sed -n 's/^problem=//p' <<< "$described")" = "$problem" ] ||
  { echo "bopo_vs_sft.sh: $base was trained on $dataset, not on PROBLEM=$problem's data" >&2; exit 2; }
if [ "${CHOICES_ONLY:-0}" = 1 ]; then recipe_args+=(stages[0].loss_on_notes=false stages[1].loss_on_notes=false); fi
eval_args=(computed_notes=auto)
mkdir -p "$out"
echo "${BOPO_ARGS:-}" > "$out/bopo_args"  # named in the report
echo "${TRAIN_ARGS:-}" > "$out/train_args"
echo "$problem" > "$out/problem"
echo "$base" > "$out/base_checkpoint"
archive=$report/runs
{
  echo "problem=$problem"
  echo "base_sha256=$(sha256sum < "$base/model.safetensors" | cut -d ' ' -f 1)"
  echo "steps=$steps"
  echo "limit=$limit"
  echo "sft_lr=$sft_lr"
  echo "bopo_args=${BOPO_ARGS:-}"
  echo "train_args=${TRAIN_ARGS:-}"
  echo "choices_only=${CHOICES_ONLY:-0}"
  [ "$sft_stop" = kill ] || echo "sft_stop=$sft_stop"  # absent: kill, as every study before the option
} > "$out/study.txt"
if [ "$report" != none ]; then
  mkdir -p "$archive"
  if [ -f "$archive/study.txt" ]; then
    cmp -s "$archive/study.txt" "$out/study.txt" || {
      echo "bopo_vs_sft.sh: $archive holds the runs of another study; it has" \
        "'$(diff "$archive/study.txt" "$out/study.txt" | sed -n 's/^< //p' | head -n 1)', this run" \
        "'$(diff "$archive/study.txt" "$out/study.txt" | sed -n 's/^> //p' | head -n 1)'; set REPORT to another folder," \
        "or remove $archive to start this study over" >&2
      exit 2
    }
  fi
  cp "$out"/{study.txt,bopo_args,train_args,problem,base_checkpoint} "$archive/"
fi

archived() {  # run name (bopo_seed1, ...): trained, evaluated and copied to the archive before
  [ "$report" != none ] && [ -f "$archive/$1/train.seconds" ]
}

archive_run() {  # run name: its small files into the archive, the wall time last (it marks the run done)
  [ "$report" = none ] && return 0
  local f
  (cd "$out" && find "$1" \( -name metrics.jsonl -o -path '*/eval/*summary.json' \)) | while read -r f; do
    mkdir -p "$archive/$(dirname "$f")" && cp "$out/$f" "$archive/$f"
  done
  if [ -f "$out/$1/train.seconds" ]; then mkdir -p "$archive/$1" && cp "$out/$1/train.seconds" "$archive/$1/"; fi
}

# An interrupted run resumes from its last checkpoint. Its wall time is the sum of its segments, each
# counted from its start (segment.start) to its last checkpoint (the mtime of checkpoints/latest):
# work lost after that checkpoint is not counted, each segment's start-up is.
seconds_before_resume() {  # dir: the training seconds its earlier segments kept; nothing when it starts over
  local dir=$1 start kept latest_at
  [ -f "$dir/segment.start" ] && [ -f "$dir/checkpoints/latest" ] || return 0
  start=$(cat "$dir/segment.start")
  kept=$(cat "$dir/seconds.before" 2> /dev/null || echo 0)
  latest_at=$(stat -c %Y "$dir/checkpoints/latest")
  echo $((latest_at > start ? kept + latest_at - start : kept))
}

begin_segment() {  # dir, seconds kept (empty: a clean run folder)
  if [ -z "$2" ]; then rm -rf "$1" && mkdir -p "$1"; fi
  echo "${2:-0}" > "$1/seconds.before"
  date +%s > "$1/segment.start"
}

end_segment() {  # dir: the run's wall time, all segments
  echo $(($(cat "$1/seconds.before") + $(date +%s) - $(cat "$1/segment.start"))) > "$1/train.seconds"
}

run_preference() {  # arm (bopo or grpo), seed
  local arm=$1 dir=$out/$1_seed$2 recipe=configs/bopo_$problem.yaml extra=("${bopo_args[@]}")
  [ "$arm" = grpo ] && recipe=configs/grpo_tsp.yaml extra=()
  [ -f "$dir/train.seconds" ] && return 0
  local kept resume=()
  kept=$(seconds_before_resume "$dir")
  if [ -n "$kept" ]; then resume=(--resume); echo "bopo_vs_sft.sh: $arm seed $2 resumes from its checkpoint (${kept}s trained)"; fi
  begin_segment "$dir" "$kept"
  "$bin/tools/falcon_train" $recipe output_dir="$dir" seed="$2" threads=1 "${recipe_args[@]}" \
    init.checkpoint="$base" init.start_stage=1 tokenizer.path="$tokenizer" "stages[1].steps=$steps" \
    checkpoint.every=$((steps / 4 > 0 ? steps / 4 : 1)) checkpoint.keep_last=100 eval.instances=0 "${extra[@]}" "${train_args[@]}" \
    "${resume[@]}" >> "$dir/train.log" 2>&1 || { echo "bopo_vs_sft.sh: $arm seed $2 failed or was stopped (see $dir/train.log); run the study again to resume it" >&2; exit 1; }
  end_segment "$dir"
}

run_sft() {  # seed: as long as the bopo run of that seed took
  local dir=$out/sft_seed$1 budget kept resume=()
  [ -f "$dir/train.seconds" ] && return 0
  [ -f "$out/bopo_seed$1/train.seconds" ] || archived "bopo_seed$1" || { echo "bopo_vs_sft.sh: the sft arm of seed $1 needs the bopo arm's wall time (ARMS with bopo)" >&2; exit 2; }
  budget=$(cat "$out/bopo_seed$1/train.seconds" 2> /dev/null || cat "$archive/bopo_seed$1/train.seconds")
  kept=$(seconds_before_resume "$dir")
  if [ -n "$kept" ]; then
    resume=(--resume)
    echo "bopo_vs_sft.sh: sft seed $1 resumes from its checkpoint (${kept}s of its ${budget}s trained)"
    if [ "$kept" -ge "$budget" ]; then echo "$kept" > "$dir/train.seconds"; return 0; fi
  fi
  begin_segment "$dir" "$kept"
  local rc=0 left=$((budget - ${kept:-0} > 1 ? budget - ${kept:-0} : 1)) began_ms
  began_ms=$(date +%s%3N)
  # TERM: falcon_train finishes the step in progress and checkpoints it (KILL after 10 more minutes
  # if that step hangs); kill: its last 50-step checkpoint is the comparison point.
  local stop=(--signal=TERM --kill-after=600)
  [ "$sft_stop" = kill ] && stop=(--signal=KILL)
  timeout "${stop[@]}" "$left" "$bin/tools/falcon_train" "configs/bopo_$problem.yaml" output_dir="$dir" seed="$1" \
    threads=1 "${recipe_args[@]}" init.checkpoint="$base" tokenizer.path="$tokenizer" "stages[0].steps=20000" "stages[0].lr=$sft_lr" "stages[0].schedule=constant" \
    "stages[0].warmup_steps=0" checkpoint.every=50 checkpoint.keep_last=1000 eval.instances=0 "${train_args[@]}" "${resume[@]}" >> "$dir/train.log" 2>&1 || rc=$?
  # The budget ran out, as meant (its last checkpoint is the comparison point): timeout's 124 after
  # its TERM; 137 after its KILL, which a KILL from elsewhere (the OOM killer, a user) also reads,
  # but before the budget. A user's TERM (143) stops the run to resume next time.
  [ $rc -eq 124 ] && [ "$sft_stop" = term ] && rc=0
  [ $rc -eq 137 ] && [ "$sft_stop" = kill ] && [ $(($(date +%s%3N) - began_ms)) -ge $((left * 1000 - 100)) ] && rc=0
  [ $rc -eq 0 ] || { echo "bopo_vs_sft.sh: sft seed $1 failed or was stopped (see $dir/train.log); run the study again to resume it" >&2; exit 1; }
  # After the TERM falcon_train has checkpointed the step in progress: without that checkpoint the arm
  # has no comparison point, and the run starts over next time (a stand-in for falcon_train that dies
  # of the TERM, or a build that does not handle it).
  [ "$sft_stop" = kill ] || [ -f "$dir/checkpoints/latest" ] ||
    { echo "bopo_vs_sft.sh: sft seed $1 reached its ${budget}s budget with no checkpoint (see $dir/train.log: falcon_train should checkpoint the step in progress when it gets a TERM); run the study again to train it from the start" >&2; exit 1; }
  end_segment "$dir"
}

evaluate() {  # checkpoint folder, output folder
  [ -f "$2/summary.json" ] && return 0
  mkdir -p "$(dirname "$2")"
  # An evaluation stopped part way (its config written, no summary yet) keeps the instances it finished.
  local resume=()
  [ -f "$2/config.yaml" ] && resume=(--resume)
  local model=(model.checkpoint="$1" model.tokenizer="$tokenizer")
  [ -f "$1/release.json" ] && model=(model.path="$1" model.tokenizer="$tokenizer")  # BASE a released model
  "$bin/tools/falcon_eval" $here/eval_bopo.yaml "${model[@]}" \
    output_dir="$2" data.dataset="$dataset" data.limit="$limit" "${eval_args[@]}" "${more_eval_args[@]}" "${resume[@]}" \
    > "$2.log" 2>&1 ||
    { echo "bopo_vs_sft.sh: evaluating $1 failed (see $2.log)" >&2; return 1; }
}

evaluate_arm() {  # arm, seed: the run's checkpoints (SFT's: every 150th step and the last); fails if one did
  local dir=$out/$1_seed$2 ckpt last failed=0
  last=$(cat "$dir/checkpoints/latest" 2> /dev/null || true)
  for ckpt in "$dir"/checkpoints/step_*; do
    [ -d "$ckpt" ] || continue
    if [ "$1" = sft ]; then [ $((${ckpt##*step_} % 150)) -eq 0 ] || [ "${ckpt##*/}" = "$last" ] || continue; fi
    evaluate "$ckpt" "$dir/eval/${ckpt##*/}" || failed=1
  done
  return $failed
}

run_arm() {  # arm, seed: trained, evaluated and archived (an arm cut short by a time cap leaves its evaluations)
  archived "$1_seed$2" && return 0
  if [ "$1" = sft ]; then run_sft "$2"; else run_preference "$1" "$2"; fi
  if evaluate_arm "$1" "$2"; then archive_run "$1_seed$2"; fi
}

evaluate_base() {
  [ "$report" != none ] && [ -f "$archive/base/eval/summary.json" ] && return 0
  if evaluate "$base" "$out/base/eval"; then archive_run base; fi
}

if [ "${PARALLEL:-0}" = 1 ]; then  # per seed, GRPO beside BOPO and then SFT (which needs BOPO's wall time)
  pids=()
  evaluate_base & pids+=($!)
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
  evaluate_base
  for seed in "${seeds[@]}"; do
    for arm in "${arms[@]}"; do run_arm "$arm" "$seed"; done
  done
fi
[ "$report" = none ] || /usr/bin/python3 $here/bopo_vs_sft.py --out "$report" "$out" "${seeds[@]}"
