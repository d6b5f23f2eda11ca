#!/usr/bin/env python3
"""How an OP model's greedy routes differ from the labels: locality, size and length.

usage: op_routes.py DATASET.h5 EVAL_DIR...   (an OP dataset; EVAL_DIR: run.sh's <run>/eval/step_N)

Per EVAL_DIR, over the greedy_raw answers (grammar on, repair off) and the test split's labels of
the same instances: how often the next node is among the current node's 4 nearest (the compact
prompt's candidates: the start and end excluded), how many nodes a route visits, and its length
over the budget (start -> route -> end; over 1 means infeasible). Prints one table row each.
"""
import json
import os
import re
import sys

import h5py
import numpy


def test_split(path):
    f = h5py.File(path, "r")
    if f.attrs["problem"] != "op":
        sys.exit(f"op_routes.py: {path} holds {f.attrs['problem']}, not op")
    t = f["test/instance"]
    coords, off = t["coords"][:], t["coords_offsets"][:]
    items, lists = f["test/solution/items"][:], f["test/solution/list_offsets"][:]
    return [(coords[off[k]:off[k + 1]].reshape(-1, 2), float(t["budget"][k]), int(t["start"][k]), int(t["end"][k]),
             [int(v) for v in items[lists[k]:lists[k + 1]]]) for k in range(len(off) - 1)]


def route_stats(instance, route):
    """(share of steps to one of the 4 nearest, nodes, length / budget) of one route."""
    points, budget, start, end, _ = instance
    d = numpy.linalg.norm(points[:, None] - points[None], axis=2)
    route = [v for v in route if 0 <= v < len(points)]
    path = [start] + route + [end]
    length = sum(d[a, b] for a, b in zip(path, path[1:]))
    near = 0
    for a, b in zip(route, route[1:]):
        nearest = [k for k in numpy.argsort(d[a], kind="stable") if k not in (a, start, end)][:4]
        near += b in nearest
    return near / max(1, len(route) - 1), len(route), length / budget


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    instances = test_split(sys.argv[1])
    print("| eval | answers | model: next among 4 nearest | nodes | length / budget "
          "| labels: next among 4 nearest | nodes | length / budget |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for eval_dir in sys.argv[2:]:
        rows = [json.loads(line) for line in open(os.path.join(eval_dir, "instances.jsonl"))]
        rows = [r for r in rows if r["row"] == "greedy_raw"]
        model, label = [], []
        for r in rows:
            text = (r["solution"] or "").split("Objective")[0]
            ids = [int(v) for v in re.findall(r"#(\d+)", re.sub(r"\([^()]*\)", "", text))]  # echo notes dropped
            model.append(route_stats(instances[r["key"]], ids))
            label.append(route_stats(instances[r["key"]], instances[r["key"]][4]))
        m, lab = numpy.mean(model, axis=0), numpy.mean(label, axis=0)
        print(f"| {eval_dir} | {len(rows)} | {m[0]:.0%} | {m[1]:.1f} | {m[2]:.2f} | {lab[0]:.0%} | {lab[1]:.1f} | {lab[2]:.2f} |")


if __name__ == "__main__":
    main()
