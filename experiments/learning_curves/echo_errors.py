#!/usr/bin/env python3
"""Why the greedy answers of a compact_echo model are invalid: does it write wrong notes, or
ignore right ones?

usage: echo_errors.py [--mis-notes free|neighbours] DATASET.h5 EVAL_DIR...
  (a MIS or CVRP dataset; EVAL_DIR: run.sh's <run>/eval/step_N)

For each answer of the greedy_raw row (grammar on, repair off), every ID is checked against the
notes written before it, as the model wrote them and as they should be (the test split's instance):
  MIS   free notes (the vertices above v still free; the default): a vertex missing from the note
        before it. neighbours notes (v's neighbours above v; models trained before the free notes):
        a vertex named in an earlier note. Either: not above the previous vertex.
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


def mis_answer(adj, text, notes="free"):
    """(notes right, first broken rule or '') of one MIS answer."""
    items = [(int(v), note) for v, note in ITEM.findall(text)]
    said, true, previous = None, None, -1  # free notes: the latest as written and as it should be
    said_out, true_out = set(), set()      # neighbours notes: every ID named so far
    taken = set()
    notes_right, broken = True, ""
    for v, note in items:
        if v >= len(adj):
            return notes_right, "ID out of range"
        if not broken:
            if notes == "free" and said is not None and v not in said:
                broken = "not in its own previous note"
            elif notes == "free" and true is not None and v not in true:
                broken = "not in the true previous note (its note was wrong)"
            elif notes == "neighbours" and v in said_out:
                broken = "named in its own earlier note"
            elif notes == "neighbours" and v in true_out:
                broken = "named in a true note the model wrote wrong"
            elif v <= previous:
                broken = "not ascending"
        written = {int(x) for x in re.findall(r"#(\d+)", note)}
        taken |= {v} | adj[v]
        if notes == "free":
            true = {w for w in range(v + 1, len(adj)) if w not in taken}
            said = written
        else:
            true = {w for w in adj[v] if w > v}
            said_out |= written
            true_out |= true
        notes_right &= note == "".join(f"#{w}" for w in sorted(true))
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
    args = sys.argv[1:]
    notes = "free"
    if args[:1] == ["--mis-notes"]:
        if len(args) < 2 or args[1] not in ("free", "neighbours"):
            sys.exit("echo_errors.py: --mis-notes takes free or neighbours")
        notes, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    kind, instances = test_split(args[0])
    print("| eval | answers | raw valid | notes all right | first broken rule (count) |")
    print("|---|---:|---:|---:|---|")
    for eval_dir in args[1:]:
        rows = [json.loads(line) for line in open(os.path.join(eval_dir, "instances.jsonl"))]
        rows = [r for r in rows if r["row"] == "greedy_raw"]
        right, reasons = 0, {}
        for r in rows:
            text = r["solution"] or ""
            notes_right, broken = (mis_answer(instances[r["key"]], text, notes) if kind == "mis"
                                   else cvrp_answer(instances[r["key"]], text))
            right += notes_right
            if broken:
                reasons[broken] = reasons.get(broken, 0) + 1
        valid = sum(r["feasible_raw"] for r in rows)
        why = ", ".join(f"{k} ({v})" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
        print(f"| {eval_dir} | {len(rows)} | {valid} | {right} | {why} |")


if __name__ == "__main__":
    main()
