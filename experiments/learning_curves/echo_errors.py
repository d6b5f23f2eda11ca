#!/usr/bin/env python3
"""Why the greedy answers of a compact_echo model are invalid: does it write wrong notes, or
ignore right ones?

usage: echo_errors.py [--mis-notes free|neighbours] DATASET.h5 EVAL_DIR...
  (a MIS, CVRP or OP dataset; EVAL_DIR: run.sh's <run>/eval/step_N)

For each answer of the greedy_raw row (grammar on, repair off), as the model wrote it (the "text"
field; "solution" is rewritten with true notes), the first ID that breaks a rule of the true state
(the test split's instance) is named, with whether the model's own notes before it allowed it:
  MIS   free notes (the vertices above v still free; the default): a vertex missing from the true
        note before it. neighbours notes (v's neighbours above v): a vertex named in an earlier true
        note. Either: not above the previous vertex.
  CVRP  a customer whose demand exceeds the capacity left, or a repeat
  OP    a node whose detour (on the prompt's 0..99 grid) exceeds the budget left, or a repeat
        (generated instances: unit-square points, start = end = 0)
"its own note" when the model's note ruled the ID out too, "its note was wrong" when it allowed
it. Every note is also compared with its true value. Prints one table row per EVAL_DIR.
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
    if problem not in ("mis", "cvrp", "op"):
        sys.exit(f"echo_errors.py: {path} holds {problem}; this script reads MIS, CVRP and OP answers")
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
    if problem == "op":
        coords, off = t["coords"][:], t["coords_offsets"][:]
        return "op", [(coords[off[k]:off[k + 1]].reshape(-1, 2), float(t["budget"][k]), int(t["start"][k]),
                       int(t["end"][k])) for k in range(len(off) - 1)]
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
        if not broken:  # a rule the true state breaks, labelled by whether the model's own notes allowed it
            if notes == "free" and true is not None and v not in true:
                broken = ("not in its own previous note" if v not in said
                          else "not in the true previous note (its note was wrong)")
            elif notes == "neighbours" and v in true_out:
                broken = ("named in its own earlier note" if v in said_out
                          else "named in a true note the model wrote wrong")
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
                elif demands[v] > true_left:
                    broken = ("over the capacity its own note leaves" if demands[v] > said_left
                              else "over the true capacity (its note was wrong)")
            seen.add(v)
            true_left -= int(demands[v])
            notes_right &= note == str(max(true_left, 0))
            said_left = int(note) if note.isdigit() else said_left
    if not broken and len(seen) < len(demands) - 1:
        broken = "misses a customer"
    return notes_right, broken


def op_answer(instance, text):
    """(notes right, first broken rule or '') of one OP answer; lengths in grid units (x 100)."""
    points, budget, start, end = instance
    def d(a, b):
        return 100 * float(((points[a] - points[b]) ** 2).sum()) ** 0.5
    notes_right, broken, seen = True, "", set()
    last, travelled = start, 0.0
    said_left = true_left = 100 * budget - d(start, end)
    for v, note in ((int(v), note) for v, note in ITEM.findall(text)):
        if not 0 <= v < len(points) or v in (start, end):
            broken = broken or "ID out of range or an end"
            continue
        detour = d(last, v) + d(v, end) - d(last, end)
        if not broken:
            if v in seen:
                broken = "repeats a node"
            elif detour > true_left:  # notes are floored: a right one is at most the true budget
                broken = ("over the budget its own note leaves" if detour > said_left
                          else "over the true budget (its note was wrong)")
        seen.add(v)
        travelled += d(last, v)
        last = v
        true_left = 100 * budget - travelled - d(last, end)
        notes_right &= note == str(max(int(true_left // 1), 0))
        said_left = int(note) if note.isdigit() else said_left
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
        if rows and "text" not in rows[0]:
            sys.exit(f"echo_errors.py: {eval_dir}: its instances.jsonl has no 'text' (what the model wrote; "
                     "'solution' is rewritten from the parsed answer with true notes): evaluate it again")
        for r in rows:
            text = r["text"] or ""
            answer = {"mis": lambda i, t: mis_answer(i, t, notes), "cvrp": cvrp_answer, "op": op_answer}[kind]
            notes_right, broken = answer(instances[r["key"]], text)
            right += notes_right
            if broken:
                reasons[broken] = reasons.get(broken, 0) + 1
        valid = sum(r["feasible_raw"] for r in rows)
        why = ", ".join(f"{k} ({v})" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
        print(f"| {eval_dir} | {len(rows)} | {valid} | {right} | {why} |")


if __name__ == "__main__":
    main()
