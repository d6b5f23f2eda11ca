#!/usr/bin/env python3
"""The two tables of a model card (models/<p>/README.md) from its release eval's summary.json.

    tools/release_card_tables.py runs/release_eval/op/summary.json

prints the held-out figures of every row (configs/eval/release_<p>.yaml) and the instance-by-instance
wins / ties / losses of the model rows against the rows without a model, in the cards' layout.
"""
import json
import sys

DESCRIBE = {
    "model alone, note picks": "**model alone, note picks** (each pick one the note lists)",
    "FALCON N=1": "FALCON N=1 (greedy, repair)",
    "simple heuristic": "simple heuristic",
    "repair alone": "repair alone (from nothing)",
}


def describe_samples(name, settings):
    """A model's sampled row, from the settings it ran with: how many samples, of what."""
    fixed = settings["method"] == "fixed"
    count = f"N={settings['n']}" if fixed else f"N {settings['n_min']}..{settings['n_max']}, tau {settings['tau']}"
    if settings.get("patience"):
        count += f", patience {settings['patience']}"
    t = settings.get("temperature")
    if settings.get("symmetric_copies"):
        draws = "symmetric copies, " + ("argmax each" if t == 0 else f"T {t} each")
    else:
        draws = f"T {t}"
    label = name if fixed else f"**{name}**"
    said = [] if count in name else [count]
    return f"{label} ({', '.join(said + [draws, 'repair' if settings.get('repair') else 'no repair'])})"


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
        if name == "model alone":  # a text without notes (JSSP's) has only the grammar
            notes = " and notes" if r["settings"].get("computed_notes") else ""
            label = f"**model alone** (greedy, grammar{notes}, no repair)"
        if r["method"] in ("fixed", "adaptive"):
            label = describe_samples(name, r["settings"])
        elif name.startswith("heuristic sampler"):
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
