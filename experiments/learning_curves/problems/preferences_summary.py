#!/usr/bin/env python3
"""BOPO against more SFT and GRPO on every problem, from the three-seed reports of bopo_vs_sft.sh:
one table of the held-out figures at each arm's last checkpoint (mean ± standard deviation over the
seeds), seed-by-seed wins of BOPO, and BOPO's degenerate groups.

usage: preferences_summary.py [--out FILE] PROBLEM=REPORT_DIR ...
  (default: the studies named in STUDIES below; FILE defaults to preferences_summary.md here)

Each REPORT_DIR holds a bopo_vs_sft.md; its "Last checkpoint of each run" table (one row per arm
and seed) is what is read, so a report with fewer seeds or arms shows what it has.
"""
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LEARNING_CURVES = os.path.dirname(HERE)
sys.path.insert(0, LEARNING_CURVES)
from bopo_vs_sft import mean_spread  # noqa: E402
# The study of each problem's recipe as the tables train it (paper's BOPO unless the recipe says otherwise).
STUDIES = [("TSP-20", os.path.join(LEARNING_CURVES)),
           ("OP-20", os.path.join(HERE, "op_preferences")),
           ("CVRP-20", os.path.join(HERE, "cvrp_preferences")),
           ("MIS (ER-50)", os.path.join(HERE, "mis_preferences")),
           ("MVC (ER-50)", os.path.join(HERE, "mvc_preferences")),
           ("PFSP 20x5", os.path.join(HERE, "pfsp_preferences")),
           ("JSSP 6x6", os.path.join(HERE, "jssp_preferences"))]
ARMS = ("bopo", "sft", "grpo")
ROW = re.compile(r"^\| (bopo|grpo|sft) \| (\d+) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| (.*) \|$")


def last_checkpoints(report):
    """{(arm, seed): {"valid", "best8", "skipped"}} from a bopo_vs_sft.md, {} when it is missing."""
    path = os.path.join(report, "bopo_vs_sft.md")
    if not os.path.isfile(path):
        return {}
    runs, in_table = {}, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                in_table = line == "## Last checkpoint of each run"
                continue
            m = ROW.match(line) if in_table else None
            if m:
                skipped = re.match(r"([\d.]+)%", m.group(9))
                runs[(m.group(1), int(m.group(2)))] = {"valid": float(m.group(5)), "best8": float(m.group(8)),
                                                       "skipped": float(skipped.group(1)) if skipped else None}
    return runs


def mean_sd(values):
    if not values:
        return "not run"
    return mean_spread(values) + (" (1 seed)" if len(values) == 1 else "")


def summary_lines(studies):
    lines = ["# BOPO, more SFT and GRPO on the seven problems", "",
             "Made by `experiments/learning_curves/problems/preferences_summary.py` from the reports of "
             "`bopo_vs_sft.sh` (each problem's `bopo_vs_sft.md`: every arm from the same SFT checkpoint; BOPO and "
             "GRPO with the same samples, more SFT for BOPO's wall time). Held-out figures at each arm's last "
             "checkpoint, in percent, mean ± standard deviation over the seeds. `best of 8`: FALCON's best of 8 "
             "(grammar and repair on), lower is better. `valid`: the model alone, greedy, grammar on, repair off. "
             "`BOPO < SFT` / `BOPO < GRPO`: the seeds on which BOPO's best of 8 is lower than that arm's of the "
             "same seed. `degenerate`: BOPO's groups with fewer than two distinct feasible objectives (no pair), "
             "mean over the seeds.", "",
             "| problem | seeds | best of 8: BOPO | more SFT | GRPO | BOPO < SFT | BOPO < GRPO | valid: BOPO | more SFT | GRPO | degenerate |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for problem, report in studies:
        runs = last_checkpoints(report)
        seeds = sorted({seed for (_, seed) in runs})
        by_arm = {arm: [runs[(arm, s)] for s in seeds if (arm, s) in runs] for arm in ARMS}

        def wins(other):
            paired = [s for s in seeds if ("bopo", s) in runs and (other, s) in runs]
            if not paired:
                return "-"
            return f"{sum(runs[('bopo', s)]['best8'] < runs[(other, s)]['best8'] for s in paired)} of {len(paired)}"

        skipped = [r["skipped"] for r in by_arm["bopo"] if r["skipped"] is not None]
        cells = [problem, str(len(seeds)) if seeds else "0"]
        cells += [mean_sd([r["best8"] for r in by_arm[arm]]) for arm in ARMS]
        cells += [wins("sft"), wins("grpo")]
        cells += [mean_sd([r["valid"] for r in by_arm[arm]]) for arm in ARMS]
        cells += [f"{statistics.mean(skipped):.1f}%" if skipped else "-"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def main():
    args = sys.argv[1:]
    out = os.path.join(HERE, "preferences_summary.md")
    if len(args) >= 2 and args[0] == "--out":
        out, args = args[1], args[2:]
    studies = STUDIES
    if args:
        studies = []
        for a in args:
            if "=" not in a:
                sys.exit(f"preferences_summary.py: '{a}' is not PROBLEM=REPORT_DIR\n{__doc__}")
            studies.append(tuple(a.split("=", 1)))
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(summary_lines(studies)))


if __name__ == "__main__":
    main()
