#!/usr/bin/env bash
# Threads on a shared machine: SFT steps/s of the learning-curve recipe with 2 threads quiet, and
# beside one busy process (`yes`) with OpenMP's default and passive waits, and with 1 thread
# beside it and quiet. Each run trains for 100 s; the rate is taken after its first logged step.
# Needs data/tsp20.h5 and a trained tokenizer (TOKENIZER=..., default seed 2's run).
#   experiments/learning_curves/threads.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tokenizer=${TOKENIZER:-runs/curves/compact_k4_seed2/tokenizer.model}
out=${OUT:-runs/threads}
run() {  # name threads wait_policy busy
  local dir=$out/$1; rm -rf $dir; mkdir -p $dir
  local busy_pid=""
  [ "$4" = busy ] && { yes > /dev/null & busy_pid=$!; }
  env ${3:+OMP_WAIT_POLICY=$3} timeout 100 build/tools/falcon_train experiments/learning_curves/sft_tsp20.yaml output_dir=$dir \
    threads=$2 tokenizer.path=$tokenizer 'stages[0].steps=400' logging.every=10 checkpoint.every=0 \
    > $dir/log 2>&1 || true  # stopped by the timeout, as meant
  if [ -n "$busy_pid" ]; then kill $busy_pid; fi
  /usr/bin/python3 - "$dir/metrics.jsonl" "$1" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"step"' in l]
if len(rows) < 3:  # too slow to log twice: the progress line's own rate
    bars = [l for l in open(sys.argv[1].replace("metrics.jsonl", "log")) if l.startswith("sft ")]
    print(f"{sys.argv[2]}: fewer than 3 logged steps; progress line: {bars[-1].strip() if bars else 'none'}")
    sys.exit()
a, b = rows[1], rows[-1]  # skip the first interval (warmup, allocation)
print(f"{sys.argv[2]}: {(b['step'] - a['step']) / (b['time'] - a['time']):.2f} steps/s over steps {a['step']}-{b['step']}")
PY
}
run quiet_2t 2 "" quiet
run busy_2t_default 2 "" busy
run busy_2t_passive 2 PASSIVE busy
run busy_1t 1 "" busy
run quiet_1t 1 "" quiet
