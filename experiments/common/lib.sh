# Sourced by experiments/*/run.sh: the scale switch, the checks that name what is missing, and
# one sweep run from a template. Environment (all optional):
#   SCALE=small|paper  small (default): the CPU recipes' models runs/<recipe>_<p>/final and the
#                      dataset configs/sft_<p>.yaml trains on (data/op20.h5, ...);
#                      paper: runs/paper/<recipe>_<p>/final and data/<p>_paper.h5
#   PROBLEMS="tsp cvrp"  only these of the table's problems (default: all of them)
#   THREADS=1          falcon_eval / falcon_datagen threads (default 0 = every core)
#   LIMIT=20           the first LIMIT test instances of each problem (default 0 = all of them)
#   SKIP_MISSING=1     run the points whose models exist and leave the others "not run" (each
#                      one skipped is named), instead of stopping before anything runs
#   SWEEPS="table1_falcon_all"  run only these of the run.sh's sweeps; the others' points stay as
#                      they are and the tables still read them (RUNS, then ARCHIVE). Add SKIP_MISSING=1
#                      when the models of the sweeps left out are not there
#   BUILD=build        where the programs are (e.g. BUILD=/path/to/build)
#   MODELS, RUNS       the models' root and the sweeps' root (defaults above, runs/experiments/SCALE)
#   ARCHIVE            where each finished point is kept in the repository (default
#                      experiments/points/SCALE; archive_points.py): the tables read RUNS, then ARCHIVE,
#                      so problems run at different times (or on different machines) fill one table
# Argument of run.sh: --collect-only rebuilds the results from what is on disk and runs nothing.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"  # every path in the configs and sweeps is relative to the repository root

EXP=$(basename "$(dirname "$0")")          # e.g. table1_main: names this experiment in messages
SCALE=${SCALE:-small}
BUILD=${BUILD:-build}
THREADS=${THREADS:-0}
LIMIT=${LIMIT:-0}
case "$LIMIT" in ''|*[!0-9]*) echo "$EXP: LIMIT=$LIMIT: give a count of test instances (0 = all)" >&2; exit 2 ;; esac
PY=${PY:-/usr/bin/python3}                  # Debian's, where python3-yaml is (falcon_sweep needs it)
case "$SCALE" in
  small) MODELS=${MODELS:-runs}; RESULTS=results ;;
  paper) MODELS=${MODELS:-runs/paper}; RESULTS=results_paper ;;
  *) echo "$EXP: SCALE=$SCALE: give SCALE=small or SCALE=paper" >&2; exit 2 ;;
esac
DATA_PATTERN=""  # when set, every problem's test data: the path with <p> for the problem (Table 2's instances)
MORE_OVERRIDES=""  # ", key=value, ..." for every falcon_eval point of run_sweep (Table 2: data.over_context=skip)
RUNS=${RUNS:-runs/experiments/$SCALE}
ARCHIVE=${ARCHIVE:-experiments/points/$SCALE}
COLLECT_ONLY=0
case "${1:-}" in
  --collect-only) COLLECT_ONLY=1 ;;
  "") ;;
  *) echo "$EXP: unknown argument '$1' (the only one is --collect-only; settings are environment variables)" >&2; exit 2 ;;
esac
MISSING=()      # one line per missing prerequisite, printed together by stop_if_missing
SKIPPED=()      # with SKIP_MISSING=1: the missing models, named but not fatal
SKIP_MISSING=${SKIP_MISSING:-0}
SWEEP_FAILED=0
SWEEPS_REACHED=()  # the sweeps run_sweep was called for, to tell a misspelt name in SWEEPS

# The problems to run: the table's own ($1), narrowed by PROBLEMS when given.
problems_of() {
  local own=$1 p out=""
  [ -z "${PROBLEMS:-}" ] && { echo "$own"; return; }
  for p in $PROBLEMS; do
    case " $own " in
      *" $p "*) out="$out $p" ;;
      *) echo "$EXP: PROBLEMS names '$p', which this experiment does not have (it has: $own)" >&2; exit 2 ;;
    esac
  done
  echo "${out# }"
}

# A recipe's model for problem $2; a recipe that trains one model for every problem (bopo_all) has one folder.
model_dir() {
  case "$1" in
    *_all) echo "$MODELS/$1/final" ;;
    *) echo "$MODELS/$1_$2/final" ;;
  esac
}

# The dataset whose test split problem $1's model rows read: at the small scale the one its SFT
# recipe trains on (configs/sft_<p>.yaml's data.config, e.g. configs/data/op20.yaml -> data/op20.h5),
# so each model is measured on instances like those it learned from; at the paper's, data/<p>_paper.h5.
data_file() {
  local p=$1 stem
  [ -n "$DATA_PATTERN" ] && { echo "${DATA_PATTERN//<p>/$p}"; return; }
  if [ "$SCALE" = paper ]; then echo "data/${p}_paper.h5"; return; fi
  stem=$(sed -n 's|^  config: configs/data/\([A-Za-z0-9_]*\)\.yaml.*$|\1|p' "configs/sft_$p.yaml" 2>/dev/null | head -n 1)
  echo "data/${stem:-$p}.h5"
}

# What to do about a missing model of recipe $1 for problem $2 at this scale: the falcon_train command.
train_hint() {
  local recipe=$1 p=$2 base=$1_$2 extra=""
  case "$recipe" in *_all) base=$recipe ;; esac  # configs/bopo_all.yaml: one run for every problem
  # GRPO / FOARL recipes exist for TSP only; their stage on another problem's SFT model is that baseline.
  case "$recipe" in grpo|foarl) base=${recipe}_tsp; [ "$p" != tsp ] && extra=" data.config=configs/data/$p.yaml" ;; esac
  if [ "$SCALE" = paper ]; then
    local data="data.config=configs/data/${p}_paper.yaml"
    # One model for all seven reads every problem's data, in the order of its data.weights.
    case "$recipe" in *_all)
      local q files=()
      for q in tsp op cvrp mis mvc pfsp jssp; do files+=("configs/data/${q}_paper.yaml"); done
      data="'data.config=[$(IFS=,; echo "${files[*]}")]'" ;;
    esac
    echo "train it at the paper's scale first: falcon_train configs/$base.yaml $data output_dir=$(dirname "$(model_dir "$recipe" "$p")") with the paper's model and stage settings (docs/training.md)"
  elif [ -n "$extra" ]; then  # the stage from runs/sft_<p>, in that model's shape, text and data
    echo "run PROBLEMS=$p RECIPES=\"sft $recipe\" MODELS=$MODELS experiments/common/train_models.sh first (the $recipe stage from $MODELS/sft_$p)"
  elif [ "$MODELS" != runs ]; then
    echo "run falcon_train configs/$base.yaml output_dir=$(dirname "$(model_dir "$recipe" "$p")") first"
  else
    echo "run falcon_train configs/$base.yaml first"
  fi
}

need_program() {  # $1: path under BUILD
  [ -x "$BUILD/$1" ] || MISSING+=("no program at $BUILD/$1: build the project (tools/build.sh build) or set BUILD=<build folder>")
}

need_models() {  # $1 recipe, then problems
  local recipe=$1 p; shift
  for p in "$@"; do
    [ -f "$(model_dir "$recipe" "$p")/config.json" ] && continue
    if [ "$SKIP_MISSING" = 1 ]; then
      SKIPPED+=("no trained model at $(model_dir "$recipe" "$p"), its points not run: $(train_hint "$recipe" "$p")")
    else
      MISSING+=("no trained model at $(model_dir "$recipe" "$p"): $(train_hint "$recipe" "$p")")
    fi
  done
}

need_data() {  # problems; the test split every model row reads
  local p f
  for p in "$@"; do
    f=$(data_file "$p")
    [ -f "$f" ] || MISSING+=("no dataset at $f: run falcon_datagen configs/data/$(basename "$f" .h5).yaml first (falcon_train makes it on first use)")
  done
}

stop_if_missing() {
  local line
  for line in "${SKIPPED[@]}"; do echo "$EXP: skipped: $line" >&2; done
  [ ${#MISSING[@]} -eq 0 ] && return 0
  for line in "${MISSING[@]}"; do echo "$EXP: $line" >&2; done
  [ "$SCALE" = small ] && [ "$MODELS" = runs ] && printf '%s\n' "${MISSING[@]}" | grep -q "no trained model" &&
    echo "$EXP: (experiments/common/train_models.sh trains every model the tables read at this scale)" >&2
  exit 1
}

# The threads a sweep runs with: those it was started with, when it was. falcon_sweep refuses
# points whose overrides changed, and threads change only the times, which compare only at one
# setting anyway; so a later run with another THREADS (fig_repair after Table 1) keeps the first.
sweep_threads() {
  local old
  old=$(sed -n 's/^overrides: \[threads=\([0-9]*\)[],].*$/\1/p' "$1/sweep.yaml" 2>/dev/null || true)
  if [ -n "$old" ] && [ "$old" != "$THREADS" ]; then
    echo "$EXP: $1 was started with THREADS=$old and keeps it (delete that folder to start it over)" >&2
    echo "$old"
  else
    echo "$THREADS"
  fi
}

# run_sweep NAME TEMPLATE EVAL RECIPE PROBLEMS...: fill the template into RUNS/NAME/sweep.yaml and
# run its points for these problems. falcon_sweep skips points already done, so rerunning resumes,
# and two experiments that name the same sweep (fig_repair reads table1_falcon) share its points.
# RECIPE "-": solver rows only; the template names no model (no MODEL_<p>) and every point runs.
run_sweep() {
  local name=$1 template=$2 eval=$3 recipe=$4; shift 4
  local out=$RUNS/$name p have=()
  SWEEPS_REACHED+=("$name")
  if [ -n "${SWEEPS:-}" ] && [[ " $SWEEPS " != *" $name "* ]]; then
    echo "$EXP: sweep $name: not in SWEEPS, its points left as they are" >&2
    return 0
  fi
  if [ "$SKIP_MISSING" = 1 ] && [ "$recipe" != - ]; then  # only the problems whose model is there (need_models named the rest)
    for p in "$@"; do [ -f "$(model_dir "$recipe" "$p")/config.json" ] && have+=("$p"); done
    [ ${#have[@]} -eq 0 ] && { echo "$EXP: sweep $name: no $recipe model of $*, nothing to run" >&2; return 0; }
    set -- "${have[@]}"
  fi
  local data=() q
  for q in tsp op cvrp mis mvc pfsp jssp; do
    data+=("DATA_$q=$(data_file $q)")
    [ "$recipe" = - ] || data+=("MODEL_$q=$(model_dir "$recipe" $q)")
  done
  "$PY" experiments/common/expand_sweep.py "$template" "$out/sweep.yaml" BUILD="$BUILD" EVAL="$eval" OUT="$out" \
    THREADS="$(sweep_threads "$out")" LIMIT="$LIMIT" "${data[@]}" MORE_OVERRIDES="$MORE_OVERRIDES"
  echo "$EXP: sweep $name ($*): $out" >&2
  # A failed point does not stop the others or the table; the table shows it as failed.
  "$PY" tools/falcon_sweep.py "$out/sweep.yaml" --only "$@" >/dev/null || SWEEP_FAILED=1
  "$PY" experiments/common/archive_points.py "$RUNS" "$ARCHIVE" "$name" || SWEEP_FAILED=1
}

# mark_not_available SWEEP POINT REASON: a point this run.sh does not run for the models it has,
# kept with the archived points so that the table says "not available" there and its Runs list
# gives REASON (one line); a later run of the point, once archived, replaces the mark.
mark_not_available() {
  mkdir -p "$ARCHIVE/$1/$2" && printf '%s\n' "$3" > "$ARCHIVE/$1/$2/not_available"
}

# build_results KEY [SCALE_TEXT]: results.{md,tex,csv} of this experiment (results_paper.* at
# SCALE=paper). The command written into them carries the settings that change the numbers:
# SCALE, PROBLEMS, THREADS (times), LIMIT and the run.sh's own (EXTRA_ENV, e.g. Table 2's ROWS).
build_results() {
  local key=$1 scale_text=${2:-$SCALE} command="" v
  for v in SCALE PROBLEMS THREADS LIMIT ${EXTRA_ENV:-}; do
    [ -z "${!v:-}" ] && continue
    case "$v" in THREADS|LIMIT) [ "${!v}" = 0 ] && continue ;; esac
    case "${!v}" in *" "*) command+="$v=\"${!v}\" " ;; *) command+="$v=${!v} " ;; esac
  done
  command+="experiments/$EXP/run.sh"
  "$PY" experiments/common/build_results.py "$key" --runs "$RUNS" --runs "$ARCHIVE" --out "experiments/$EXP/$RESULTS" \
    --scale "$scale_text" --command "$command"
}

finish() {
  local s
  for s in ${SWEEPS:-}; do
    [ "$COLLECT_ONLY" = 1 ] || [[ " ${SWEEPS_REACHED[*]} " == *" $s "* ]] ||
      { echo "$EXP: SWEEPS names '$s', which this run did not come to (it came to: ${SWEEPS_REACHED[*]:-none})" >&2; exit 2; }
  done
  [ "$SWEEP_FAILED" -eq 0 ] && return 0
  echo "$EXP: some points failed (their log.txt under $RUNS says why); rerun the same command to retry them" >&2
  exit 1
}
