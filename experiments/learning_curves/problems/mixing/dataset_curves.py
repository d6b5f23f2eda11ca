#!/usr/bin/env python3
"""One problem's SFT loss per token against that problem's own batches, in runs that train it
alone and runs that mix it with other problems: a table (every 50 of its batches) and a picture.

usage: dataset_curves.py --out FILE.md --dataset STEM LABEL=RUN_DIR[@STAGE][:SHARE[:OFFSET]] ...

STEM is the dataset file's stem (mvc50). A run of that dataset alone reads each line's `loss`;
a run of several (data.batches: by_dataset) reads `loss_by_dataset[STEM]`, the mean over that
dataset's batches since the previous line. SHARE (default 1) is the dataset's share of the run's
batches, data.weights[d] / sum(data.weights): its batches at step s are taken as s * SHARE, exact
within a round of the data order (two batches for weights [1, 1]; the whole stage for bopo_all's).
OFFSET (default 0) is the dataset's batches before the run's first step (a run started from
another's checkpoint, or an earlier stage of the same run). STAGE (default: every SFT stage) reads
only the stage of that name: a run of several SFT stages counts each stage's steps from 1, so a
curriculum gives one LABEL per stage, each with its own SHARE and OFFSET. The picture is FILE with
.png for .md.
"""
import argparse
import json
import os
import shlex
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def parse_run(spec):
    """LABEL=RUN_DIR[@STAGE][:SHARE[:OFFSET]] -> (label, metrics path, stage or None, share, offset)."""
    if "=" not in spec:
        raise SystemExit(f"dataset_curves.py: '{spec}' is not LABEL=RUN_DIR[@STAGE][:SHARE[:OFFSET]]")
    label, rest = spec.split("=", 1)
    parts = rest.split(":")
    if len(parts) > 3:
        raise SystemExit(f"dataset_curves.py: '{spec}' has more than RUN_DIR[@STAGE]:SHARE:OFFSET")
    run_dir, _, stage = parts[0].partition("@")
    if "@" in parts[0] and not stage:
        raise SystemExit(f"dataset_curves.py: '{spec}': name the stage after '@' (a stage name of its metrics.jsonl)")
    try:
        share = float(parts[1]) if len(parts) > 1 else 1.0
        offset = float(parts[2]) if len(parts) > 2 else 0.0
    except ValueError:
        raise SystemExit(f"dataset_curves.py: '{spec}': SHARE and OFFSET must be numbers")
    if not 0 < share <= 1:
        raise SystemExit(f"dataset_curves.py: '{spec}': SHARE must be in (0, 1]")
    metrics = os.path.join(run_dir, "metrics.jsonl")
    if not os.path.isfile(metrics):
        raise SystemExit(f"dataset_curves.py: {metrics} does not exist (run '{label}')")
    return label, metrics, stage or None, share, offset


def curve(metrics, dataset, stage, share, offset):
    """[(the dataset's batches, loss per token)] from the SFT lines of a metrics log (of `stage` only, if named)."""
    points = []
    with open(metrics) as f:
        for n, line in enumerate(f, 1):
            try:
                j = json.loads(line)
            except json.JSONDecodeError:
                raise SystemExit(f"dataset_curves.py: {metrics}:{n} is not JSON (a line cut by a stopped run? "
                                 "delete it)")
            if not isinstance(j, dict) or j.get("type") != "sft" or "step" not in j:
                continue
            if stage is not None and j.get("stage") != stage:
                continue
            by_dataset = j.get("loss_by_dataset")
            if by_dataset is not None:
                if dataset not in by_dataset:
                    continue  # no batch of this dataset since the previous line
                loss = by_dataset[dataset]
            elif share == 1:
                loss = j.get("loss")
            else:
                continue  # a mixed run's line from before per-dataset losses were logged
            if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not isinstance(j["step"], int):
                raise SystemExit(f"dataset_curves.py: {metrics}:{n}: the step and the loss of '{dataset}' must be "
                                 "numbers (a metrics.jsonl of falcon_train?)")
            points.append((offset + j["step"] * share, float(loss)))
    if not points:
        where = f" in stage '{stage}'" if stage is not None else ""
        raise SystemExit(f"dataset_curves.py: {metrics} has no SFT loss of '{dataset}'{where}")
    return points


def loss_near(points, batches, window=12.5):
    """The mean loss of the points within +-window batches, or None."""
    near = [loss for b, loss in points if abs(b - batches) <= window]
    return sum(near) / len(near) if near else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the table (FILE.md); the picture is FILE.png")
    parser.add_argument("--dataset", required=True, help="the dataset file's stem, e.g. mvc50")
    parser.add_argument("runs", nargs="+", help="LABEL=RUN_DIR[@STAGE][:SHARE[:OFFSET]]")
    args = parser.parse_args()
    runs = [parse_run(spec) for spec in args.runs]
    curves = [(label, curve(metrics, args.dataset, stage, share, offset)) for label, metrics, stage, share, offset in runs]

    last = max(b for _, points in curves for b, _ in points)
    marks = [50 * k for k in range(1, int(last // 50) + 1)]
    lines = [f"# {args.dataset}: SFT loss per token against its own batches", "",
             "Made by `dataset_curves.py " + shlex.join(sys.argv[1:]) + "`.", "",
             "Each cell: the mean of the logged losses within +-12.5 of the dataset's batches (a logged "
             "line of a run of several datasets is the mean over its batches since the previous line).", "",
             "| run | " + " | ".join(str(m) for m in marks) + " |",
             "|---|" + "---:|" * len(marks)]
    for label, points in curves:
        cells = [loss_near(points, m) for m in marks]
        lines.append(f"| {label} | " + " | ".join("" if c is None else f"{c:.2f}" for c in cells) + " |")
    picture = os.path.splitext(args.out)[0] + ".png"
    lines += ["", f"![{args.dataset}: loss against its own batches]({os.path.basename(picture)})"]
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, points in curves:
        ax.plot([b for b, _ in points], [loss for _, loss in points], marker=".", lw=1, label=label)
    ax.set(title=f"{args.dataset}: SFT loss per token", xlabel=f"{args.dataset} batches",
           ylabel="nats per token", ylim=(0, 4))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(picture, dpi=120)


if __name__ == "__main__":
    main()
