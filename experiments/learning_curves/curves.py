#!/usr/bin/env python3
"""Learning curves from run.sh's runs: tables.md and curves.png (pictures).

usage: curves.py [--out DIR] RUNS_DIR VARIANT...   (DIR: where tables.md and curves.png go; default this folder)

Per variant: the SFT loss per solution token from metrics.jsonl, and for each evaluated checkpoint
the held-out greedy decode (grammar on) without repair (raw validity, mean gap over the valid
tours) and with repair (mean gap over all instances), against training wall time. Wall time is
the sum of the gaps between consecutive metrics lines, a stop and resume charged at the running
rate (training_clock), plus the first line's share. CURVES_MINUTES_ARE (environment) says what the
minutes are: one thread each, two runs side by side, unless it says otherwise (a GPU's runs).
"""
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def logged_steps(metrics_path):
    """The metrics log's step lines (dicts) on the path that reached its last step.

    A resumed run repeats the steps after its checkpoint: the lines the interrupted run wrote past
    that checkpoint are dropped, so each step is counted once, as the run that went on logged it.
    """
    lines = []
    with open(metrics_path) as f:
        for line in f:
            j = json.loads(line)
            if "step" not in j:
                continue
            while lines and lines[-1]["step"] >= j["step"]:  # lost when the run resumed from a checkpoint
                lines.pop()
            lines.append(j)
    return lines


def training_clock(metrics_path):
    """step -> (wall seconds of training, loss) from the metrics log (logged_steps).

    An interval more than twice as slow as the one before it (a stop and resume, a restart's
    loading) is charged at the earlier rate.
    """
    points = [(j["step"], j["time"], j["loss"]) for j in logged_steps(metrics_path)]
    if not points:
        return {}
    out, clock, rate = {}, 0.0, None
    for k, (step, t, loss) in enumerate(points):
        if k > 0:
            prev_step, prev_t, _ = points[k - 1]
            dt, steps = t - prev_t, step - prev_step
            if rate is not None and (dt < 0 or dt / steps > 2 * rate):
                clock += rate * steps
            else:
                rate = dt / steps
                clock += dt
        out[step] = (clock, loss)
    # The first line came after points[0][0] steps: charge them at the run's mean rate.
    first = points[0][0]
    mean_rate = clock / max(1, points[-1][0] - first)
    return {s: (c + mean_rate * first, loss) for s, (c, loss) in out.items()}


def smoothed_loss(clock, step, window=100):
    vals = [loss for s, (_, loss) in clock.items() if abs(s - step) <= window]
    return sum(vals) / len(vals) if vals else float("nan")


def wall_at(clock, step):
    """Wall seconds of training at `step`: logged, or interpolated between the logged steps around
    it (from 0 s at step 0), since checkpoints need not fall on logged steps; past the last
    logged step, that step's time."""
    if step in clock:
        return clock[step][0]
    if not clock:
        return float("nan")
    before = [s for s in clock if s < step]
    after = [s for s in clock if s > step]
    s0, t0 = (max(before), clock[max(before)][0]) if before else (0, 0.0)
    if not after:
        return t0
    s1 = min(after)
    return t0 + (clock[s1][0] - t0) * (step - s0) / (s1 - s0)


def evaluations(run_dir):
    out = {}
    eval_dir = os.path.join(run_dir, "eval")
    if not os.path.isdir(eval_dir):
        return out
    for name in os.listdir(eval_dir):
        path = os.path.join(eval_dir, name, "summary.json")
        if not name.startswith("step_") or not os.path.isfile(path):
            continue
        with open(path) as f:
            summary = json.load(f)
        rows = {r["row"]: r for r in summary["rows"]}
        out[int(name[5:])] = rows
    return out


def out_dir_and_args(argv, usage, minimum=2):
    """(where the outputs go, the other arguments) from `[--out DIR] ARG...`; DIR defaults to this
    folder. Exits with `usage` when fewer than `minimum` arguments are left."""
    out, args = os.path.dirname(os.path.abspath(__file__)), list(argv)
    if len(args) >= 2 and args[0] == "--out":
        out, args = args[1], args[2:]
    if len(args) < minimum:
        sys.exit(usage)
    os.makedirs(out, exist_ok=True)
    return out, args


def main():
    here, args = out_dir_and_args(sys.argv[1:], __doc__)
    runs, variants = args[0], args[1:]
    lines = ["# Learning curves (held-out greedy decoding)", "",
             "Made by `experiments/learning_curves/run.sh` (" + " ".join(variants) + "), then "
             "`curves.py " + runs + " " + " ".join(variants) + "`.", "",
             "Columns: training wall minutes (" + os.environ.get("CURVES_MINUTES_ARE", "one thread each, two runs side by side") +
             "), SFT loss per solution "
             "token (mean of the logged steps within +-100), greedy decoding with the grammar and without "
             "repair (share of valid solutions, mean gap over the valid ones), and FALCON greedy (with repair: "
             "mean gap over all the instances).", ""]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    heuristics = {}  # variant -> (solver row, gap %): the problem's simple heuristic on the same instances
    for v in variants:
        run_dir = os.path.join(runs, v)
        metrics = os.path.join(run_dir, "metrics.jsonl")
        if not os.path.isfile(metrics):
            lines += ["## " + v, "", "not run", ""]
            continue
        clock = training_clock(metrics)
        evals = evaluations(run_dir)
        # A run started from another's checkpoint (init.checkpoint) names it in a file `continues`
        # ("RUN STEP"): its minutes and sequences then count from that point of the other run.
        offset_minutes, offset_steps = 0.0, 0
        continues = os.path.join(run_dir, "continues")
        if os.path.isfile(continues):
            with open(continues) as f:
                parent, parent_step = f.read().split()
            offset_steps = int(parent_step)
            offset_minutes = wall_at(training_clock(os.path.join(runs, parent, "metrics.jsonl")), offset_steps) / 60
            clock = {s: (c + offset_minutes * 60, loss) for s, (c, loss) in clock.items()}
        lines += ["## " + v, ""]
        if offset_steps:
            lines += [f"Continues {parent} from its step {offset_steps} ({offset_minutes:.1f} minutes): steps, "
                      "sequences and minutes count from the start of that run.", ""]
        steps = sorted(clock)
        (loss_line,) = axes[0].plot([clock[s][0] / 60 for s in steps], [clock[s][1] for s in steps], label=v, lw=0.8)
        tokens_file = os.path.join(run_dir, "solution_tokens")
        if os.path.isfile(tokens_file):
            with open(tokens_file) as f:
                tokens = int(f.read())
            uniform = math.lgamma(20) / tokens  # ln 19!: uniform over the unvisited nodes after #0
            lines += [f"A TSP-20 label is {tokens} tokens (EOS included) in this text and tokenizer. Choosing "
                      f"uniformly among the unvisited nodes costs ln 19! = {math.lgamma(20):.1f} nats a tour: "
                      f"{uniform:.3f} per token, plus the objective's digits (not counted here).", ""]
            axes[0].axhline(uniform, lw=0.8, ls=":", color=loss_line.get_color(), label=v + ": uniform over unvisited")
        lines += ["| step | sequences | minutes | loss/token | raw valid % | raw gap % (valid) | "
                  "repaired gap % |", "|---:|---:|---:|---:|---:|---:|---:|"]
        batch = 32
        pts = []
        for step in sorted(evals):
            rows = evals[step]
            for name, row in rows.items():
                if name.startswith("solver:"):
                    heuristics[v] = (name[len("solver:"):], 100 * row["gap_all"])
            raw, rep = rows.get("greedy_raw"), rows.get("greedy_repair")
            minutes = wall_at(clock, step) / 60
            loss = smoothed_loss(clock, step)
            valid = 100 * raw["feasible_raw"] if raw else float("nan")
            raw_gap = 100 * raw["gap_feasible"] if raw and raw["feasible_raw"] > 0 else float("nan")
            rep_gap = 100 * rep["gap_all"] if rep else float("nan")
            pts.append((minutes, valid, raw_gap, rep_gap))
            lines.append(f"| {step + offset_steps} | {(step + offset_steps) * batch} | {minutes:.1f} | {loss:.3f} | "
                         f"{valid:.1f} | {raw_gap:.1f} | {rep_gap:.1f} |")
        lines.append("")
        if pts:
            colour = loss_line.get_color()  # one colour per variant in every panel
            axes[1].plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=v, color=colour)
            axes[2].plot([p[0] for p in pts], [p[2] for p in pts], marker="o", label=v + " raw (valid)", color=colour)
            axes[2].plot([p[0] for p in pts], [p[3] for p in pts], marker="x", ls="--", label=v + " repaired", color=colour)
    axes[0].set(title="SFT loss per solution token", xlabel="training minutes", ylabel="nats", ylim=(0, 2.0))
    axes[1].set(title="greedy, grammar, no repair: valid solutions", xlabel="training minutes", ylabel="%", ylim=(0, 101))
    axes[2].set(title="greedy gap to the reference", xlabel="training minutes", ylabel="%")
    for name, gap in sorted({(name, round(gap, 1)) for name, gap in heuristics.values()}):
        axes[2].axhline(gap, color="grey", lw=0.8, ls=":", label=f"{name.replace('_', ' ')} ({gap:.1f}%)")
    for v, (name, gap) in sorted(heuristics.items()):
        lines += [f"{v}: {name.replace('_', ' ')} on the same instances: {gap:.1f}% gap.", ""]
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(here, "curves.png"), dpi=110)
    with open(os.path.join(here, "tables.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
