#!/usr/bin/env python3
"""A compact_echo run's checkpoints with their own notes against notes the decoder computes:
notes.md and notes.png from eval_notes.yaml's evaluations.

usage: notes_table.py [--out DIR] EVALS_DIR TITLE   (DIR: where the two files go; default this folder)

EVALS_DIR holds step_N/summary.json, one falcon_eval run of eval_notes.yaml per checkpoint (or of
some of its rows: a row a step lacks is "-"). Per step and row, by the row's name: the share
feasible before repair (of the samples, for a best-of-n row) and the mean gap over all instances
(an infeasible answer counts 100% when the row does not repair).
"""
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from curves import out_dir_and_args  # noqa: E402


def load(evals_dir):
    """{step: {row name: row summary}} for every evaluated checkpoint."""
    out = {}
    for name in os.listdir(evals_dir):
        m = re.fullmatch(r"step_(\d+)", name)
        path = os.path.join(evals_dir, name, "summary.json")
        if m and os.path.isfile(path):
            with open(path) as f:
                out[int(m.group(1))] = {r["row"]: r for r in json.load(f)["rows"]}
    return dict(sorted(out.items()))


def raw_valid(row):
    """Percent feasible before repair: of all samples for a best-of-n row, of the answers otherwise."""
    key = "sample_feasible_raw" if row.get("samples", 1) > 1 and "sample_feasible_raw" in row else "feasible_raw"
    return 100 * row.get(key, 0.0)


def main():
    here, args = out_dir_and_args(sys.argv[1:], __doc__)
    evals_dir, title = args[0], args[1]
    steps = load(evals_dir)
    if not steps:
        sys.exit(f"notes_table.py: no step_N/summary.json under {evals_dir} (run eval_notes.yaml on its checkpoints first)")
    names = []  # every row name, in the order of the evaluation with the most rows, then the others'
    for rows in sorted(steps.values(), key=len, reverse=True):
        names += [name for name in rows if name not in names]
    lines = [f"# {title}: own notes against computed notes", "",
             f"From `{evals_dir}` (eval_notes.yaml per checkpoint). Each cell: valid before repair / gap over all "
             "instances (an infeasible answer counts 100% in a row without repair); a best-of-n row's validity "
             "is that of its samples.", "",
             "| step | " + " | ".join(names) + " |", "|---:|" + "---:|" * len(names)]
    for step, rows in steps.items():
        cells = [f"{raw_valid(rows[n]):.0f}% / {100 * rows[n]['gap_all']:.1f}%" if n in rows else "-" for n in names]
        lines.append(f"| {step} | " + " | ".join(cells) + " |")
    with open(os.path.join(here, "notes.md"), "w") as f:
        f.write("\n".join(lines) + "\n")

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for name in names:
        xs = [s for s, rows in steps.items() if name in rows]
        axes[0].plot(xs, [raw_valid(steps[s][name]) for s in xs], marker="o", label=name)
        axes[1].plot(xs, [100 * steps[s][name]["gap_all"] for s in xs], marker="o", label=name)
    axes[0].set_title("valid before repair (%)")
    axes[1].set_title("gap over all instances (%; infeasible = 100% without repair)")
    axes[1].set_yscale("log")
    for ax in axes:
        ax.set_xlabel("training step")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(os.path.join(here, "notes.png"), dpi=110)


if __name__ == "__main__":
    main()
