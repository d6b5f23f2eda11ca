#!/bin/sh
# Training and decoding throughput of candidate CPU default model sizes (hidden 128/192/256 x
# layers 4/6/8; head_dim 32, SwiGLU width ~8/3 hidden rounded up to 8, vocabulary 2000), one
# falcon_bench run each, then the markdown table of results.md.
# Needs: cmake --build build --target falcon_bench. Usage: run.sh [steps] (default 8); ~3 min.
set -e
cd "$(dirname "$0")/../.."
steps=${1:-8}
out=build/model_sizing
mkdir -p "$out"
for hidden in 128 192 256; do
  heads=$((hidden / 32))
  ffn=$(( (hidden * 8 / 3 + 7) / 8 * 8 ))
  for layers in 4 6 8; do
    echo "hidden $hidden layers $layers" >&2
    build/tools/bench/falcon_bench --hidden "$hidden" --layers "$layers" --heads "$heads" --kv-heads "$heads" --ffn "$ffn" \
      --batch 8 --sequence 256 --steps "$steps" --new-tokens 64 --decode-batches 1 64 --no-uncached \
      --out "$out/h${hidden}_l${layers}.json" >/dev/null
  done
done
python3 experiments/model_sizing/table.py "$out"/h*_l*.json
