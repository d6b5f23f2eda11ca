#!/usr/bin/env bash
# Adaptive Best-of-N on the released models (models/<p>): eval.yaml's rows on each release's first
# LIMIT held-out test instances, one thread; each problem's summary goes to
# experiments/adaptive_savings/<p>.md. A problem already run is only copied again.
#   experiments/adaptive_savings/run.sh                       # PROBLEMS="tsp jssp op mis", LIMIT=100
#   PROBLEMS=mis LIMIT=50 experiments/adaptive_savings/run.sh
#   CONFIG=copies.yaml PROBLEMS=tsp experiments/adaptive_savings/run.sh   # copies.yaml's rows: tsp_copies.md
#   experiments/adaptive_savings/run.sh --collect-only        # only the copies of what has run
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
LIMIT=${LIMIT:-100}
PROBLEMS=${PROBLEMS:-tsp jssp op mis}
CONFIG=${CONFIG:-eval.yaml}
RUNS=runs/adaptive_savings
here=experiments/adaptive_savings
[ -f "$here/$CONFIG" ] || { echo "adaptive_savings: no $here/$CONFIG (eval.yaml or copies.yaml)" >&2; exit 2; }
suffix=$([ "$CONFIG" = eval.yaml ] || echo "_${CONFIG%.yaml}")
for p in $PROBLEMS; do
  [ -f "models/$p/release.json" ] || { echo "adaptive_savings: no release at models/$p" >&2; exit 2; }
  out=$RUNS/$p$suffix
  if [ "${1:-}" != --collect-only ] && [ ! -f "$out/summary.md" ]; then
    mkdir -p "$out"
    BUILD=$BUILD experiments/common/release_test_split.sh "$p" "$LIMIT" "$out/test.h5" > "$out/datagen.log" 2>&1 ||
      { echo "adaptive_savings: $p: falcon_datagen failed (its log: $out/datagen.log)" >&2; exit 1; }
    "$BUILD/tools/falcon_eval" "$here/$CONFIG" model.path="models/$p" data.dataset="$out/test.h5" \
      data.limit="$LIMIT" output_dir="$out/eval" threads=1
    cp "$out/eval/summary.md" "$out/summary.md"
  fi
  [ -f "$out/summary.md" ] || { echo "adaptive_savings: $p has no summary at $out (run it without --collect-only)" >&2; continue; }
  { echo "# $p: adaptive Best-of-N on the released model (models/$p, the first $LIMIT test instances)"; echo
    echo "Command: \`CONFIG=$CONFIG PROBLEMS=$p LIMIT=$LIMIT experiments/adaptive_savings/run.sh\` (the rows and why: $CONFIG)."; echo
    cat "$out/summary.md"; } > "$here/$p$suffix.md"
done
