#!/usr/bin/env python3
"""Why the greedy answers of a compact_echo model are invalid: does it write wrong notes, or
ignore right ones?

usage: echo_errors.py [--mis-notes neighbours|free] DATASET.h5 EVAL_DIR...
  (a MIS, CVRP or OP dataset; EVAL_DIR: run.sh's <run>/eval/step_N)

For each answer of the greedy_raw row (grammar on, repair off), as the model wrote it (the "text"
field; "solution" is rewritten with true notes), the first ID that breaks a rule of the true state
(the test split's instance) is named, with whether the model's own notes before it allowed it:
  MIS   neighbours notes (v's neighbours above v; what compact_echo writes): a vertex named in an
        earlier true note. free notes (the vertices above v still free: the notes an earlier
        compact_echo wrote, from commit 45caa42): a vertex missing from the true note before it.
        Either: not above the previous vertex.
  CVRP  a customer whose demand exceeds the capacity left, or a repeat; and per note, whether its
        demand is the customer's and its capacity left its own previous note less its own demand
  OP    a node whose detour (on the prompt's 0..99 grid) exceeds the budget left, or a repeat
        (generated instances: unit-square points, start = end = 0)
"its own note" when the model's note ruled the ID out too, "its note was wrong" when it allowed
it. Every note is also compared with its true value. Prints one table row per EVAL_DIR.
"""
import collections
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


def mis_answer(adj, text, notes="neighbours"):
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


def cvrp_answer(instance, text, steps=None):
    """(notes right, first broken rule or '') of one CVRP answer. Notes are "demand left" (the
    capacity left alone in models trained before the demand was added). `steps`, a Counter, gets
    per note: how many ("notes"), the demand copied right ("demand"), and the capacity the note
    leaves equal to its own previous note less its own demand ("subtraction"; notes with a demand
    only: in capacity-only notes the demand is read as that difference)."""
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
            parts = note.split()
            with_demand = len(parts) == 2
            notes_right &= parts == ([str(demands[v])] if with_demand else []) + [str(max(true_left, 0))]
            if not parts or not all(p.isdigit() for p in parts):
                continue
            said_demand = int(parts[0]) if with_demand else said_left - int(parts[-1])
            if steps is not None:
                steps["notes"] += 1
                steps["demand"] += said_demand == demands[v]
                steps["subtraction"] += with_demand and int(parts[-1]) == max(said_left - said_demand, 0)
            said_left = int(parts[-1])
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
    notes = "neighbours"
    if args[:1] == ["--mis-notes"]:
        if len(args) < 2 or args[1] not in ("neighbours", "free"):
            sys.exit("echo_errors.py: --mis-notes takes neighbours or free")
        notes, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    kind, instances = test_split(args[0])
    print("| eval | answers | raw valid | notes all right | first broken rule (count) | CVRP notes: demand right, capacity = own previous - own demand |")
    print("|---|---:|---:|---:|---|---|")
    for eval_dir in args[1:]:
        if not os.path.isfile(os.path.join(eval_dir, "instances.jsonl")):
            sys.exit(f"echo_errors.py: {eval_dir} has no instances.jsonl: pass eval folders (<run>/eval/step_N)")
        rows = [json.loads(line) for line in open(os.path.join(eval_dir, "instances.jsonl"))]
        rows = [r for r in rows if r["row"] == "greedy_raw"]
        right, reasons, steps = 0, {}, collections.Counter()
        if rows and "text" not in rows[0]:
            sys.exit(f"echo_errors.py: {eval_dir}: its instances.jsonl has no 'text' (what the model wrote; "
                     "'solution' is rewritten from the parsed answer with true notes): evaluate it again")
        for r in rows:
            text = r["text"] or ""
            answer = {"mis": lambda i, t: mis_answer(i, t, notes), "cvrp": lambda i, t: cvrp_answer(i, t, steps),
                      "op": op_answer}[kind]
            notes_right, broken = answer(instances[r["key"]], text)
            right += notes_right
            if broken:
                reasons[broken] = reasons.get(broken, 0) + 1
        valid = sum(r["feasible_raw"] for r in rows)
        why = ", ".join(f"{k} ({v})" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
        per_note = "-"
        if steps["notes"]:
            per_note = f"{steps['demand'] / steps['notes']:.0%}, " + (
                f"{steps['subtraction'] / steps['notes']:.0%}" if steps["subtraction"] else "-") + f" of {steps['notes']}"
        print(f"| {eval_dir} | {len(rows)} | {valid} | {right} | {why} | {per_note} |")


if __name__ == "__main__":
    main()
