#!/usr/bin/env bash
# Table 5 (tab:difficulty_allocation): the adaptive row's instances on TSP and CVRP grouped by
# their consistency (Definition 3.5; Easy > 0.7, Medium 0.3-0.7, Hard < 0.3): share of instances,
# mean samples, mean gap. The instances are Table 4's adaptive row (experiments/table4_adaptive/
# eval.yaml): this runs that sweep's TSP and CVRP points (skipped when Table 4 already ran them)
# and buckets falcon_eval's per-instance lines (instances.jsonl: consistency, samples, gap).
#   experiments/table5_difficulty/run.sh                 # SCALE=small: runs/bopo_<p>/final
#   SCALE=paper experiments/table5_difficulty/run.sh
#   experiments/table5_difficulty/run.sh --collect-only  # rebuild results.* only
source "$(dirname "$0")/../common/lib.sh"
P=$(problems_of "tsp cvrp")
if [ "$COLLECT_ONLY" = 0 ]; then
  need_program tools/falcon_eval
  need_models bopo $P
  need_data $P
  stop_if_missing
  run_sweep table4_adaptive experiments/common/problems.sweep.yaml experiments/table4_adaptive/eval.yaml bopo $P
fi
build_results table5
finish
