#!/usr/bin/env bash
# The small Table 1 from the released models (models/<p>/), without training: for each release,
# its held-out test split made again (falcon_datagen of the card's data config, the other splits cut
# to one instance: the generator is seeded per split and index, so the test instances are the same),
# then configs/eval/release_<p>.yaml (the model alone, FALCON, the heuristic sampler, the simple
# heuristic, repair alone) on its first LIMIT instances; results.md gathers the rows, and each
# problem's eval is kept as a point of experiments/points/small/table1_released, the released
# models' rows of Table 1 (small): experiments/table1_main/run.sh --collect-only puts them there.
# JOBS problems run at once, one thread each, the slowest first. MVC's adaptive rows cost the most
# (29 minutes of one thread for 100 instances), so MVC takes its first LIMIT_MVC instances. The
# seven took 18m52s on the 2-core machine with nothing else running (MVC's lane 12 minutes).
#   experiments/release_table/run.sh                  # LIMIT=100, LIMIT_MVC=50, JOBS=2
#   LIMIT=200 LIMIT_MVC=200 experiments/release_table/run.sh   # all 200: the cards' own figures
#   PROBLEMS="tsp cvrp" experiments/release_table/run.sh   # the others keep their archived lines
#   experiments/release_table/run.sh --collect-only   # rebuild results.md from runs/release_table
set -euo pipefail
cd "$(dirname "$0")/../.."
LIMIT=${LIMIT:-100}
LIMIT_MVC=${LIMIT_MVC:-50}
JOBS=${JOBS:-2}
BUILD=${BUILD:-build}
RUNS=runs/release_table
COLLECT_ONLY=0
[ "${1:-}" = --collect-only ] && COLLECT_ONLY=1
# models/all (one model of several problems) has its own card and config: configs/eval/release_all.yaml.
released=$(for f in models/*/release.json; do basename "$(dirname "$f")"; done | grep -vx all)
PROBLEMS=${PROBLEMS:-$released}

run_one() {  # problem: its test split, then its release eval, one thread
  local p=$1 limit=$LIMIT start
  [ "$p" = mvc ] && limit=$LIMIT_MVC
  start=$(date +%s)
  mkdir -p "$RUNS/$p"
  BUILD=$BUILD experiments/common/release_test_split.sh "$p" "$limit" "$RUNS/$p/test.h5" > "$RUNS/$p/datagen.log" 2>&1 ||
    { echo "release_table: $p: falcon_datagen failed (its log: $RUNS/$p/datagen.log)" >&2; return 1; }
  "$BUILD/tools/falcon_eval" "configs/eval/release_$p.yaml" data.dataset="$RUNS/$p/test.h5" data.limit="$limit" \
    output_dir="$RUNS/$p/eval" threads=1 > "$RUNS/$p/eval.log" 2>&1 ||
    { echo "release_table: $p: falcon_eval failed (its log: $RUNS/$p/eval.log)" >&2; return 1; }
  echo $(( $(date +%s) - start )) > "$RUNS/$p/seconds"
  echo "release_table: $p done in $(cat "$RUNS/$p/seconds") s ($limit instances)" >&2
}

if [ "$COLLECT_ONLY" = 0 ]; then
  for program in "$BUILD/datagen/falcon_datagen" "$BUILD/tools/falcon_eval"; do
    [ -x "$program" ] || { echo "release_table: $program is missing: build it first (tools/build.sh $BUILD)" >&2; exit 2; }
  done
  for p in $PROBLEMS; do
    [ -f "models/$p/release.json" ] || { echo "release_table: no release at models/$p (released: $released)" >&2; exit 2; }
    [ -f "configs/eval/release_$p.yaml" ] || { echo "release_table: configs/eval/release_$p.yaml is missing" >&2; exit 2; }
  done
  # The slowest first, so the lanes end together.
  ordered=$(for p in mvc jssp pfsp op cvrp mis tsp $PROBLEMS; do echo "$PROBLEMS" | tr ' ' '\n' | grep -qx "$p" && echo "$p"; done | awk '!seen[$0]++')
  failed=0
  for p in $ordered; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || failed=1; done
    run_one "$p" &
  done
  while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
  [ "$failed" = 0 ] || { echo "release_table: a problem failed (above); results.md not rebuilt" >&2; exit 1; }
fi
python3 experiments/release_table/collect.py --runs "$RUNS" --out experiments/release_table/results.md \
  --archive experiments/points/small \
  --command "$( [ "$LIMIT" = 100 ] || printf 'LIMIT=%s ' "$LIMIT")$( [ "$LIMIT_MVC" = 50 ] || printf 'LIMIT_MVC=%s ' "$LIMIT_MVC")experiments/release_table/run.sh"
