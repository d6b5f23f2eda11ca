#!/usr/bin/env bash
# Kill -9 campaigns: falcon_datagen and falcon_train are killed with SIGKILL, KILLS times each,
# and rerun with the same command until they finish; then each result is compared with an
# uninterrupted run of the same config:
#   datagen   the dataset verifies (falcon_datagen --info) and holds the uninterrupted run's
#             records, each once, equal field by field (compare_datasets.py);
#   training  final/model.safetensors equals the uninterrupted run's byte for byte (CPU).
# Odd kills land at a random moment (0.05-2 s after the start); even kills as soon as a write is
# seen under way (a dataset consolidation's OUTPUT.tmp, a checkpoint's step_N.tmp-PID), polling
# every few milliseconds, or at 20 s if none is seen. Each kill is logged with what it hit.
#   experiments/reliability/kill_resume.sh [KILLS]      (default 20)
# BIN (build folder) comes from the environment; the work folder is runs/kill_resume (the
# configs name it).
# One thread per program: it may run beside one other one-thread job.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${BIN:-build}
out=runs/kill_resume
kills=${1:-20}
here=experiments/reliability
rm -rf "$out"
mkdir -p "$out"
log=$out/campaign.log

random_delay() { awk -v s="$RANDOM$RANDOM" 'BEGIN { srand(s); printf "%.3f", 0.05 + 1.95 * rand() }'; }
writing() { compgen -G "$1" > /dev/null; }  # a path matching the glob exists

# run_killed NAME WRITE_GLOB COMMAND...: COMMAND killed `kills` times, then run to its end.
run_killed() {
  local name=$1 pattern=$2
  shift 2
  local k=0 during_write=0 hit rc pid
  while true; do
    "$@" >> "$out/$name.log" 2>&1 &
    pid=$!
    if [ $k -lt "$kills" ]; then
      if [ $((k % 2)) -eq 1 ]; then
        for ((t = 0; t < 4000; t++)); do
          writing "$pattern" && break
          kill -0 $pid 2> /dev/null || break
          sleep 0.005
        done
      else
        sleep "$(random_delay)"
      fi
      if kill -0 $pid 2> /dev/null; then
        hit=0
        writing "$pattern" && hit=1
        kill -9 $pid
        wait $pid 2> /dev/null || true
        k=$((k + 1))
        during_write=$((during_write + hit))
        echo "$name: kill $k, $([ $hit = 1 ] && echo "during a write ($(compgen -G "$pattern" | head -1))" || echo "no write under way")" >> "$log"
        continue
      fi
    fi
    rc=0
    wait $pid || rc=$?
    [ $rc = 0 ] && break
    echo "$name: exit $rc without a kill; see $out/$name.log" | tee -a "$log"
    exit 1
  done
  echo "$name: $k kills ($during_write during a write), then finished" | tee -a "$log"
}

# --- datagen ---
data=$out/datagen/tsp20.h5
mkdir -p "$out/datagen"
"$bin/datagen/falcon_datagen" --quiet $here/kill_datagen.yaml output="$out/datagen/reference.h5"
run_killed datagen "$data.tmp" "$bin/datagen/falcon_datagen" --quiet $here/kill_datagen.yaml output="$data"
"$bin/datagen/falcon_datagen" --info "$data" | tee -a "$log"
/usr/bin/python3 $here/compare_datasets.py "$out/datagen/reference.h5" "$data" | tee -a "$log"

# --- training ---
train=$out/train
"$bin/tools/falcon_train" $here/kill_train.yaml output_dir="$train/reference" > "$out/train_reference.log" 2>&1
resume() {  # run in the background: exec, so that the kill reaches falcon_train itself
  local dir=$1
  shift
  if [ -e "$dir/checkpoints/latest" ]; then exec "$@" --resume; else exec "$@"; fi
}
run_killed train "$train/killed/checkpoints/step_*.tmp-*" \
  resume "$train/killed" "$bin/tools/falcon_train" $here/kill_train.yaml output_dir="$train/killed"
if cmp "$train/reference/final/model.safetensors" "$train/killed/final/model.safetensors"; then
  echo "training: final/model.safetensors is byte for byte the uninterrupted run's" | tee -a "$log"
else
  echo "training: final/model.safetensors DIFFERS from the uninterrupted run's" | tee -a "$log"
  exit 1
fi
