#!/usr/bin/env bash
# Figure fig:repair_analysis: repair statistics per problem (feasibility before / after repair,
# gap, repair frequency and its share of the time, and their correlation) -> repair.png and
# results.*. The numbers are Table 1's FALCON adaptive row (experiments/table1_main/eval_falcon.yaml):
# this runs that sweep (points Table 1 already ran are skipped) and plots its summaries.
#   experiments/fig_repair/run.sh                        # SCALE=small: runs/bopo_<p>/final
#   SCALE=paper experiments/fig_repair/run.sh
#   experiments/fig_repair/run.sh --collect-only         # redraw from what is on disk
source "$(dirname "$0")/../common/lib.sh"
P=$(problems_of "tsp op cvrp mis mvc pfsp jssp")
if [ "$COLLECT_ONLY" = 0 ]; then
  need_program tools/falcon_eval
  need_models bopo $P
  need_data $P
  stop_if_missing
  run_sweep table1_falcon experiments/common/problems.sweep.yaml experiments/table1_main/eval_falcon.yaml bopo $P
fi
build_results fig_repair
finish
