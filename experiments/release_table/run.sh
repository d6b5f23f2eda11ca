#!/usr/bin/env bash
# The small Table 1 from the released models (models/<p>/), without training: for each release,
# its held-out test split made again (falcon_datagen of the card's data config, the other splits cut
# to one instance: the generator is seeded per split and index, so the test instances are the same),
# then configs/eval/release_<p>.yaml (the model alone, FALCON, the heuristic sampler, the simple
# heuristic, repair alone) on its first LIMIT instances; results.md gathers the rows.
#   experiments/release_table/run.sh                  # LIMIT=100, THREADS=2; one thread a problem
#                                                     # took 25 minutes for six, MVC alone 29
#   LIMIT=200 experiments/release_table/run.sh        # all 200: the cards' own figures
#   PROBLEMS="tsp cvrp" experiments/release_table/run.sh
#   experiments/release_table/run.sh --collect-only   # rebuild results.md from runs/release_table
set -euo pipefail
cd "$(dirname "$0")/../.."
LIMIT=${LIMIT:-100}
THREADS=${THREADS:-2}
BUILD=${BUILD:-build}
RUNS=runs/release_table
COLLECT_ONLY=0
[ "${1:-}" = --collect-only ] && COLLECT_ONLY=1
released=$(for f in models/*/release.json; do basename "$(dirname "$f")"; done)
PROBLEMS=${PROBLEMS:-$released}

if [ "$COLLECT_ONLY" = 0 ]; then
  for program in "$BUILD/datagen/falcon_datagen" "$BUILD/tools/falcon_eval"; do
    [ -x "$program" ] || { echo "release_table: $program is missing: build it first (tools/build.sh $BUILD)" >&2; exit 2; }
  done
  for p in $PROBLEMS; do
    [ -f "models/$p/release.json" ] || { echo "release_table: no release at models/$p (released: $released)" >&2; exit 2; }
    [ -f "configs/eval/release_$p.yaml" ] || { echo "release_table: configs/eval/release_$p.yaml is missing" >&2; exit 2; }
    data_config=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['data'])" "models/$p/release.json")
    start=$(date +%s)
    mkdir -p "$RUNS/$p"
    "$BUILD/datagen/falcon_datagen" "$data_config" output="$RUNS/$p/test.h5" threads="$THREADS" \
      splits.train.count=1 splits.val.count=1 splits.test.count="$LIMIT" > "$RUNS/$p/datagen.log" 2>&1 ||
      { echo "release_table: $p: falcon_datagen failed (its log: $RUNS/$p/datagen.log)" >&2; exit 1; }
    "$BUILD/tools/falcon_eval" "configs/eval/release_$p.yaml" data.dataset="$RUNS/$p/test.h5" data.limit="$LIMIT" \
      output_dir="$RUNS/$p/eval" threads="$THREADS" > "$RUNS/$p/eval.log" 2>&1 ||
      { echo "release_table: $p: falcon_eval failed (its log: $RUNS/$p/eval.log)" >&2; exit 1; }
    echo "release_table: $p done in $(( $(date +%s) - start )) s" >&2
  done
fi
python3 experiments/release_table/collect.py --runs "$RUNS" --out experiments/release_table/results.md \
  --command "$( [ "$LIMIT" = 100 ] || printf 'LIMIT=%s ' "$LIMIT")experiments/release_table/run.sh"
