#!/usr/bin/env python3
"""Why the greedy answers of a compact_echo model are invalid: does it write wrong notes, or
ignore right ones?

usage: echo_errors.py DATASET.h5 EVAL_DIR...   (a MIS or CVRP dataset; EVAL_DIR: run.sh's <run>/eval/step_N)

For each answer of the greedy_raw row (grammar on, repair off), every ID is checked against the
notes written before it, as the model wrote them and as they should be (the test split's instance):
  MIS   a vertex named in an earlier note, or not above the previous vertex (ascending order)
  CVRP  a customer whose demand exceeds the capacity the previous note says is left, or a repeat
and every note against its true value. Prints one table row per EVAL_DIR.
"""
import json
import os
import re
import sys

import h5py

ITEM = re.compile(r"#(\d+) \(([^()\[\]]*)\)")


def test_split(path):
    """(problem, per-record instance fields) of the dataset's test split."""
    f = h5py.File(path, "r")
    problem = f.attrs["problem"]
    if problem not in ("mis", "cvrp"):
        sys.exit(f"echo_errors.py: {path} holds {problem}; this script reads MIS and CVRP answers")
    t = f["test/instance"]
    if problem == "mis":
        edges, off = t["edges"][:], t["edges_offsets"][:]
        n = f["test/n"][:]
        graphs = []
        for k in range(len(n)):
            adj = [set() for _ in range(n[k])]
            e = edges[off[k]:off[k + 1]].reshape(-1, 2)
            for u, v in e:
                adj[u].add(v)
                adj[v].add(u)
            graphs.append(adj)
        return "mis", graphs
    demands, off = t["demands"][:], t["demands_offsets"][:]
    return "cvrp", [(int(t["capacity"][k]), demands[off[k]:off[k + 1]]) for k in range(len(off) - 1)]


def mis_answer(adj, text):
    """(notes right, first broken rule or '') of one MIS answer."""
    items = [(int(v), note) for v, note in ITEM.findall(text)]
    written, true, previous = set(), set(), -1
    notes_right, broken = True, ""
    for v, note in items:
        if v >= len(adj):
            return notes_right, "ID out of range"
        if not broken:
            if v in written:
                broken = "named in its own earlier note"
            elif v in true:
                broken = "named in a true note the model wrote wrong"
            elif v <= previous:
                broken = "not ascending"
        should = "".join(f"#{w}" for w in sorted(w for w in adj[v] if w > v))
        notes_right &= note == should
        written |= {int(x) for x in re.findall(r"#(\d+)", note)}
        true |= {w for w in adj[v] if w > v}
        previous = max(previous, v)
    return notes_right, broken


def cvrp_answer(instance, text):
    capacity, demands = instance
    notes_right, broken, seen = True, "", set()
    body = text[text.find("[") + 1:text.rfind("]")] if "[" in text else ""
    for route in re.findall(r"\[([^\[\]]*)\]", body):
        said_left, true_left = capacity, capacity
        for v, note in ((int(v), note) for v, note in ITEM.findall(route)):
            if not 0 < v < len(demands):
                broken = broken or "ID out of range"
                continue
            if not broken:
                if v in seen:
                    broken = "repeats a customer"
                elif demands[v] > said_left:
                    broken = "over the capacity its own note leaves"
                elif demands[v] > true_left:
                    broken = "over the true capacity (its note was wrong)"
            seen.add(v)
            true_left -= int(demands[v])
            notes_right &= note == str(max(true_left, 0))
            said_left = int(note) if note.isdigit() else said_left
    if not broken and len(seen) < len(demands) - 1:
        broken = "misses a customer"
    return notes_right, broken


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    kind, instances = test_split(sys.argv[1])
    print("| eval | answers | raw valid | notes all right | first broken rule (count) |")
    print("|---|---:|---:|---:|---|")
    for eval_dir in sys.argv[2:]:
        rows = [json.loads(line) for line in open(os.path.join(eval_dir, "instances.jsonl"))]
        rows = [r for r in rows if r["row"] == "greedy_raw"]
        right, reasons = 0, {}
        for r in rows:
            check = mis_answer if kind == "mis" else cvrp_answer
            notes_right, broken = check(instances[r["key"]], r["solution"] or "")
            right += notes_right
            if broken:
                reasons[broken] = reasons.get(broken, 0) + 1
        valid = sum(r["feasible_raw"] for r in rows)
        why = ", ".join(f"{k} ({v})" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
        print(f"| {eval_dir} | {len(rows)} | {valid} | {right} | {why} |")


if __name__ == "__main__":
    main()
