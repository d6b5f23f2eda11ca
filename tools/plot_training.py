#!/usr/bin/python3
"""Training curves of a falcon_train run: loss, learning rate, mean reward and tokens/s per
stage against the global step, from its metrics.jsonl (fields: docs/training.md), as one PNG;
for a run of several datasets (loss_by_dataset), each stage's loss per dataset too.

  tools/plot_training.py runs/bopo_tsp                  # -> runs/bopo_tsp/training.png
  tools/plot_training.py runs/bopo_tsp/metrics.jsonl -o curves.png

Needs python3-matplotlib (tools/setup.sh installs it). Errors are one line naming the file and
line, with a non-zero exit code.
"""
import argparse
import json
import os
import sys

PANELS = [  # (field, title, log scale)
    ("loss", "loss", False),
    ("lr", "learning rate", True),  # stages' rates differ by orders of magnitude
    ("mean_reward", "mean reward (GRPO / FOARL)", False),
    ("tokens_per_second", "tokens / s (all ranks)", False),
]


class PlotError(Exception):
    pass


def read_steps(path):
    """The step lines of metrics.jsonl, grouped by stage in order of appearance."""
    if not os.path.isfile(path):
        raise PlotError(f"{path}: no such file (give a run's output_dir or its metrics.jsonl)")
    stages = {}
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            if not text.strip():
                continue
            try:
                line = json.loads(text)
            except json.JSONDecodeError as e:
                raise PlotError(f"{path}:{number}: not a JSON object ({e.msg}); metrics.jsonl has one per line")
            if not isinstance(line, dict):
                raise PlotError(f"{path}:{number}: a JSON {type(line).__name__}, not an object")
            if "eval" in line:
                continue  # evaluation lines: no step curve
            missing = [k for k in ("stage", "global_step", "loss") if k not in line]
            if missing:
                raise PlotError(f"{path}:{number}: missing {', '.join(missing)}: not a falcon_train metrics line")
            by_dataset = line.get("loss_by_dataset", {})
            if not isinstance(by_dataset, dict) or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in by_dataset.values()):
                raise PlotError(f"{path}:{number}: loss_by_dataset is not an object of numbers (name: loss)")
            stages.setdefault(str(line["stage"]), []).append(line)
    if not stages:
        raise PlotError(f"{path}: no step lines yet (the run logs every logging.every steps)")
    return stages


def plot(stages, title, out):
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    def has_data(field):
        values = [l[field] for ls in stages.values() for l in ls if isinstance(l.get(field), (int, float))]
        return bool(values) and (field != "mean_reward" or any(values))  # 0 outside GRPO / FOARL

    panels = [p for p in PANELS if has_data(p[0])]
    # Stages whose lines carry each dataset's loss: one panel each (an SFT and a preference loss
    # are not on one scale), one colour per dataset in all of them.
    dataset_stages = [stage for stage, lines in stages.items() if any(l.get("loss_by_dataset") for l in lines)]
    datasets = list(dict.fromkeys(name for stage in dataset_stages for l in stages[stage]
                                  for name in l.get("loss_by_dataset", {})))
    rows = len(panels) + len(dataset_stages)
    fig, axes = plt.subplots(rows, 1, figsize=(8, 2.6 * rows), sharex=True, squeeze=False)
    colors = {stage: f"C{i % 10}" for i, stage in enumerate(stages)}  # one colour per stage in every panel
    for ax, stage in zip(axes[len(panels):, 0], dataset_stages):
        for i, name in enumerate(datasets):
            points = [(l["global_step"], l["loss_by_dataset"][name]) for l in stages[stage]
                      if name in l.get("loss_by_dataset", {})]
            if points:
                xs, ys = zip(*points)
                ax.plot(xs, ys, marker="." if len(xs) < 30 else None, label=name, color=f"C{i % 10}")
        ax.set_ylabel(f"{stage} loss\nby dataset")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", ncol=min(len(datasets), 4))
    for ax, (field, label, log) in zip(axes[:, 0], panels):
        ys_all = []
        for stage, lines in stages.items():
            points = [(l["global_step"], l[field]) for l in lines if isinstance(l.get(field), (int, float))]
            if points:
                xs, ys = zip(*points)
                ys_all += ys
                ax.plot(xs, ys, marker="." if len(xs) < 30 else None, label=stage, color=colors[stage])
        ax.set_ylabel(label)
        if log and min(ys_all) > 0:
            ax.set_yscale("log")
        ax.grid(alpha=0.3)
    axes[0, 0].legend(title="stage", fontsize="small")
    axes[0, 0].set_title(title)
    axes[-1, 0].set_xlabel("global step")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="a run's output_dir, or its metrics.jsonl")
    parser.add_argument("-o", "--output", help="PNG to write (default: training.png next to metrics.jsonl)")
    args = parser.parse_args()
    path = os.path.join(args.run, "metrics.jsonl") if os.path.isdir(args.run) else args.run
    out = args.output or os.path.join(os.path.dirname(os.path.abspath(path)), "training.png")
    try:
        stages = read_steps(path)
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise PlotError("matplotlib is not installed: run tools/setup.sh (Debian package python3-matplotlib)")
        plot(stages, os.path.basename(os.path.dirname(os.path.abspath(path))), out)
    except PlotError as e:
        print(f"plot_training: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"plot_training: {e.filename or out}: {e.strerror}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
