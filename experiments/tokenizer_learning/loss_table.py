#!/usr/bin/python3
"""SFT loss around given steps (mean of the logged steps within +-20) and each evaluated stage.

Usage: loss_table.py RUN_DIR [RUN_DIR ...]   (falcon_train output directories)
"""
import json
import os
import sys

STEPS = (100, 200, 400, 800, 1200, 1600)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("| run | " + " | ".join(f"loss @{s}" for s in STEPS) + " | stage evaluations (gap %, raw feasible %) |")
    print("|---|" + "---:|" * len(STEPS) + "---|")
    for run in sys.argv[1:]:
        path = os.path.join(run, "metrics.jsonl")
        try:
            rows = [json.loads(line) for line in open(path)]
        except (OSError, json.JSONDecodeError) as e:
            sys.exit(f"loss_table.py: cannot read {path}: {e}")
        sft = [r for r in rows if r.get("stage") == "sft" and "loss" in r]
        cells = []
        for s in STEPS:
            near = [r["loss"] for r in sft if abs(r["step"] - s) <= 20]
            cells.append(f"{sum(near) / len(near):.3f}" if near else "-")
        evals = []
        summary = os.path.join(run, "summary.json")
        if os.path.exists(summary):
            for stage in json.load(open(summary)):
                e = stage.get("eval")
                if e:
                    evals.append(f"{stage['stage']} {100 * e['mean_gap']:.1f}, {100 * e['sample_feasible_raw']:.1f}")
        name = os.path.basename(os.path.normpath(run))
        print(f"| {name} | " + " | ".join(cells) + f" | {'; '.join(evals) or 'not finished'} |")


if __name__ == "__main__":
    main()
