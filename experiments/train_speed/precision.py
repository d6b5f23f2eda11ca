#!/usr/bin/env python3
"""Prints the figures of experiments/train_speed/precision.sh from its folder (runs/precision):
per precision, the model alone on the 200 held-out instances at every checkpoint against the
training wall time, the time to a 15% gap, and the recipe's own end-of-stage evaluations (best of 8
with repair on 100 instances); a picture of the curves beside the results file when matplotlib is there."""
import json
import pathlib
import sys

TARGET = 0.15  # the model alone's gap over all answers (an invalid one counts 100%)


def metrics(run):
    return [json.loads(l) for l in (run / "metrics.jsonl").read_text().splitlines() if l.strip()]


def training_seconds(run):
    """Seconds of training at each logged global step, the start extrapolated back from the first
    two log lines (the tokenizer's training and the data's loading come before)."""
    steps = [m for m in metrics(run) if "global_step" in m and "time" in m]
    first, second = steps[0], steps[1]
    per_step = (second["time"] - first["time"]) / (second["global_step"] - first["global_step"])
    start = first["time"] - first["global_step"] * per_step
    return {m["global_step"]: m["time"] - start for m in steps}


def curve(run):
    seconds = training_seconds(run)
    points = []
    for summary in (run / "eval").glob("step_*/summary.json"):
        step = int(summary.parent.name.split("_")[1])
        rows = {r["row"]: r for r in json.loads(summary.read_text())["rows"]}
        alone = rows["greedy_raw"]
        points.append((step, seconds.get(step), alone["feasible_raw"], alone["gap_all"], alone["gap_feasible"]))
    return sorted(points)


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "runs/precision")
    curves = {}
    print("| precision | step | minutes of training | model alone: valid | gap, all answers | gap of the valid |")
    print("|---|---:|---:|---:|---:|---:|")
    for precision in ["none", "bf16"]:
        curves[precision] = curve(out / precision)
        for step, secs, valid, gap_all, gap_valid in curves[precision]:
            minutes = "-" if secs is None else f"{secs / 60:.1f}"
            valid_gap = "-" if gap_valid is None else f"{100 * gap_valid:.2f}%"  # none valid
            print(f"| {precision} | {step} | {minutes} | {100 * valid:.1f}% | {100 * gap_all:.2f}% | {valid_gap} |")
    print()
    print("| precision | minutes to a model alone at or below 15% (all answers) | end of SFT: best of 8, repair | end of BOPO |")
    print("|---|---:|---:|---:|")
    for precision, points in curves.items():
        reached = [secs for _, secs, _, gap_all, _ in points if gap_all <= TARGET and secs is not None]
        stages = {m["stage"]: m["eval"] for m in metrics(out / precision) if "eval" in m}
        cells = [f"{100 * stages[s]['gap_all']:.2f}% ({100 * stages[s]['sample_feasible_raw']:.0f}% of samples valid)"
                 if s in stages else "-" for s in ("sft", "bopo")]
        print(f"| {precision} | {f'{min(reached) / 60:.1f}' if reached else 'not reached'} | {cells[0]} | {cells[1]} |")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    for precision, points in curves.items():
        xs = [secs / 60 for _, secs, *_ in points if secs is not None]
        ys = [100 * gap_all for _, secs, _, gap_all, _ in points if secs is not None]
        ax.plot(xs, ys, marker="o", label={"none": "fp32", "bf16": "bf16 autocast"}[precision])
    ax.axhline(100 * TARGET, color="grey", linestyle=":", label="15%")
    ax.set_xlabel("minutes of training (one thread each, side by side)")
    ax.set_ylabel("model alone: held-out gap, all answers (%)")
    ax.set_title("configs/bopo_tsp.yaml, fp32 against bf16")
    ax.legend()
    fig.tight_layout()
    fig.savefig(pathlib.Path(__file__).parent / "precision.png", dpi=110)


if __name__ == "__main__":
    main()
