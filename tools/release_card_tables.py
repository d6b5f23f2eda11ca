#!/usr/bin/env python3
"""The two tables of a model card (models/<p>/README.md) from its release eval's summary.json.

    tools/release_card_tables.py runs/release_eval/op/summary.json

prints the held-out figures of every row (configs/eval/release_<p>.yaml) and the instance-by-instance
wins / ties / losses of the model rows against the rows without a model, in the cards' layout.
"""
import json
import sys

DESCRIBE = {
    "model alone": "**model alone** (greedy, grammar and notes, no repair)",
    "model alone, note picks": "**model alone, note picks** (each pick one the note lists)",
    "FALCON N=1": "FALCON N=1 (greedy, repair)",
    "FALCON N=8": "FALCON N=8 (T 0.7, repair)",
    "FALCON adaptive": "**FALCON adaptive** (N 8..64, tau 0.85, repair)",
    "FALCON N=8, copies": "FALCON N=8, copies (8 symmetric copies, argmax each, repair)",
    "FALCON adaptive, copies": "**FALCON adaptive, copies** (8..64 symmetric copies, argmax each, tau 0.85, repair)",
    "simple heuristic": "simple heuristic",
    "repair alone": "repair alone (from nothing)",
}


def percent(x, digits=2):
    return "-" if x is None else f"{100 * x:.{digits}f}%"


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: tools/release_card_tables.py runs/release_eval/<p>/summary.json")
    summary = json.load(open(sys.argv[1]))
    rows = summary["rows"]
    print("| row | valid before repair | gap, all answers (invalid = 100%) | gap of the valid | time / instance | samples |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        name = r["row"]
        label = DESCRIBE.get(name, name)
        if name.startswith("heuristic sampler"):
            label = f"{name} (no model, q {r['settings'].get('q')}, repair)"
        samples = "-" if r["method"].startswith("solver") else f"{r['samples']:.1f}"
        print(f"| {label} | {percent(r['feasible_raw'], 1)} | {percent(r['gap_all'])} | {percent(r['gap_feasible'])} "
              f"| {r['seconds']:.3f} s | {samples} |")
    print()
    against = []
    for p in summary.get("paired", []):
        if p["against"] not in against:
            against.append(p["against"])
    model_rows = []
    for p in summary.get("paired", []):
        if p["row"] not in model_rows:
            model_rows.append(p["row"])
    cells = {(p["row"], p["against"]): f"{p['wins']} / {p['ties']} / {p['losses']}" for p in summary.get("paired", [])}
    print("| row | " + " | ".join(f"against {a}" for a in against) + " |")
    print("|---|" + "---:|" * len(against))
    for row in model_rows:
        print(f"| {row} | " + " | ".join(cells.get((row, a), "-") for a in against) + " |")


if __name__ == "__main__":
    main()
