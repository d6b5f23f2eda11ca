#!/usr/bin/env bash
# Table 3 (tab:ablation_components): FALCON with one component removed (grammar, repair, adaptive,
# BOPO), SFT + repair and SFT only, plus our semantic-mask variant, on TSP and CVRP.
#   experiments/table3_ablation/run.sh                   # SCALE=small: runs/{bopo,sft}_<p>/final
#   SCALE=paper experiments/table3_ablation/run.sh
#   experiments/table3_ablation/run.sh --collect-only    # rebuild results.* only
# Settings: experiments/common/lib.sh.
source "$(dirname "$0")/../common/lib.sh"
P=$(problems_of "tsp cvrp")
T=experiments/common/problems.sweep.yaml
if [ "$COLLECT_ONLY" = 0 ]; then
  need_program tools/falcon_eval
  need_models bopo $P
  need_models sft $P
  need_data $P
  stop_if_missing
  run_sweep table3_bopo $T experiments/table3_ablation/eval_bopo.yaml bopo $P
  run_sweep table3_sft $T experiments/table3_ablation/eval_sft.yaml sft $P
fi
build_results table3
finish
