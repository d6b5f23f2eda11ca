#!/usr/bin/env bash
# The whole small-scale reproduction in one command: trains the 28 models
# (experiments/common/train_models.sh), then runs every table and figure, sharing sweeps where
# the paper reuses numbers (Table 5 reads Table 4's points, fig_repair Table 1's). Resumable:
# rerun it after a failure or Ctrl-C and only what is missing runs.
#   experiments/run_all.sh                    # every problem, every table
#   LIMIT=30 THREADS=1 experiments/run_all.sh # the first 30 test instances, one thread per eval
#   nohup experiments/run_all.sh >runs/run_all.log 2>&1 &
# Environment: train_models.sh's (PROBLEMS, JOBS, ...) for training, experiments/common/lib.sh's
# (SCALE, THREADS, LIMIT, ...) for the tables; Table 2 ignores LIMIT (its count is T2_COUNT). A
# model that failed to train leaves its cells "not run" (SKIP_MISSING=1), not the whole table.
set -uo pipefail
cd "$(dirname "$0")/.."
[ "${SCALE:-small}" = small ] || { echo "run_all: trains the small-scale models only; at SCALE=paper train them first (experiments/README.md), then run each run.sh" >&2; exit 2; }
start=$SECONDS
failed=()
step() {  # NAME COMMAND...: run one part, note a failure and go on with the rest
  local name=$1 t=$SECONDS; shift
  echo "run_all: $name ..." >&2
  if "$@"; then echo "run_all: $name done in $((SECONDS - t)) s" >&2; else failed+=("$name"); echo "run_all: $name FAILED" >&2; fi
}
# The problems of experiment $1 that PROBLEMS (when given) names: a run.sh refuses a problem it
# does not have, and PROBLEMS="mis" means "what there is of MIS", not an error in Table 3.
problems_for() {
  local own p out=""
  case "$1" in
    table3_ablation|table5_difficulty) own="tsp cvrp" ;;
    table2_heuristics) own="tsp cvrp pfsp jssp" ;;
    *) own="tsp op cvrp mis mvc pfsp jssp" ;;
  esac
  [ -z "${PROBLEMS:-}" ] && { echo "$own"; return; }
  for p in $PROBLEMS; do case " $own " in *" $p "*) out="$out $p" ;; esac; done
  echo "${out# }"
}
step "train the models" experiments/common/train_models.sh
for exp in table1_main table3_ablation table4_adaptive table5_difficulty fig_repair fig_bopo_vs_grpo table2_heuristics; do
  mine=$(problems_for $exp)
  [ -n "$mine" ] || { echo "run_all: $exp: none of PROBLEMS=\"$PROBLEMS\"; skipped" >&2; continue; }
  limit=${LIMIT:-0}; [ $exp = table2_heuristics ] && limit=0
  if [ -n "${PROBLEMS:-}" ]; then
    step "$exp" env PROBLEMS="$mine" LIMIT=$limit SKIP_MISSING=1 experiments/$exp/run.sh
  else
    step "$exp" env LIMIT=$limit SKIP_MISSING=1 experiments/$exp/run.sh
  fi
done
echo "run_all: finished in $((SECONDS - start)) s" >&2
[ ${#failed[@]} -eq 0 ] || { echo "run_all: failed: ${failed[*]} (rerun the same command to retry)" >&2; exit 1; }
