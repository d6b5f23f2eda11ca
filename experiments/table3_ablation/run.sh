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
  # The semantic mask reads every digit run as an index: not for a model whose text writes notes.
  masked=()
  for p in $P; do
    if grep -qE '"style": *"compact_(echo|state|ranked|insert)"' "$(model_dir bopo "$p")/text_style.json" 2>/dev/null; then
      why="its model's text writes notes, which the semantic mask would read as indices"
      echo "$EXP: no semantic-mask row for $p: $why" >&2
      mark_not_available table3_mask "$p" "$why"
    else
      masked+=("$p")
    fi
  done
  [ ${#masked[@]} -eq 0 ] || run_sweep table3_mask $T experiments/table3_ablation/eval_mask.yaml bopo "${masked[@]}"
fi
build_results table3
finish
