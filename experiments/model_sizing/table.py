"""Markdown table of falcon_bench JSON files (experiments/model_sizing/run.sh)."""
import json
import sys

rows = []
for path in sys.argv[1:]:
    with open(path) as f:
        r = json.load(f)
    m, t, d = r["model"], r["training"], {x["batch"]: x for x in r["decoding"]}
    rows.append((m["hidden"], m["layers"], m, t, d, r))
rows.sort(key=lambda x: (x[0], x[1]))
print("| hidden | layers | heads | ffn | parameters | train tokens/s (mean) | train tokens/s (fastest step) | MFU (fastest) "
      "| decode tokens/s batch 1 | decode tokens/s batch 64 |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for hidden, layers, m, t, d, r in rows:
    tokens_per_step = t["batch"] * t["sequence"]
    print(f"| {hidden} | {layers} | {m['heads']} | {m['ffn']} | {m['parameters'] / 1e6:.2f} M "
          f"| {t['tokens_per_second']:,.0f} | {tokens_per_step / t['fastest_step_seconds']:,.0f} "
          f"| {t['fastest_step_mfu']:.2f} | {d[1]['kv_cache_tokens_per_second']:,.0f} "
          f"| {d[64]['kv_cache_tokens_per_second']:,.0f} |")
r = rows[0][5]
print(f"\nmatmul peak of the runs: {min(x[5]['matmul']['peak_flops'] for x in rows) / 1e9:.0f} to "
      f"{max(x[5]['matmul']['peak_flops'] for x in rows) / 1e9:.0f} GFLOP/s fp32; torch {r['torch']}, "
      f"{r['threads']} threads, BLAS kernels {r.get('blas_core', '?')}")
