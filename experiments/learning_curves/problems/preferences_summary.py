#!/usr/bin/env python3
"""BOPO against more SFT and GRPO on every problem, from the three-seed reports of bopo_vs_sft.sh:
one table of the held-out figures at each arm's last checkpoint (mean ± standard deviation over the
seeds), seed-by-seed wins of BOPO, and BOPO's degenerate groups; and a picture of every seed's
figures (FILE with .png for .md).

usage: preferences_summary.py [--out FILE] PROBLEM=REPORT_DIR ...
  (default: the studies named in STUDIES below; FILE defaults to preferences_summary.md here)

Each REPORT_DIR holds a bopo_vs_sft.md; its "Last checkpoint of each run" table (one row per arm
and seed) is what is read, so a report with fewer seeds or arms shows what it has.
"""
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

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
           ("JSSP 6x6", os.path.join(HERE, "jssp_preferences")),
           # from the released model, 40 steps (pfsp_preferences_release/results.md)
           ("PFSP, release", os.path.join(HERE, "pfsp_preferences_release")),
           ("PFSP, release, rollout T 0.3", os.path.join(HERE, "pfsp_preferences_release_t03"))]
ARMS = ("bopo", "sft", "grpo")
ARM_LABELS = {"bopo": "BOPO", "sft": "more SFT", "grpo": "GRPO"}
ARM_COLOURS = {"bopo": "tab:blue", "sft": "tab:orange", "grpo": "tab:green"}
ROW = re.compile(r"^\| (bopo|grpo|sft) \| (\d+) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| (.*) \|$")


def last_checkpoints(report):
    """{(arm, seed): {"minutes", "valid", "best8", "skipped"}} from a bopo_vs_sft.md, {} when it is missing."""
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
                runs[(m.group(1), int(m.group(2)))] = {"minutes": float(m.group(4)), "valid": float(m.group(5)),
                                                       "best8": float(m.group(8)),
                                                       "skipped": float(skipped.group(1)) if skipped else None}
    return runs


def mean_sd(values, seeds):
    """Mean ± sd, saying how many seeds it is over when the arm has fewer than the row's `seeds`."""
    if not values:
        return "not run"
    if len(values) == 1:
        return mean_spread(values) + " (1 seed)"
    return mean_spread(values) + (f" ({len(values)} seeds)" if len(values) < seeds else "")


def time_share(ratios):
    """More SFT's minutes over BOPO's, per seed: the mean and, over several seeds, the range."""
    if not ratios:
        return "-"
    text = f"{100 * statistics.mean(ratios):.0f}%"
    return text + (f" ({100 * min(ratios):.0f}-{100 * max(ratios):.0f}%)" if len(ratios) > 1 else "")


def summary_lines(studies, figure=None):
    lines = ["# BOPO, more SFT and GRPO on the seven problems", "",
             "Made by `experiments/learning_curves/problems/preferences_summary.py` from the reports of "
             "`bopo_vs_sft.sh` (each problem's `bopo_vs_sft.md`: every arm from the same SFT checkpoint; BOPO and "
             "GRPO with the same samples, more SFT for BOPO's wall time). Held-out figures at each arm's last "
             "checkpoint, in percent, mean ± standard deviation over the seeds. `best of 8`: FALCON's best of 8 "
             "(grammar and repair on), lower is better. `valid`: the model alone, greedy, grammar on, repair off. "
             "`BOPO < SFT` / `BOPO < GRPO`: the seeds on which BOPO's best of 8 is lower than that arm's of the "
             "same seed. `degenerate`: BOPO's groups with fewer than two distinct feasible objectives (no pair), "
             "mean over the seeds. `SFT's time`: the training minutes at more SFT's compared checkpoint as a share "
             "of BOPO's, mean over the seeds (lowest-highest): a study run with `SFT_STOP=kill` compared more SFT "
             "at its last 50-step checkpoint inside BOPO's time, so below 100%.", "",
             "| problem | seeds | best of 8: BOPO | more SFT | GRPO | BOPO < SFT | BOPO < GRPO | valid: BOPO | more SFT | GRPO | degenerate | SFT's time |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
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
        cells += [mean_sd([r["best8"] for r in by_arm[arm]], len(seeds)) for arm in ARMS]
        cells += [wins("sft"), wins("grpo")]
        cells += [mean_sd([r["valid"] for r in by_arm[arm]], len(seeds)) for arm in ARMS]
        cells += [f"{statistics.mean(skipped):.1f}%" if skipped else "-"]
        cells += [time_share([runs[("sft", s)]["minutes"] / runs[("bopo", s)]["minutes"] for s in seeds
                              if ("sft", s) in runs and ("bopo", s) in runs and runs[("bopo", s)]["minutes"] > 0])]
        lines.append("| " + " | ".join(cells) + " |")
    if figure:
        lines += ["", f"![Every seed's best of 8 and greedy validity, per problem and arm]({figure})"]
    return lines + [""]


def plot(studies, path):
    """Two rows of panels, one column a problem: best of 8 (top) and greedy validity (bottom), every
    seed a dot and each arm's mean a bar, so a reader sees the spread the table's ± summarizes."""
    fig, axes = plt.subplots(2, len(studies), figsize=(2.1 * len(studies), 5.2), squeeze=False)
    for column, (problem, report) in enumerate(studies):
        runs = last_checkpoints(report)
        for row, (key, label) in enumerate((("best8", "best of 8 gap %"), ("valid", "greedy valid % (no repair)"))):
            ax = axes[row][column]
            if not runs:
                ax.text(0.5, 0.5, "not run", ha="center", va="center", transform=ax.transAxes, color="grey")
            for x, arm in enumerate(ARMS):
                values = [figures[key] for (a, _), figures in sorted(runs.items()) if a == arm]
                if not values:
                    continue
                ax.scatter([x] * len(values), values, color=ARM_COLOURS[arm], s=18, zorder=3)
                ax.hlines(statistics.mean(values), x - 0.3, x + 0.3, color=ARM_COLOURS[arm], linewidth=2)
            ax.set_xticks(range(len(ARMS)))
            ax.set_xticklabels([ARM_LABELS[a] for a in ARMS] if row == 1 else [], rotation=45, fontsize=7)
            ax.set_xlim(-0.6, len(ARMS) - 0.4)
            ax.tick_params(axis="y", labelsize=7)
            ax.grid(axis="y", alpha=0.3)
            if row == 0:
                ax.set_title(problem, fontsize=9)
            if column == 0:
                ax.set_ylabel(label, fontsize=8)
    fig.suptitle("BOPO, more SFT (BOPO's wall time) and GRPO (BOPO's samples) from one SFT start; "
                 "dots: seeds, bars: means", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


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
    figure = out[:-len(".md")] + ".png" if out.endswith(".md") else None
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(summary_lines(studies, figure and os.path.basename(figure))))
    if figure:
        plot(studies, figure)


if __name__ == "__main__":
    main()
