#!/usr/bin/env bash
# Table 2 (tab:heuristic_results): heuristics vs LLMCoSolver-style and FALCON by size bucket
# (Small 10-30, Medium 40-60, Large 70-100) on TSP, CVRP, PFSP, JSSP.
#   ROWS=heuristics THREADS=1 experiments/table2_heuristics/run.sh   # solver rows only: no model needed
#   experiments/table2_heuristics/run.sh                             # and the model rows
#   SCALE=paper experiments/table2_heuristics/run.sh                 # 100 test instances a problem
#   experiments/table2_heuristics/run.sh --collect-only              # rebuild results.* only
# The test instances: the test split of configs/data/<p>_paper.yaml (its Table 2 buckets, taken
# in turn), made here without its training split: T2_COUNT of them (small 30 = 10 a bucket; paper
# 100). Instance k depends only on (seed, split, k) (docs/dataset_format.md), so these are the
# first T2_COUNT test instances of the paper-scale file data/<p>_paper.h5 as well.
# Model rows: Table 1's eval configs on these instances with runs/{foarl,bopo}_<p>/final. At the
# small scale those models saw n 10-30 (JSSP 6-15) only, and Medium / Large PFSP / JSSP prompts and
# solutions may not fit their 2,048 positions: falcon_eval leaves those instances out
# (data.over_context=skip) and the table says over how many instances each bucket's mean is.
source "$(dirname "$0")/../common/lib.sh"
P=$(problems_of "tsp cvrp pfsp jssp")
ROWS=${ROWS:-all}
case "$ROWS" in all|heuristics) ;; *) echo "$EXP: ROWS=$ROWS: give ROWS=all or ROWS=heuristics" >&2; exit 2 ;; esac
T2_COUNT=${T2_COUNT:-$([ "$SCALE" = paper ] && echo 100 || echo 30)}
[ "$LIMIT" = 0 ] || { echo "$EXP: LIMIT=$LIMIT: Table 2 sets its instance count with T2_COUNT" >&2; exit 2; }
T2DATA=$RUNS/table2_data
EXTRA_ENV="ROWS T2_COUNT"   # both change what the results hold: named in their command line
if [ "$COLLECT_ONLY" = 0 ]; then
  need_program tools/falcon_eval
  need_program datagen/falcon_datagen
  if [ "$ROWS" = all ]; then
    need_models foarl $P
    need_models bopo $P
    [ ${#MISSING[@]} -gt 0 ] && MISSING+=("(ROWS=heuristics runs the solver rows alone, without models)")
  fi
  stop_if_missing
  for p in $P; do  # resumable: labels already in the file are kept
    "$BUILD/datagen/falcon_datagen" "configs/data/${p}_paper.yaml" splits.train.count=0 splits.val.count=0 \
      splits.test.count="$T2_COUNT" threads="$THREADS" output="$T2DATA/${p}_test.h5" >&2
  done
  only=(); for p in $P; do only+=("$p.*"); done
  "$PY" experiments/common/expand_sweep.py experiments/table2_heuristics/heuristics.sweep.yaml \
    "$RUNS/table2_heuristics/sweep.yaml" BUILD="$BUILD" OUT="$RUNS/table2_heuristics" \
    THREADS="$(sweep_threads "$RUNS/table2_heuristics")" T2DATA="$T2DATA"
  "$PY" tools/falcon_sweep.py "$RUNS/table2_heuristics/sweep.yaml" --only "${only[@]}" >/dev/null || SWEEP_FAILED=1
  "$PY" experiments/common/archive_points.py "$RUNS" "$ARCHIVE" table2_heuristics || SWEEP_FAILED=1
  if [ "$ROWS" = all ]; then
    DATA_PATTERN="$T2DATA/<p>_test.h5"  # the model rows read the same instances
    # An instance too long for the model's context is left out and counted, not a failed point:
    # the bucket's cell says over how many instances its mean is, or "over context".
    MORE_OVERRIDES=", data.over_context=skip"
    run_sweep table2_foarl experiments/common/problems.sweep.yaml experiments/table1_main/eval_foarl.yaml foarl $P
    run_sweep table2_falcon experiments/common/problems.sweep.yaml experiments/table1_main/eval_falcon.yaml bopo $P
  fi
fi
per=$((T2_COUNT / 3)); [ $((T2_COUNT % 3)) -ne 0 ] && per="$per-$((per + 1))"
build_results table2 "$SCALE: the first $T2_COUNT test instances of configs/data/<p>_paper.yaml (seed 2025; \
buckets taken in turn, so $per a bucket), labelled by our reference solvers; \
heuristics at their default deterministic budgets; model rows: runs/{foarl,bopo}_<p>/final \
(runs/paper/... at SCALE=paper), leaving out the instances whose prompt + solution exceed the model's \
positions (data.over_context=skip). What each point ran on is listed under Runs."
finish
