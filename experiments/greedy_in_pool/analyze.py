#!/usr/bin/env python3
"""What the greedy answer adds to FALCON's sampled rows, from Table 1's archived points.

Table 1's FALCON point of each problem (experiments/points/<scale>/table1_falcon/<p>/instances.jsonl)
holds, per instance, the greedy row (FALCON N=1), best of 8 and adaptive. Sample k of an instance
draws from its own stream whatever else the run decodes, and the greedy decode is the argmax, so an
instance's answer under `with_greedy: true` (docs/evaluation.md) is the better of its greedy answer
and that row's: this script reads what those rows would have delivered without running a model.

usage: analyze.py [--scale small|paper] [--points DIR] [--out DIR]
  writes results.md and results.png into --out (default: beside this script); --points: the folder
  of the table1_falcon points (default experiments/points/<scale>/table1_falcon)
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROBLEMS = ("tsp", "op", "cvrp", "mis", "mvc", "pfsp", "jssp")
ROWS = {"greedy": "FALCON N=1", "best8": "FALCON N=8", "adaptive": "FALCON adaptive"}


def read_point(path):
    """{row name: {instance: gap or None (infeasible)}} and each row's mean seconds an instance."""
    gaps, seconds = {}, {}
    with open(os.path.join(path, "instances.jsonl")) as f:
        for n, line in enumerate(f, 1):
            try:
                r = json.loads(line)
                gaps.setdefault(r["row"], {})[r["instance"]] = r["gap"] if r["feasible"] else None
            except (ValueError, KeyError) as e:
                sys.exit(f"analyze.py: {path}/instances.jsonl:{n}: not a falcon_eval result line ({e})")
    with open(os.path.join(path, "summary.json")) as f:
        for row in json.load(f)["rows"]:
            seconds[row["row"]] = row["seconds"]
    return gaps, seconds


def mean_gap(values):
    """Mean gap in percent, an instance without a feasible answer counting 100% (falcon_eval's gap_all)."""
    return 100 * sum(1.0 if v is None else v for v in values) / len(values)


def better(a, b):
    """The better of two gaps (None: infeasible)."""
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def analyze(point):
    gaps, seconds = read_point(point)
    missing = [name for name in ROWS.values() if name not in gaps]
    if missing:
        sys.exit(f"analyze.py: {point} has no row {missing[0]!r} (Table 1's eval_falcon.yaml rows)")
    greedy = gaps[ROWS["greedy"]]
    out = {"instances": len(greedy), "seconds": {k: seconds[name] for k, name in ROWS.items()}}
    for key in ("greedy", "best8", "adaptive"):
        out[key] = mean_gap([gaps[ROWS[key]][i] for i in greedy])
    for key in ("best8", "adaptive"):
        row = gaps[ROWS[key]]
        out[key + "_with_greedy"] = mean_gap([better(greedy[i], row[i]) for i in greedy])
        out[key + "_greedy_wins"] = sum(better(greedy[i], row[i]) != row[i] for i in greedy)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", default="small", choices=("small", "paper"))
    parser.add_argument("--points", help="the table1_falcon points folder")
    parser.add_argument("--out", default=HERE, help="where results.md and results.png go")
    args = parser.parse_args()
    points = args.points or os.path.join(ROOT, "experiments", "points", args.scale, "table1_falcon")
    results = {p: analyze(os.path.join(points, p)) for p in PROBLEMS if os.path.isdir(os.path.join(points, p))}
    if not results:
        sys.exit(f"analyze.py: no Table 1 FALCON points under {points} (experiments/table1_main/run.sh makes them)")

    lines = ["# The greedy answer among FALCON's candidates", "",
             f"Made by `experiments/greedy_in_pool/analyze.py --scale {args.scale}` from Table 1's FALCON points "
             f"(`experiments/points/{args.scale}/table1_falcon/<p>`: the tables' BOPO models on their held-out "
             "test instances, grammar and repair on, T 0.7). `+ greedy`: per instance, the better of the greedy "
             "answer (FALCON N=1) and the row's, which is what the row delivers with `with_greedy: true` "
             "(`docs/evaluation.md`): sample k of an instance draws from its own stream and the greedy decode "
             "is the argmax, so neither changes when they share a run. Gaps in percent (an infeasible answer "
             "counts 100%); `greedy better`: the instances on which the greedy answer beats the row's. "
             "Seconds: each row's mean per instance, one thread, as Table 1 ran them.", "",
             "| problem | instances | greedy | best of 8 | best of 8 + greedy | greedy better | adaptive | "
             "adaptive + greedy | greedy better | seconds: greedy / best of 8 / adaptive |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for p, r in results.items():
        s = r["seconds"]
        lines.append(f"| {p.upper()} | {r['instances']} | {r['greedy']:.2f} | {r['best8']:.2f} | "
                     f"{r['best8_with_greedy']:.2f} | {r['best8_greedy_wins']} | {r['adaptive']:.2f} | "
                     f"{r['adaptive_with_greedy']:.2f} | {r['adaptive_greedy_wins']} | "
                     f"{s['greedy']:.3g} / {s['best8']:.3g} / {s['adaptive']:.3g} |")
    lines += ["", "![best of 8 and adaptive with and without the greedy answer](results.png)", ""]
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("\n".join(lines))

    fig, ax = plt.subplots(figsize=(9, 3.6))
    names = list(results)
    bars = [("best8", "best of 8", "tab:blue", None), ("best8_with_greedy", "best of 8 + greedy", "tab:blue", "//"),
            ("adaptive", "adaptive (up to 64)", "tab:orange", None),
            ("adaptive_with_greedy", "adaptive + greedy", "tab:orange", "//")]
    width = 0.2
    for k, (key, label, colour, hatch) in enumerate(bars):
        xs = [i + (k - 1.5) * width for i in range(len(names))]
        ax.bar(xs, [results[p][key] for p in names], width, label=label, color=colour,
               alpha=0.5 if hatch else 0.9, hatch=hatch, edgecolor=colour)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels([p.upper() for p in names])
    ax.set_ylabel("held-out gap %")
    ax.set_title("FALCON's sampled rows with the greedy answer among the candidates (Table 1's models)", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "results.png"), dpi=110)
    plt.close(fig)
    print(os.path.join(args.out, "results.md"))


if __name__ == "__main__":
    main()
