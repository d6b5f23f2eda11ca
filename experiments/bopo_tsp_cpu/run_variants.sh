#!/usr/bin/env bash
# BOPO options on the default TSP recipe, each started from the SAME SFT checkpoint so only the
# BOPO stage differs. Needs a finished base run (its SFT checkpoint and tokenizer):
#   build/tools/falcon_train configs/bopo_tsp.yaml output_dir=/tmp/bopo_full
#   experiments/bopo_tsp_cpu/run_variants.sh /tmp/bopo_full [out_dir] [extra overrides...]
# Prints one row per variant (python3 table.py reads the summaries). About 3-6 minutes a variant.
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:?usage: run_variants.sh BASE_RUN_DIR [OUT_DIR] [overrides...]}
out=${2:-/tmp/bopo_variants}
shift $(( $# >= 2 ? 2 : 1 ))
sft_steps=$(python3 -c "import json;print([s for s in json.load(open('$base/summary.json')) if s['type']=='sft'][-1]['steps'])")
start=(tokenizer.path="$base/tokenizer.model" init.checkpoint="$base/checkpoints/step_$sft_steps" init.start_stage=1)

declare -A variants=(
  [repair]="stages[1].rollout.repair=true"
  [repair_sft1]="stages[1].rollout.repair=true stages[1].sft_weight=1.0"
  [repair_lr1e-3]="stages[1].rollout.repair=true stages[1].lr=1.0e-3"
  [repair_sft1_lr1e-3]="stages[1].rollout.repair=true stages[1].sft_weight=1.0 stages[1].lr=1.0e-3"
)
for name in $(printf '%s\n' "${!variants[@]}" | sort); do
  [ -f "$out/$name/summary.json" ] && { echo "skip $name (done)"; continue; }
  echo "== $name: ${variants[$name]}"
  # shellcheck disable=SC2086
  build/tools/falcon_train configs/bopo_tsp.yaml output_dir="$out/$name" "${start[@]}" ${variants[$name]} --resume "$@"
done
python3 experiments/bopo_tsp_cpu/table.py "$base" "$out"/*/
