#!/usr/bin/env python3
"""How the reference schedules of a JSSP dataset read in the dispatch text: the rank of each pick in
the note before it, and, where a pick leaves the note's first job, whether it starts together with
that job on its machine (a choice between two jobs), together on another machine, or later (the first
job is kept waiting although it could start). The order and the ranking are those of
falcon/problems/jssp_dispatch.cpp, replayed in Python on the stored labels.
With --conflict, the compact_ranked_conflict text's: the Giffler-Thompson order and its conflict-set
notes, and how many notes hold one job (a forced pick).
With --answers EVAL_DIR, the same of the model's own answers (falcon_eval's instances.jsonl, the
row "model alone") instead of the labels.
  /usr/bin/python3 label_ranks.py data/jssp6.h5 [split] [--conflict] [--answers EVAL_DIR]"""
import argparse
import json
import os
import re
from collections import Counter

import h5py


def read(group, i):
    n, m = int(group["n"][i]), int(group["instance/machines"][i])
    at = group["instance/route_machines_offsets"][i]
    machines = group["instance/route_machines"][at:at + n * m]
    durations = group["instance/route_durations"][at:at + n * m]
    route = [[(int(machines[j * m + k]), int(durations[j * m + k])) for k in range(m)] for j in range(n)]
    first = group["solution/offsets"][i]
    cuts = group["solution/list_offsets"]
    sequences = [[int(x) for x in group["solution/items"][cuts[l]:cuts[l + 1]]] for l in range(first, first + m)]
    return n, m, route, sequences


def start_order(n, m, route, sequences):
    """dispatch_order: of the operations next on their job and their machine, the earliest start first."""
    next_op, at, job_ready, machine_ready, order = [0] * n, [0] * m, [0] * n, [0] * m, []
    while len(order) < n * m:
        best = None
        for r in range(m):
            if at[r] == n:
                continue
            j = sequences[r][at[r]]
            if next_op[j] < m and route[j][next_op[j]][0] == r:
                start = max(job_ready[j], machine_ready[r])
                if best is None or start < best[0]:
                    best = (start, r, j)
        start, r, j = best
        job_ready[j] = machine_ready[r] = start + route[j][next_op[j]][1]
        next_op[j] += 1
        at[r] += 1
        order.append(j)
    return order


def conflict_set(n, m, route, next_op, job_ready, machine_ready, work):
    """conflict_notes' note, keyed as dispatch_notes' is: (start, machine, -work left, job)."""
    keyed = [(max(job_ready[k], machine_ready[route[k][next_op[k]][0]]), route[k][next_op[k]][0], -work[k], k)
             for k in range(n) if next_op[k] < m]
    if not keyed:
        return []
    finish, machine, first = min((key[0] + route[key[3]][next_op[key[3]]][1], key[1], key[3]) for key in keyed)
    return sorted((key for key in keyed if key[1] == machine and (key[0] < finish or key[3] == first)),
                  key=lambda key: (key[0], key[2], key[3]))


def conflict_order(n, m, route, sequences):
    """conflict_order: at each conflict set, the machine's next job in the label if it competes, else
    the one that finishes first."""
    next_op, job_ready, machine_ready, placed, order = [0] * n, [0] * n, [0] * m, set(), []
    work = [sum(d for _, d in ops) for ops in route]
    for _ in range(n * m):
        note = conflict_set(n, m, route, next_op, job_ready, machine_ready, work)
        machine = note[0][1]
        upcoming = next(k for k in sequences[machine] if (k, machine) not in placed)
        jobs = [key[3] for key in note]
        j = upcoming if upcoming in jobs else min(jobs, key=lambda k: (note[jobs.index(k)][0] + route[k][next_op[k]][1], k))
        placed.add((j, machine))
        r, d = route[j][next_op[j]]
        job_ready[j] = machine_ready[r] = max(job_ready[j], machine_ready[r]) + d
        work[j] -= d
        next_op[j] += 1
        order.append(j)
    return order


def answers(eval_dir):
    """Instance index -> the picks (0-based jobs) of the model-alone answer in a dispatch text."""
    picks = {}
    with open(os.path.join(eval_dir, "instances.jsonl")) as f:
        for line in f:
            record = json.loads(line)
            if record["row"] == "model alone":
                body = re.sub(r"\([^)]*\)", "", record["text"].split("]")[0])  # the picks, notes dropped
                picks[record["key"]] = [int(x) - 1 for x in re.findall(r"#(\d+)", body)]
    return picks


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset")
    ap.add_argument("split", nargs="?", default="test")
    ap.add_argument("--conflict", action="store_true", help="the compact_ranked_conflict text")
    ap.add_argument("--answers", help="a falcon_eval output_dir: its model-alone answers instead of the labels")
    args = ap.parse_args()
    conflict = args.conflict
    answered = answers(args.answers) if args.answers else None
    group = h5py.File(args.dataset, "r")[args.split]
    ranks, departures, picks, forced = Counter(), Counter(), 0, 0
    for i in range(int(group.attrs["size"])) if answered is None else sorted(answered):
        n, m, route, sequences = read(group, i)
        next_op, job_ready, machine_ready = [0] * n, [0] * n, [0] * m
        work = [sum(d for _, d in ops) for ops in route]
        order = answered[i] if answered is not None else (conflict_order if conflict else start_order)(n, m, route, sequences)
        for j in order:
            if not (0 <= j < n and next_op[j] < m):
                continue  # a pick that moves nothing (the text's rule)
            if conflict:
                note = conflict_set(n, m, route, next_op, job_ready, machine_ready, work)
                forced += len(note) == 1
            else:  # dispatch_notes' ranking: earliest start, lower machine, most work left, lower ID
                note = sorted((max(job_ready[k], machine_ready[route[k][next_op[k]][0]]), route[k][next_op[k]][0], -work[k], k)
                              for k in range(n) if next_op[k] < m)
            listed = [key[3] for key in note]
            picks += 1
            if j not in listed:  # the model's own pick, outside its note
                ranks["outside"] += 1
                departures["outside the note"] += 1
            rank = listed.index(j) if j in listed else 0
            ranks[rank] += j in listed
            if rank > 0:
                mine, head = note[rank], note[0]
                departures["later start" if mine[0] > head[0] else
                           "together, same machine" if mine[1] == head[1] else "together, another machine"] += 1
            r, d = route[j][next_op[j]]
            job_ready[j] = machine_ready[r] = max(job_ready[j], machine_ready[r]) + d
            work[j] -= d
            next_op[j] += 1
    print(f"{picks} picks; rank in the note: " + ", ".join(f"{r}: {100 * c / picks:.1f}%" for r, c in sorted(ranks.items(), key=lambda rc: str(rc[0]))))
    if conflict:
        print(f"notes of one job (forced picks): {100 * forced / picks:.1f}%; of the other picks, the first job taken "
              f"at {100 * (ranks[0] - forced) / (picks - forced):.1f}%")
    print("leaving the first job: " + ", ".join(f"{k}: {100 * c / picks:.1f}%" for k, c in sorted(departures.items())))


if __name__ == "__main__":
    main()
