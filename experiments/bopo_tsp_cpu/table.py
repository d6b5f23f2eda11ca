#!/usr/bin/python3
"""Markdown table of falcon_train runs: one row per evaluated stage of each run's summary.json.

Usage: table.py RUN_DIR [RUN_DIR ...]
"""
import json
import os
import sys


def rows(run_dir):
    path = os.path.join(run_dir, "summary.json")
    try:
        stages = json.load(open(path))
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"table.py: cannot read {path}: {e} (did the run finish?)")
    for s in stages:
        e = s.get("eval")
        if not e:
            continue
        yield (os.path.basename(os.path.normpath(run_dir)), s["stage"], str(s["steps"]), f"{s['seconds']:.0f}",
               f"{100 * e['sample_feasible_raw']:.1f}", f"{100 * e['feasible']:.0f}", f"{100 * e['mean_gap']:.2f}",
               f"{100 * e['repaired']:.0f}", str(s.get("skipped_groups", 0)))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("| run | stage | steps | stage s | samples feasible raw % | feasible % | mean gap % | chosen repaired % | skipped groups |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in sys.argv[1:]:
        for r in rows(d):
            print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
