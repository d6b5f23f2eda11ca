#!/usr/bin/env bash
# Model performance figures on this machine: falcon_bench's JSON for the default CPU
# model, plus the training rate of candidate CPU sizes. Run on a quiet machine:
#   experiments/model_bench/run.sh            # writes results.json and prints a summary
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=./build/tools/bench/falcon_bench
out=experiments/model_bench
$bench --out $out/results.json > /dev/null
/usr/bin/env python3 - "$out/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["training"]; m = d["matmul"]
print(f"torch {d['torch']}, {d['threads']} threads, model {d['model']['parameters']/1e6:.2f}M parameters")
print(f"matmul peak {m['peak_flops']/1e9:.0f} GFLOP/s; training {t['tokens_per_second']:.0f} tokens/s "
      f"(batch {t['batch']} x {t['sequence']}), MFU {t['mfu']:.2f}")
for r in d["decoding"]:
    line = f"decode batch {r['batch']}: KV cache {r['kv_cache_tokens_per_second']:.0f} tokens/s"
    if "no_cache_tokens_per_second" in r:
        line += f", no cache {r['no_cache_tokens_per_second']:.0f} tokens/s, speed-up {r['kv_cache_speedup']:.1f}x"
    print(line + f" ({r['new_tokens']} new tokens after {r['prompt_tokens']})")
c = d["constrained_decoding"]
print(f"constrained sampling: step-time ratio free/grammar {c['step_time_ratio_unconstrained_over_grammar']:.3f}, "
      f"mask {100*c['mask_fraction_of_constrained_time']:.3f}% of the constrained time")
PY
