#!/usr/bin/env bash
# Kill -9 campaigns: falcon_datagen and falcon_train are killed with SIGKILL, KILLS times each,
# and rerun with the same command until they finish; then each result is compared with an
# uninterrupted run of the same config:
#   datagen   the dataset verifies (falcon_datagen --info) and holds the uninterrupted run's
#             records, each once, equal field by field (compare_datasets.py);
#   training  final/model.safetensors equals the uninterrupted run's byte for byte (CPU).
# Every other kill lands at a random moment (0.05-2 s after the start), the others as soon as the process
# is seen writing (it holds open a dataset consolidation's OUTPUT.tmp, or a file of a checkpoint's
# step_N.tmp-PID folder: /proc/PID/fd), polling every few milliseconds, or at 20 s if it is never
# seen writing. Each kill is logged with whether the process had such a file open at that moment.
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
writing() { ls -l "/proc/$1/fd" 2> /dev/null | grep -q -- "$2"; }  # PID has a file open whose path holds NEEDLE

# run_killed NAME WRITE_NEEDLE COMMAND...: COMMAND killed `kills` times, then run to its end.
run_killed() {
  local name=$1 needle=$2
  shift 2
  local k=0 during_write=0 hit rc pid
  while true; do
    "$@" >> "$out/$name.log" 2>&1 &
    pid=$!
    if [ $k -lt "$kills" ]; then
      if [ $((k % 2)) -eq 1 ]; then
        for ((t = 0; t < 4000; t++)); do
          writing $pid "$needle" && break
          kill -0 $pid 2> /dev/null || break
          sleep 0.005
        done
      else
        sleep "$(random_delay)"
      fi
      if kill -0 $pid 2> /dev/null; then
        hit=0
        writing $pid "$needle" && hit=1
        kill -9 $pid
        wait $pid 2> /dev/null || true
        k=$((k + 1))
        during_write=$((during_write + hit))
        echo "$name: kill $k, $([ $hit = 1 ] && echo "while writing ($needle open)" || echo "not writing")" >> "$log"
        continue
      fi
    fi
    rc=0
    wait $pid || rc=$?
    [ $rc = 0 ] && break
    echo "$name: exit $rc without a kill; see $out/$name.log" | tee -a "$log"
    exit 1
  done
  echo "$name: $k kills ($during_write while writing), then finished" | tee -a "$log"
}

# --- datagen ---
data=$out/datagen/tsp20.h5
mkdir -p "$out/datagen"
"$bin/datagen/falcon_datagen" --quiet $here/kill_datagen.yaml output="$out/datagen/reference.h5"
run_killed datagen "tsp20.h5.tmp" "$bin/datagen/falcon_datagen" --quiet $here/kill_datagen.yaml output="$data"
"$bin/datagen/falcon_datagen" --info "$data" | tee -a "$log"
/usr/bin/python3 $here/compare_datasets.py "$out/datagen/reference.h5" "$data" | tee -a "$log"

# --- training ---
train=$out/train
"$bin/tools/falcon_train" $here/kill_train.yaml output_dir="$train/reference" > "$out/train_reference.log" 2>&1
resume() {  # run in the background: exec, so that the kill reaches falcon_train itself
  exec "$@" --resume  # from the last checkpoint, or from step 0 before the first
}
run_killed train ".tmp-" \
  resume "$bin/tools/falcon_train" $here/kill_train.yaml output_dir="$train/killed"
if cmp "$train/reference/final/model.safetensors" "$train/killed/final/model.safetensors"; then
  echo "training: final/model.safetensors is byte for byte the uninterrupted run's" | tee -a "$log"
else
  echo "training: final/model.safetensors DIFFERS from the uninterrupted run's" | tee -a "$log"
  exit 1
fi
