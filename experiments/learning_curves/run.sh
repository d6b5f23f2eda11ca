#!/usr/bin/env bash
# Learning curves: which text style / lever gets a small from-scratch model off the "uniform over
# the unvisited nodes" plateau (TSP-20), and the same recipe on the other six problems. Each
# variant trains sft_tsp20.yaml (one thread, checkpoints every 250 steps) on its problem's
# dataset for MINUTES of wall time, two variants at a time; then every EVAL_EVERY-th checkpoint
# is decoded greedily on the held-out instances (grammar on, repair off and on, beside the
# problem's simple heuristic; a variant of text style compact_state, compact_ranked or compact_insert with the notes computed,
# eval_state.yaml), and curves.py writes tables.md and curves.png.
#   experiments/learning_curves/run.sh                        # paper, compact_k0, compact_k4
#   MINUTES=60 experiments/learning_curves/run.sh compact_k4  # one variant, longer
#   OUT=runs/curves_problems experiments/learning_curves/run.sh op_k4 cvrp_k4
# A variant named <problem> or <problem>_... (op, cvrp, mis, mvc, pfsp, jssp) trains on that problem's
# learning-curve dataset (configs/data/{op20,cvrp20,mis50,mvc50,pfsp20,jssp6}.yaml); the others
# on TSP-20. BIN (build folder), OUT (runs folder), CURVES_OUT (where tables.md and curves.png go,
# default OUT: pass a folder under experiments/ to update committed results), LIMIT (held-out
# instances a checkpoint is decoded on, default 200), TRAIN_ARGS and EVAL_ARGS (falcon_train and
# falcon_eval overrides, e.g. device=cuda) and PARALLEL (variants trained at once, default 2: one
# thread each on this 2-core machine) are read from the environment; tools/gpu_check.sh runs
# its variants this way on a GPU.
# Resumable: a variant with checkpoints continues from its newest (--resume) until its
# time is spent; evaluated checkpoints are not evaluated again.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${BIN:-build}
out=${OUT:-runs/curves}
minutes=${MINUTES:-45}
eval_every=${EVAL_EVERY:-250}
limit=${LIMIT:-200}
parallel=${PARALLEL:-2}
here=experiments/learning_curves
# The *_from_tsp variants start from this TSP-20 model (its weights and tokenizer), trained by
#   build/tools/falcon_train experiments/learning_curves/sft_tsp20.yaml output_dir=runs/curves/compact_k4_seed2 seed=2 'stages[0].steps=3750'
tsp_start=${TSP_START:-runs/curves/compact_k4_seed2/checkpoints/step_3750}
# mis_ranked starts from this MIS model (compact_state, degrees in the prompt), trained on a GPU for
# 6 minutes by tools/gpu_check.sh with TRAIN_VARIANTS=mis_state (docs/gpu.md, 2026-11-27)
state_start=${STATE_START:-runs/gpu_state/mis_state/checkpoints/step_4750}

problem_of() {  # variant -> its problem
  case $1 in op | op_* | cvrp | cvrp_* | mis | mis_* | mvc | mvc_* | pfsp | pfsp_* | jssp | jssp_*) echo "${1%%_*}" ;; *) echo tsp ;; esac
}
dataset_of() {  # problem -> its learning-curve dataset's config stem (configs/data/<stem>.yaml, data/<stem>.h5)
  case $1 in tsp) echo tsp20 ;; op) echo op20 ;; cvrp) echo cvrp20 ;; mis) echo mis50 ;; mvc) echo mvc50 ;;
    pfsp) echo pfsp20 ;; jssp) echo jssp6 ;; esac
}
heuristic_of() {  # problem -> its best simple heuristic (experiments/table2_heuristics)
  case $1 in tsp | cvrp) echo nearest_neighbor ;; op | mis | mvc) echo greedy ;; pfsp) echo neh ;; jssp) echo mwkr ;; esac
}

overrides() {  # the variant's changes to sft_tsp20.yaml
  case $1 in
    paper) echo "text.style=paper text.candidates=0 tokenizer.numbers=plain tokenizer.vocab_size=2000" ;;
    paper_whole) echo "text.style=paper text.candidates=0 tokenizer.numbers=whole tokenizer.vocab_size=2000" ;;
    compact_k0) echo "text.candidates=0" ;;
    compact_k4) echo "" ;;
    compact_k4_seed2) echo "seed=2" ;;
    compact_k4_aug) echo "data.augment=true" ;;
    compact_k4_bf16) echo "mixed_precision=bf16" ;;
    compact_k4_cuda) echo "device=cuda" ;;
    op_k4 | cvrp_k4) echo "" ;;
    op_k4_aug | cvrp_k4_aug) echo "data.augment=true" ;;
    op_k4_tsp) echo "data.config=[configs/data/op20.yaml,configs/data/tsp20.yaml]" ;;  # half the batches TSP-20 tours
    op_from_tsp | cvrp_from_tsp) echo "init.checkpoint=$tsp_start tokenizer.path=${tsp_start%/checkpoints/*}/tokenizer.model" ;;
    op_echo_from_tsp | cvrp_echo_from_tsp)  # the budget / capacity left after each node, from the compact TSP model
      # (CVRP's echo prompt with each candidate's demand and its notes: up to about 600 tokens)
      echo "text.style=compact_echo init.checkpoint=$tsp_start tokenizer.path=${tsp_start%/checkpoints/*}/tokenizer.model init.other_text_style=true model.max_position_embeddings=1024" ;;
    mis_from_tsp | mvc_from_tsp)  # the graph prompts ignore text.candidates, so TSP's 4 stays
      echo "init.checkpoint=$tsp_start tokenizer.path=${tsp_start%/checkpoints/*}/tokenizer.model model.max_position_embeddings=1024" ;;
    mis | mvc) echo "text.candidates=0 model.max_position_embeddings=1024" ;;  # a vertex lists all its neighbours
    mis_echo | mvc_echo) echo "text.style=compact_echo text.candidates=0 model.max_position_embeddings=1024" ;;
    mis_state)  # the free vertices as the note, each vertex's degree in the prompt
      echo "text.style=compact_state text.candidates=0 model.max_position_embeddings=1024" ;;
    mis_ranked)  # the free vertices ranked as min-degree greedy takes them, the set in that order
      echo "text.style=compact_ranked text.candidates=0 model.max_position_embeddings=1024 init.checkpoint=$state_start tokenizer.path=${state_start%/checkpoints/*}/tokenizer.model init.other_text_style=true" ;;
    mis_ranked_scratch)  # the same text from scratch
      echo "text.style=compact_ranked text.candidates=0 model.max_position_embeddings=1024" ;;
    mis_ranked_choices)  # from scratch, the loss on the model's choices only (the decoder writes the notes)
      echo "text.style=compact_ranked text.candidates=0 model.max_position_embeddings=1024 stages[0].loss_on_notes=false" ;;
    mis_state_choices) echo "text.style=compact_state text.candidates=0 model.max_position_embeddings=1024 stages[0].loss_on_notes=false" ;;
    mvc_ranked)  # every vertex with uncovered edges, most first; the cover in max-degree greedy's order (about 1,100 solution tokens)
      echo "text.style=compact_ranked text.candidates=0 model.max_position_embeddings=2048" ;;
    mvc_state_choices) echo "text.style=compact_state text.candidates=0 model.max_position_embeddings=1280 stages[0].loss_on_notes=false" ;;
    mvc_state) echo "text.style=compact_state text.candidates=0 model.max_position_embeddings=1280" ;;  # the due vertices as the note (up to 1,124 tokens)
    cvrp_state) echo "text.style=compact_state model.max_position_embeddings=1024" ;;  # the capacity left; candidates' demands
    cvrp_echo) echo "text.style=compact_echo" ;;  # the capacity left after each customer
    cvrp_ranked)  # the customers that fit, nearest first; "#0" and the customers left nearest the depot when none fits
      echo "text.style=compact_ranked model.max_position_embeddings=1024" ;;
    op_ranked) echo "text.style=compact_ranked model.max_position_embeddings=1024" ;;  # the nodes that fit, best prize per added length first
    pfsp_ranked) echo "text.style=compact_ranked text.candidates=0 model.max_position_embeddings=1024" ;;  # the jobs left, lowest makespan bound first
    pfsp_insert) echo "text.style=compact_insert text.candidates=0 model.max_position_embeddings=1024" ;;  # jobs in NEH's order; where each goes, least makespan first
    pfsp | jssp) echo "text.candidates=0" ;;  # a job's clause lists no other IDs
    pfsp_aug | jssp_aug) echo "text.candidates=0 data.augment=true" ;;  # jobs (and JSSP's machines) relabelled per example
    pfsp_fourier | jssp_fourier) echo "text.candidates=0 init.number_embedding=fourier" ;;  # number rows start ordered by value
    *) echo "run.sh: unknown variant '$1' (paper, paper_whole, compact_k0, compact_k4, compact_k4_seed2, compact_k4_aug, compact_k4_bf16, compact_k4_cuda, op_k4, op_k4_aug, op_k4_tsp, op_from_tsp, op_echo_from_tsp, op_ranked, cvrp_k4, cvrp_k4_aug, cvrp_echo, cvrp_state, cvrp_ranked, cvrp_from_tsp, cvrp_echo_from_tsp, mis, mis_echo, mis_state, mis_ranked, mis_ranked_scratch, mis_ranked_choices, mis_state_choices, mis_from_tsp, mvc, mvc_echo, mvc_state, mvc_state_choices, mvc_ranked, mvc_from_tsp, pfsp, pfsp_ranked, pfsp_insert, pfsp_aug, pfsp_fourier, jssp, jssp_aug, jssp_fourier)" >&2; return 1 ;;
  esac
}

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(paper compact_k0 compact_k4)
for v in "${variants[@]}"; do overrides "$v" > /dev/null; done

# Each dataset once, on both cores, before any training starts.
for v in "${variants[@]}"; do dataset_of "$(problem_of "$v")"; done | sort -u | while read -r stem; do
  "$bin/datagen/falcon_datagen" "configs/data/$stem.yaml"
done

train() {  # variant: train for the rest of its time budget (the seconds already spent are in train.seconds)
  local v=$1 dir=$out/$1 spent=0
  mkdir -p "$dir"
  [ -f "$dir/train.seconds" ] && spent=$(cat "$dir/train.seconds")
  local left=$((minutes * 60 - spent))
  [ "$left" -gt 30 ] || return 0
  local start=$SECONDS
  # shellcheck disable=SC2046
  timeout --signal=TERM "$left" "$bin/tools/falcon_train" $here/sft_tsp20.yaml output_dir="$dir" \
    data.config="configs/data/$(dataset_of "$(problem_of "$v")").yaml" $(overrides "$v") ${TRAIN_ARGS:-} --resume >> "$dir/train.log" 2>&1 || true
  echo $((spent + SECONDS - start)) > "$dir/train.seconds"
}

eval_config_of() {  # variant -> its evaluation rows: a compact_state, _ranked or _insert model is decoded with the notes computed
  case " $(overrides "$1") " in
    *" text.style=compact_state "* | *" text.style=compact_ranked "* | *" text.style=compact_insert "*) echo $here/eval_state.yaml ;;
    *) echo $here/eval_checkpoint.yaml ;;
  esac
}

evaluate() {  # variant: greedy decoding of every eval_every-th checkpoint not yet evaluated
  local v=$1 dir=$out/$1 problem tokenizer=$out/$1/tokenizer.model o
  problem=$(problem_of "$v")
  for o in $(overrides "$v"); do case $o in tokenizer.path=*) tokenizer=${o#tokenizer.path=} ;; esac; done
  for ckpt in "$dir"/checkpoints/step_*; do
    [ -d "$ckpt" ] || continue
    local step=${ckpt##*step_}
    [ $((step % eval_every)) -eq 0 ] || continue
    [ -f "$dir/eval/step_$step/summary.json" ] && continue
    "$bin/tools/falcon_eval" "$(eval_config_of "$v")" model.checkpoint="$ckpt" \
      model.tokenizer="$tokenizer" output_dir="$dir/eval/step_$step" data.dataset="data/$(dataset_of "$problem").h5" \
      data.limit="$limit" "rows[2].type=solver:$(heuristic_of "$problem")" ${EVAL_ARGS:-} > "$dir/eval/step_$step.log" 2>&1 ||
      echo "run.sh: evaluating $ckpt failed (see $dir/eval/step_$step.log)" >&2
  done
}

solution_tokens() {  # variant: tokens of one TSP-20 label + EOS in its text style and tokenizer (curves.py's yardstick)
  local v=$1 dir=$out/$1 style=compact text
  [ "$(problem_of "$v")" = tsp ] || return 0
  case " $(overrides "$v") " in *" text.style=paper "*) style=paper ;; esac
  [ -f "$dir/tokenizer.model" ] || return 0
  text=$("$bin/tools/falcon_solve" --problem tsp --method reference --text-style $style --generate n=20,seed=7 |
    /usr/bin/python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["solution"])')
  "$bin/tools/falcon_tokenizer" encode "$dir/tokenizer.model" "$text" |
    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["tokens"] + 1)' > "$dir/solution_tokens"
}

for ((i = 0; i < ${#variants[@]}; i += parallel)); do  # PARALLEL one-thread runs at a time
  for v in "${variants[@]:i:parallel}"; do train "$v" & done
  wait
done
for ((i = 0; i < ${#variants[@]}; i += parallel)); do
  for v in "${variants[@]:i:parallel}"; do mkdir -p "$out/$v/eval"; evaluate "$v" & done
  wait
done
for v in "${variants[@]}"; do solution_tokens "$v"; done
/usr/bin/python3 $here/curves.py --out "${CURVES_OUT:-$out}" "$out" "${variants[@]}"
