#!/usr/bin/env bash
# Adaptive Best-of-N when the samples agree: eval.yaml's rows on each problem's table BOPO model
# (runs/bopo_<p>/final), the first 100 held-out instances; each problem's summary is copied to
# experiments/adaptive_agreement/<p>.md. A problem already run is only copied again.
#   PROBLEMS="cvrp tsp" THREADS=1 experiments/adaptive_agreement/run.sh
#   experiments/adaptive_agreement/run.sh --collect-only   # only the copies of what has run
# Settings: experiments/common/lib.sh (PROBLEMS, THREADS, BUILD, MODELS).
source "$(dirname "$0")/../common/lib.sh"
P=$(problems_of "tsp op cvrp mis mvc pfsp jssp")
if [ "$COLLECT_ONLY" = 0 ]; then
  need_program tools/falcon_eval
  need_models bopo $P
  need_data $P
  stop_if_missing
fi
for p in $P; do
  model=$(model_dir bopo "$p") out=runs/adaptive_agreement/$p
  if [ "$COLLECT_ONLY" = 0 ] && [ ! -f "$out/summary.md" ]; then
    "$BUILD/tools/falcon_eval" experiments/adaptive_agreement/eval.yaml model.path="$model" \
      data.dataset="$(data_file "$p")" threads="$THREADS" output_dir="$out"
  fi
  [ -f "$out/summary.md" ] || { echo "$EXP: $p has no summary at $out (run it without --collect-only)" >&2; continue; }
  { echo "# $p: adaptive Best-of-N when the samples agree ($model, the first 100 test instances)"; echo
    echo "Command: \`PROBLEMS=$p THREADS=1 experiments/adaptive_agreement/run.sh\` (the rows and why: eval.yaml)."; echo
    cat "$out/summary.md"; } > "experiments/adaptive_agreement/$p.md"
done
