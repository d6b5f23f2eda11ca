#!/usr/bin/env python3
"""BOPO against the same wall time of more SFT and against GRPO at the same samples:
bopo_vs_sft.md and bopo_vs_sft.png from bopo_vs_sft.sh's runs.

usage: bopo_vs_sft.py [--out DIR] RUNS_DIR SEED...   (DIR: where the two files go; default this folder)

RUNS_DIR holds base/eval (the starting checkpoint's evaluation), `problem` (tsp when missing),
`base_checkpoint` (its path, when written) and
per seed the arms' runs bopo_seedS, grpo_seedS and sft_seedS, each where it was run (metrics.jsonl,
train.seconds, eval/step_N/summary.json). Per run: each evaluated
checkpoint's training wall time (curves.training_clock) and held-out figures; the last
checkpoint of each run is the comparison point, summarised as mean and spread over the seeds.
What RUNS_DIR lacks is read from DIR/runs, the copy of each finished run's small files that
bopo_vs_sft.sh keeps beside the report (same layout), so a report survives losing RUNS_DIR.
"""
import json
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from curves import evaluations, logged_steps, out_dir_and_args, training_clock, wall_at  # noqa: E402

ARMS = ("bopo", "grpo", "sft")
PREFERENCE_ARMS = ("bopo", "grpo")  # sampled groups: their degenerate (skipped) share is reported
PROBLEM_NAMES = {"tsp": "TSP-20", "jssp": "JSSP 6x6", "mis": "MIS (ER-50)", "mvc": "MVC (ER-50)", "cvrp": "CVRP-20",
                 "op": "OP-20", "pfsp": "PFSP 20x5"}


def figures(rows):
    """The held-out figures of one evaluation (eval_bopo.yaml's rows), in percent."""
    greedy, best = rows["greedy_raw"], rows["best_of_8"]
    return {"valid": 100 * greedy["feasible_raw"], "greedy_gap": 100 * greedy["gap_all"],
            "sample_valid": 100 * best["sample_feasible_raw"], "best8_gap": 100 * best["gap_all"]}


def preference_groups(metrics_path, arm):
    """(groups used, groups skipped, pairs) summed over a BOPO or GRPO run's logged steps, each once."""
    used = skipped = pairs = 0
    for j in logged_steps(metrics_path):
        if j.get("type") == arm:
            used += j.get("groups", 0)
            skipped += j.get("skipped_groups", 0)
            pairs += j.get("pairs", 0)
    return used, skipped, pairs


def run_points(run_dir):
    """[(wall minutes, step, figures)] for each evaluated checkpoint, by step."""
    clock = training_clock(os.path.join(run_dir, "metrics.jsonl"))
    return [(wall_at(clock, step) / 60, step, figures(rows)) for step, rows in sorted(evaluations(run_dir).items())]


def located(rel, runs, archive):
    """RUNS_DIR/rel when it exists, else the archive's copy, else None."""
    for root in (runs, archive):
        path = os.path.join(root, rel)
        if os.path.exists(path):
            return path
    return None


def mean_spread(values):
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{statistics.mean(values):.2f} ± {statistics.stdev(values):.2f}"


def main():
    here, args = out_dir_and_args(sys.argv[1:], __doc__)
    runs, seeds = args[0], args[1:]
    archive = os.path.join(here, "runs")
    base_path = located(os.path.join("base", "eval", "summary.json"), runs, archive)
    if base_path is None:
        sys.exit(f"bopo_vs_sft.py: neither {runs} nor {archive} has base/eval/summary.json "
                 "(the starting checkpoint's evaluation, which bopo_vs_sft.sh writes first)")
    with open(base_path) as f:
        base_summary = json.load(f)
    base = figures({r["row"]: r for r in base_summary["rows"]})
    held_out = base_summary.get("instances", "?")

    def setting(name):  # bopo_vs_sft.sh's settings, as written beside the runs
        path = located(name, runs, archive)
        if path is None:
            return ""
        with open(path) as f:
            return f.read().strip()

    problem = setting("problem") or "tsp"

    points, finals, table = {}, {arm: [] for arm in ARMS}, []
    for seed in seeds:
        for arm in ARMS:
            metrics = located(os.path.join(f"{arm}_seed{seed}", "metrics.jsonl"), runs, archive)
            if metrics is None:
                continue
            run_dir = os.path.dirname(metrics)
            pts = run_points(run_dir)
            if not pts:
                continue
            points[(arm, seed)] = pts
            minutes, step, last = pts[-1]
            finals[arm].append(last)
            groups = "-"
            if arm in PREFERENCE_ARMS:
                used, skipped, pairs = preference_groups(os.path.join(run_dir, "metrics.jsonl"), arm)
                groups = f"{100 * skipped / max(1, used + skipped):.1f}%" + (f" ({pairs} pairs)" if arm == "bopo" else "")
            table.append(f"| {arm} | {seed} | {step} | {minutes:.1f} | {last['valid']:.1f} | {last['greedy_gap']:.2f} | "
                         f"{last['sample_valid']:.1f} | {last['best8_gap']:.2f} | {groups} |")

    bopo_args, train_args, base_checkpoint = setting("bopo_args"), setting("train_args"), setting("base_checkpoint")
    arms_run = [arm for arm in ARMS if finals[arm]]
    lines = [f"# BOPO vs the same wall time of more SFT and GRPO at the same samples, "
             f"{PROBLEM_NAMES.get(problem, problem)} ({held_out} held-out instances)", "",
             "Made by `experiments/learning_curves/bopo_vs_sft.sh` (seeds " + " ".join(seeds) + (
                 f"; BOPO arm with `{bopo_args}`" if bopo_args else "") + (
                 f"; every arm with `{train_args}`" if train_args else "") + "). "
             "Arms run: " + ", ".join(arms_run) + "; all start from the same SFT checkpoint; figures in percent. "
             "`valid` / `greedy gap`: the model alone (greedy, grammar on, repair off; an invalid answer counts "
             "100%). `sample valid` / `best-of-8 gap`: FALCON best of 8 at temperature 0.7 (grammar and repair "
             "on), the samples' raw validity and the chosen answer's gap. `skipped`: the degenerate groups, over "
             "the logged steps (every 25th and the last): for BOPO those with fewer than two distinct feasible "
             "objectives (and the pairs it trained on), for GRPO those whose rewards were all equal.", "",
             "Starting checkpoint" + (f" (`{base_checkpoint}`)" if base_checkpoint else "") +
             f": {base['valid']:.1f}% valid, greedy gap {base['greedy_gap']:.2f}%, sample valid "
             f"{base['sample_valid']:.1f}%, best-of-8 gap {base['best8_gap']:.2f}%.", "",
             "## Last checkpoint of each run", "",
             "| arm | seed | steps | minutes | valid | greedy gap | sample valid | best-of-8 gap | skipped |",
             "|---|---|---|---|---|---|---|---|---|"] + table + ["",
             "## Mean ± standard deviation over the seeds", "",
             "| arm | runs | valid | greedy gap | sample valid | best-of-8 gap |", "|---|---|---|---|---|---|"]
    for arm in arms_run:
        f = finals[arm]
        lines.append(f"| {arm} | {len(f)} | " + " | ".join(mean_spread([x[k] for x in f]) for k in
                                                            ("valid", "greedy_gap", "sample_valid", "best8_gap")) + " |")
    lines += ["", "![greedy and best-of-8 gap against training wall time](bopo_vs_sft.png)", ""]
    with open(os.path.join(here, "bopo_vs_sft.md"), "w") as f:
        f.write("\n".join(lines))

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    colours = {"bopo": "tab:red", "grpo": "tab:green", "sft": "tab:blue"}
    for ax, key, title in zip(axes, ("greedy_gap", "best8_gap"),
                              ("model alone: greedy gap, no repair (%; invalid = 100%)", "FALCON best of 8: gap (%)")):
        for (arm, seed), pts in sorted(points.items()):
            ax.plot([0] + [p[0] for p in pts], [base[key]] + [p[2][key] for p in pts], marker="o", ms=3,
                    color=colours[arm], alpha=0.8, label=f"{arm} seed {seed}")
        ax.set_xlabel("training wall minutes after SFT (one thread)")
        ax.set_title(title)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(here, "bopo_vs_sft.png"), dpi=110)


if __name__ == "__main__":
    main()
