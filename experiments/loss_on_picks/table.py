#!/usr/bin/env python3
"""Prints results.md's table for one problem from run.sh's evaluations: the model alone (its gap with
an invalid answer at 100%, and the share valid) at the start and at each checkpoint of both arms, on
both held-out splits. Usage: table.py EVAL_DIR PROBLEM"""
import json
import pathlib
import re
import sys


def model_rows(summary):
    """(name, gap_all, feasible_raw) of each model row: every row but the solver's."""
    return [(r["row"], r["gap_all"], r["feasible_raw"]) for r in summary["rows"] if not r["method"].startswith("solver:")]


def main():
    eval_dir, problem = pathlib.Path(sys.argv[1]), sys.argv[2]
    points = {}  # (arm, step) -> split -> rows
    heuristic = {}
    for d in sorted(eval_dir.glob(f"{problem}_*")):
        m = re.fullmatch(rf"{problem}_(start|picks_step_(\d+)|every_step_(\d+))_(val|test)", d.name)
        if not m or not (d / "summary.json").exists():
            continue
        summary = json.loads((d / "summary.json").read_text())
        arm = "start" if m.group(1) == "start" else ("picks" if m.group(2) else "every")
        step = int(m.group(2) or m.group(3) or 0)
        points.setdefault((arm, step), {})[m.group(4)] = model_rows(summary)
        heuristic[m.group(4)] = next(r["gap_all"] for r in summary["rows"] if r["method"].startswith("solver:"))
    if not points:
        sys.exit(f"table.py: no evaluations of {problem} under {eval_dir} (run.sh {problem} makes them)")
    names = next(iter(next(iter(points.values())).values()))
    header = [f"{n} ({s})" for n, _, _ in names for s in ("val", "test")]
    print("| arm | step | " + " | ".join(header) + " |")
    print("|---|---:|" + "---:|" * len(header))
    order = {"start": 0, "every": 1, "picks": 2}
    for (arm, step), splits in sorted(points.items(), key=lambda kv: (order[kv[0][0]], kv[0][1])):
        cells = []
        for i in range(len(names)):
            for s in ("val", "test"):
                rows = splits.get(s)
                cells.append(f"{100 * rows[i][1]:.2f}% ({100 * rows[i][2]:.1f}% valid)" if rows else "")
        label = {"start": "the start (the release)", "every": "loss on every token", "picks": "loss on the picks"}[arm]
        print(f"| {label} | {step or ''} | " + " | ".join(cells) + " |")
    print("\nsimple heuristic: " + ", ".join(f"{s} {100 * g:.2f}%" for s, g in sorted(heuristic.items())))


if __name__ == "__main__":
    main()
