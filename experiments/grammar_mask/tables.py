"""Markdown tables of falcon_bench_decoding's JSON (results.md)."""
import json
import sys

d = json.load(open(sys.argv[1]))
print(f"clock overhead (p50 of an empty timed interval, included in every figure): {d['clock_overhead_p50_ns']:.0f} ns\n")
print("| vocabulary | problem | tokens / solution | grammar mask+accept p50 / p99 (ns) | semantic mask+accept p50 / p99 (ns) "
      "| apply to float logits p50 / p99 (ns) | allowed list + gather p50 / p99 (ns) |")
print("|---|---|---|---|---|---|---|")
for r in d["mask_per_step"]:
    g, s = r["grammar_mask_and_accept"], r["semantic_mask_and_accept"]
    a, l = r["apply_mask_to_float_logits"], r["read_allowed_list_and_gather"]
    assert r["grammar_refused"] == 0 and r["semantic_refused"] == 0
    print(f"| {r['vocabulary_kind']} {r['vocabulary']} | {r['problem']} | {r['tokens_per_solution']:.0f} "
          f"| {g['p50_ns']:.0f} / {g['p99_ns']:.0f} | {s['p50_ns']:.0f} / {s['p99_ns']:.0f} "
          f"| {a['p50_ns']:.0f} / {a['p99_ns']:.0f} | {l['p50_ns']:.0f} / {l['p99_ns']:.0f} |")
print()
kinds = sorted(next(iter(d["compile"]))["token_automaton_ms"].keys())
print("| problem | n | DFA states | byte DFA (ms) | " + " | ".join(f"token automaton {k} (ms)" for k in kinds) + " |")
print("|---|---|---|---|" + "---|" * len(kinds))
for r in d["compile"]:
    print(f"| {r['problem']} | {r['n']} | {r['dfa_states']} | {r['byte_dfa_ms']:.2f} | " +
          " | ".join(f"{r['token_automaton_ms'][k]:.2f}" for k in kinds) + " |")
