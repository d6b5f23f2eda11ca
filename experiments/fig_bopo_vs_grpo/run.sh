#!/usr/bin/env bash
# Figure fig:bopo_vs_grpo: BOPO vs GRPO at equal budget -> bopo_vs_grpo.png and results.*.
# configs/bopo_tsp.yaml and configs/grpo_tsp.yaml share the SFT stage (seed, data, steps) and give
# the second stage the same budget (60 steps x 8 instances x K = 8 samples); on other problems the
# GRPO recipe runs on the data, model and text style of that problem's SFT run (train_models.sh). To
# start GRPO from BOPO's own SFT checkpoint exactly: falcon_train configs/grpo_tsp.yaml init.checkpoint=runs/bopo_tsp/checkpoints/step_1200
#   init.start_stage=1 tokenizer.path=runs/bopo_tsp/tokenizer.model (as configs/sweeps/bopo_tsp_beta.yaml does).
#   experiments/fig_bopo_vs_grpo/run.sh                  # SCALE=small: runs/{bopo,grpo}_<p>/final
#   SCALE=paper experiments/fig_bopo_vs_grpo/run.sh
#   experiments/fig_bopo_vs_grpo/run.sh --collect-only   # redraw from what is on disk
source "$(dirname "$0")/../common/lib.sh"
P=$(problems_of "tsp op cvrp mis mvc pfsp jssp")
T=experiments/common/problems.sweep.yaml
if [ "$COLLECT_ONLY" = 0 ]; then
  need_program tools/falcon_eval
  need_models bopo $P
  need_models grpo $P
  need_data $P
  stop_if_missing
  run_sweep fig_bopo $T experiments/fig_bopo_vs_grpo/eval.yaml bopo $P
  run_sweep fig_grpo $T experiments/fig_bopo_vs_grpo/eval.yaml grpo $P
fi
build_results fig_bopo_vs_grpo
finish
