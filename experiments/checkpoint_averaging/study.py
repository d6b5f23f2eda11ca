#!/usr/bin/python3
"""Checkpoint averaging against the single checkpoints of one run, the model alone on held-out data.

For every checkpoint under RUN/checkpoints, for the start the run continued (--start, a model
directory) and for the mean of the newest k checkpoints (falcon_average, each k of --ks, with and
without the start), the model alone (greedy, grammar, no repair: EVAL's first row) on the
validation and the test split. k is chosen on the validation split; the test split only reports.
Writes OUT/points.json (every figure), OUT/table.md and OUT/curve.png.

  experiments/checkpoint_averaging/study.py --run runs/jssp_avg --start models/jssp \
      --eval experiments/checkpoint_averaging/eval_jssp.yaml --ks 2,4,6,10 --out experiments/checkpoint_averaging/jssp

Points already in OUT/points.json are kept, so a rerun evaluates only what is missing; `--ks ""`
evaluates the checkpoints written so far (while the run trains) and nothing else.
"""
import argparse
import json
import os
import re
import subprocess
import sys

BUILD = os.environ.get("BUILD", "build")
SPLITS = ("val", "test")


def step_of(path):
    return int(re.search(r"step_(\d+)$", path).group(1))


def run(cmd):
    """Runs a program quietly; on failure, its own error and the command, then exit."""
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{done.stderr.strip()}\nfailed: {' '.join(cmd)}")


def evaluate(model_keys, split, eval_config, out_dir):
    """EVAL's first row (the model alone) and second (the heuristic) on `split`."""
    run([f"{BUILD}/tools/falcon_eval", eval_config, f"data.split={split}", f"output_dir={out_dir}", "--quiet",
         *model_keys])
    with open(os.path.join(out_dir, "summary.json")) as f:
        rows = json.load(f)["rows"]
    return {"alone": rows[0]["gap_all"], "alone_of_valid": rows[0]["gap_feasible"], "valid": rows[0]["feasible_raw"],
            "heuristic": rows[1]["gap_all"]}


def mean_name(steps, with_start):
    """The name of the mean of these checkpoints: the steps it spans, so a later rerun never reuses it."""
    return f"mean_{step_of(steps[0])}-{step_of(steps[-1])}" + ("+start" if with_start else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", required=True, help="a falcon_train output_dir (its checkpoints/)")
    ap.add_argument("--start", required=True, help="the model directory the run continued (init.checkpoint)")
    ap.add_argument("--tokenizer", help="the run's tokenizer (default: the start's tokenizer.model)")
    ap.add_argument("--eval", required=True, help="a falcon_eval config: row 1 the model alone, row 2 the heuristic")
    ap.add_argument("--ks", default="2,4,8", help="how many of the newest checkpoints to average (\"\": none)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    tokenizer = args.tokenizer or os.path.join(args.start, "tokenizer.model")
    os.makedirs(args.out, exist_ok=True)
    points_file = os.path.join(args.out, "points.json")
    points = json.load(open(points_file)) if os.path.exists(points_file) else {}
    work = os.path.join(args.run, "averaging")

    def point(name, model_keys):
        for split in SPLITS:
            key = f"{name}@{split}"
            if key not in points:
                points[key] = evaluate(model_keys, split, args.eval, os.path.join(work, "eval", f"{name}_{split}"))
                with open(points_file, "w") as f:
                    json.dump(points, f, indent=1, sort_keys=True)
            print(f"{key:28s} model alone {100 * points[key]['alone']:6.2f}%  valid {100 * points[key]['valid']:5.1f}%",
                  flush=True)

    ckpt_root = os.path.join(args.run, "checkpoints")
    steps = sorted((os.path.join(ckpt_root, d) for d in os.listdir(ckpt_root) if re.fullmatch(r"step_\d+", d)), key=step_of)
    ks = [int(x) for x in args.ks.split(",") if x]
    if not steps or (ks and (max(ks) > len(steps) or min(ks) < 2)):
        sys.exit(f"--ks {args.ks}: {ckpt_root} holds {len(steps)} checkpoints; give counts from 2 to that")
    point("start", [f"model.path={args.start}", f"model.tokenizer={tokenizer}"])
    for s in steps:
        point(f"step_{step_of(s)}", ["model.path=", f"model.checkpoint={s}", f"model.tokenizer={tokenizer}"])
    if not ks:
        return
    means = []
    for k in ks:
        for with_start in (False, True):
            name = mean_name(steps[-k:], with_start)
            model_dir = os.path.join(work, name)
            if not os.path.exists(model_dir):
                inputs = steps[-k:] + ([args.start] if with_start else [])
                run([f"{BUILD}/tools/falcon_average", *inputs, "--tokenizer", tokenizer, "--out", model_dir])
            point(name, [f"model.path={model_dir}", f"model.tokenizer={tokenizer}"])
            means.append((k, with_start, name))
    write_table(points, steps, means, args)
    plot(points, steps, means, args)


def write_table(points, steps, means, args):
    singles = [f"step_{step_of(s)}" for s in steps]
    chosen = min((name for _, _, name in means), key=lambda n: points[f"{n}@val"]["alone"])
    last = singles[-1]
    pct = lambda x: f"{100 * x:.2f}%"
    lines = [f"Run `{args.run}` from `{args.start}`. The model alone (greedy, grammar, no repair), its gap with an",
             f"invalid answer at 100%; the heuristic: test {pct(points['start@test']['heuristic'])}, "
             f"val {pct(points['start@val']['heuristic'])}.", "",
             "| model | val gap | test gap | test valid | test gap of the valid |", "|---|---:|---:|---:|---:|"]
    labels = [("start", "the start")] + [(n, n) for n in singles] + [
        (name, f"mean of the last {k}" + (" and the start" if with_start else "") + f" ({name[5:]})")
        for k, with_start, name in means]
    for name, label in labels:
        v, t = points[f"{name}@val"], points[f"{name}@test"]
        mark = " **(chosen on val)**" if name == chosen else (" (the run's end)" if name == last else "")
        lines.append(f"| {label}{mark} | {pct(v['alone'])} | {pct(t['alone'])} | {100 * t['valid']:.1f}% | "
                     f"{pct(t['alone_of_valid'])} |")
    lines += ["", f"Chosen on val: `{chosen}`, test {pct(points[chosen + '@test']['alone'])}; the run's end "
              f"{pct(points[last + '@test']['alone'])}; the start {pct(points['start@test']['alone'])}."]
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def plot(points, steps, means, args):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no curve.png", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = [step_of(s) for s in steps]
    for split, colour in (("val", "tab:blue"), ("test", "tab:orange")):
        ax.plot([0] + xs, [100 * points[f"{n}@{split}"]["alone"] for n in ["start"] + [f"step_{x}" for x in xs]],
                "o-", color=colour, ms=3, label=f"single checkpoints, {split}")
        for k, with_start, name in means:
            if with_start:
                continue
            y = 100 * points[f"{name}@{split}"]["alone"]
            ax.plot([xs[-k], xs[-1]], [y, y], "-", color=colour, lw=2, alpha=0.5)
            ax.annotate(f"mean of {k}", (xs[-k], y), fontsize=7, color=colour, va="bottom")
        ax.axhline(100 * points[f"start@{split}"]["heuristic"], color=colour, ls=":", lw=1, label=f"heuristic, {split}")
    ax.set_xlabel("step of the run (0: the start)")
    ax.set_ylabel("model alone, gap %")
    ax.set_title("checkpoint averaging: bars span the checkpoints averaged")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "curve.png"), dpi=120)


if __name__ == "__main__":
    main()
