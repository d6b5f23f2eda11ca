#!/usr/bin/env bash
# Table 1 (tab:main_results_llm): SFT only, GRPO, LLMCoSolver-style SFT + FOARL (N=1, N=8) and
# FALCON N=1 / N=8 / adaptive on the seven problems; the hosted-LLM rows are quoted from the paper.
# Rows of ours: each problem's simple heuristic and repair of an empty answer (no model), the bar
# a FALCON row must clear, and the one model for all seven problems. The released models' rows (the
# model alone, FALCON, and the model-free heuristic sampler: sweep table1_released) come from
# experiments/release_table/run.sh, which needs no training; --collect-only puts them here.
#   experiments/table1_main/run.sh                    # SCALE=small: the CPU recipes' models
#   SCALE=paper experiments/table1_main/run.sh        # models under runs/paper/
#   PROBLEMS="tsp cvrp" THREADS=1 experiments/table1_main/run.sh
#   experiments/table1_main/run.sh --collect-only     # rebuild results.* from what is on disk
# Needs per problem p: runs/{sft,grpo,foarl,bopo}_<p>/final (it names the falcon_train command
# for each one missing) and data/<p>.h5; the one-model rows (ours) run when runs/bopo_all/final
# exists. Settings: experiments/common/lib.sh.
source "$(dirname "$0")/../common/lib.sh"
P=$(problems_of "tsp op cvrp mis mvc pfsp jssp")
T=experiments/common/problems.sweep.yaml
if [ "$COLLECT_ONLY" = 0 ]; then
  need_program tools/falcon_eval
  for recipe in sft grpo foarl bopo; do need_models $recipe $P; done
  need_data $P
  stop_if_missing
  run_sweep table1_sft $T experiments/table1_main/eval_sft.yaml sft $P
  run_sweep table1_grpo $T experiments/table1_main/eval_grpo.yaml grpo $P
  run_sweep table1_foarl $T experiments/table1_main/eval_foarl.yaml foarl $P
  run_sweep table1_falcon $T experiments/table1_main/eval_falcon.yaml bopo $P
  # Rows of ours: the one model for all seven problems (configs/bopo_all.yaml), when it is trained.
  if [ -f "$(model_dir bopo_all tsp)/config.json" ]; then
    run_sweep table1_falcon_all $T experiments/table1_main/eval_falcon.yaml bopo_all $P
  else
    echo "$EXP: the one-model rows not run: no trained model at $(model_dir bopo_all tsp): $(train_hint bopo_all tsp)" >&2
  fi
  run_sweep table1_repair $T experiments/table1_main/eval_repair.yaml bopo $P  # solver rows: instant
  run_sweep table1_heuristic experiments/table1_main/heuristic.sweep.yaml experiments/table1_main/eval_heuristic.yaml - $P  # no model
fi
build_results table1
finish
