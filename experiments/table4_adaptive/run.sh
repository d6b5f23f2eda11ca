#!/usr/bin/env bash
# Table 4 (tab:adaptive_efficiency): fixed N=64 vs adaptive Best-of-N, gap, samples and time per
# instance, on the seven problems with the BOPO models.
#   experiments/table4_adaptive/run.sh                   # SCALE=small: runs/bopo_<p>/final
#   SCALE=paper experiments/table4_adaptive/run.sh
#   experiments/table4_adaptive/run.sh --collect-only    # rebuild results.* only
# Settings: experiments/common/lib.sh. Table 5 reads the TSP and CVRP points of this sweep.
source "$(dirname "$0")/../common/lib.sh"
P=$(problems_of "tsp op cvrp mis mvc pfsp jssp")
if [ "$COLLECT_ONLY" = 0 ]; then
  need_program tools/falcon_eval
  need_models bopo $P
  need_data $P
  stop_if_missing
  run_sweep table4_adaptive experiments/common/problems.sweep.yaml experiments/table4_adaptive/eval.yaml bopo $P
fi
build_results table4
finish
