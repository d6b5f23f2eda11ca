#!/usr/bin/env bash
# Trains the models the tables read at SCALE=small, runs/{sft,bopo,grpo,foarl}_<p>/final, with the
# repository's CPU recipes. Per problem p the SFT recipe runs once (configs/sft_<p>.yaml ->
# runs/sft_<p>); BOPO, GRPO and FOARL then each train only their own stage from its last SFT
# checkpoint: the paper's "same SFT checkpoint" for every method, and one SFT stage a problem
# instead of four.
#   experiments/common/train_models.sh                        # 7 problems, two at a time, 1 thread each
#   tail -f runs/train_models.log                             # with nohup ... >runs/train_models.log &
#   PROBLEMS="tsp cvrp" RECIPES="sft bopo" experiments/common/train_models.sh
# Environment (all optional):
#   PROBLEMS   default "mvc jssp pfsp cvrp mis op tsp", longest first (the learning curves' SFT on
#              one thread, two runs at once: MVC 104 min, JSSP about 75, OP 44; each later stage
#              5-24 min, MVC's about an hour); a free slot takes the next problem
#   RECIPES    default "sft bopo grpo foarl"; bopo / grpo / foarl need sft (run earlier or here)
#   JOBS=2     problems trained at once; THREADS=1 intra-op threads each (2-core machine: OpenMP
#              threads stall on a busy core, so two one-thread runs beat one two-thread run; with
#              THREADS=0 each run takes every core)
#   EVAL_INSTANCES=50  held-out instances each run evaluates after its stage (a progress check;
#              the tables evaluate the models themselves)
#   RL_OVERRIDES   extra key=value overrides for the BOPO / GRPO / FOARL runs, e.g.
#              "stages[1].batch_size=2 stages[1].grad_accum=4": the same 8 instances a step in 4
#              micro-batches. FOARL on MIS / MVC (64 sequences of ~1,100 tokens a step, every one
#              with a gradient) held 10 GB in one step; two such runs at once do not fit 24 GB. With
#              the overrides above plus checkpoint.every=10 both ran at once: 17 and 23 min.
#   BUILD=build, MODELS=runs
# Resumable: a model whose final/ exists is skipped, an interrupted one continues from its last
# checkpoint (falcon_train --resume). Each run's output goes to MODELS/logs/<recipe>_<p>.log.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

PROBLEMS=${PROBLEMS:-"mvc jssp pfsp cvrp mis op tsp"}
RECIPES=${RECIPES:-"sft bopo grpo foarl"}
JOBS=${JOBS:-2}
THREADS=${THREADS:-1}
EVAL_INSTANCES=${EVAL_INSTANCES:-50}
RL_OVERRIDES=${RL_OVERRIDES:-}
BUILD=${BUILD:-build}
MODELS=${MODELS:-runs}
TRAIN=$BUILD/tools/falcon_train

[ -x "$TRAIN" ] || { echo "train_models: no program at $TRAIN: build the project (tools/build.sh build) or set BUILD" >&2; exit 1; }
for p in $PROBLEMS; do
  [ -f "configs/sft_$p.yaml" ] || { echo "train_models: PROBLEMS names '$p', which has no configs/sft_$p.yaml" >&2; exit 2; }
done
for r in $RECIPES; do
  case "$r" in sft|bopo|grpo|foarl) ;; *) echo "train_models: RECIPES names '$r' (known: sft bopo grpo foarl)" >&2; exit 2 ;; esac
done
mkdir -p "$MODELS/logs"

# train RECIPE P: one falcon_train run, skipped when its final/ is there.
train() {
  local recipe=$1 p=$2 out=$MODELS/$1_$2 log=$MODELS/logs/$1_$2.log start=$SECONDS
  # eval.computed_notes=auto: the decoder writes the notes of a text that has them, as the tables do
  local args=(threads="$THREADS" eval.instances="$EVAL_INSTANCES" eval.computed_notes=auto output_dir="$out")
  if [ -f "$out/final/config.json" ]; then echo "train_models: $recipe $p: done before ($out/final)"; return 0; fi
  if [ "$recipe" = sft ]; then
    args=("configs/sft_$p.yaml" "${args[@]}")
  else
    local sft=$MODELS/sft_$p
    [ -f "$sft/final/config.json" ] || { echo "train_models: $recipe $p needs $sft/final: add sft to RECIPES" >&2; return 1; }
    # bopo_<p>.yaml exists per problem; GRPO and FOARL have the TSP recipe, run on p's data.
    local config=configs/bopo_$p.yaml
    [ "$recipe" != bopo ] && config=configs/${recipe}_tsp.yaml
    # The SFT run's newest checkpoint is the end of its one stage, whatever its step count.
    local ckpt
    ckpt=$(ls -d "$sft"/checkpoints/step_* 2>/dev/null | sort -V | tail -n 1)
    [ -n "$ckpt" ] || { echo "train_models: $recipe $p: no checkpoint under $sft/checkpoints" >&2; return 1; }
    # The later stage reads what the SFT model was built for and trains on its data: the SFT run's
    # model shape, text style and data sections, whatever the template recipe says (GRPO and FOARL
    # use the TSP recipes on every problem).
    local sections
    mapfile -t sections < <(/usr/bin/python3 experiments/common/base_sections.py "$ckpt")
    [ ${#sections[@]} -eq 3 ] || return 1  # base_sections.py named the fault
    args=("$config" "${args[@]}" "${sections[@]}" init.checkpoint="$ckpt" init.start_stage=1
          tokenizer.path="$sft/tokenizer.model")
    local extra
    read -r -a extra <<<"$RL_OVERRIDES"
    args+=("${extra[@]}")
  fi
  echo "train_models: $recipe $p: started ($log)"
  if "$TRAIN" "${args[@]}" --resume >"$log" 2>&1; then
    echo "train_models: $recipe $p: done in $((SECONDS - start)) s"
  else
    echo "train_models: $recipe $p: FAILED after $((SECONDS - start)) s; the end of $log:" >&2
    tail -n 5 "$log" >&2
    return 1
  fi
}

# One problem's recipes in order; a failure skips the rest of that problem, not the others.
problem() {
  local r
  for r in $RECIPES; do train "$r" "$1" || return 1; done
}

# JOBS problems at a time, each taken by the first free slot (xargs -P); xargs exits 123 when
# any problem failed.
export -f train problem
export RECIPES THREADS EVAL_INSTANCES RL_OVERRIDES MODELS TRAIN
rc=0
printf '%s\n' $PROBLEMS | xargs -P "$JOBS" -I{} bash -c 'problem "$1"' _ {} || rc=1
echo "train_models: finished in $SECONDS s$([ $rc = 0 ] || echo ', with failures (see above)')"
exit $rc
