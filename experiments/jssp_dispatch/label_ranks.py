#!/usr/bin/env python3
"""How the reference schedules of a JSSP dataset read in the dispatch text: the rank of each pick in
the note before it, and, where a pick leaves the note's first job, whether it starts together with
that job on its machine (a choice between two jobs), together on another machine, or later (the first
job is kept waiting although it could start). The order and the ranking are those of
falcon/problems/jssp_dispatch.cpp, replayed in Python on the stored labels.
  /usr/bin/python3 label_ranks.py data/jssp6.h5 [split]"""
import sys
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


def main():
    group = h5py.File(sys.argv[1], "r")[sys.argv[2] if len(sys.argv) > 2 else "test"]
    ranks, departures, picks = Counter(), Counter(), 0
    for i in range(int(group.attrs["size"])):
        n, m, route, sequences = read(group, i)
        next_op, job_ready, machine_ready = [0] * n, [0] * n, [0] * m
        work = [sum(d for _, d in ops) for ops in route]
        for j in start_order(n, m, route, sequences):
            # dispatch_notes' ranking: earliest start, lower machine, most work left, lower ID
            note = sorted((max(job_ready[k], machine_ready[route[k][next_op[k]][0]]), route[k][next_op[k]][0], -work[k], k)
                          for k in range(n) if next_op[k] < m)
            rank = [key[3] for key in note].index(j)
            ranks[rank] += 1
            picks += 1
            if rank > 0:
                mine, head = note[rank], note[0]
                departures["later start" if mine[0] > head[0] else
                           "together, same machine" if mine[1] == head[1] else "together, another machine"] += 1
            r, d = route[j][next_op[j]]
            job_ready[j] = machine_ready[r] = max(job_ready[j], machine_ready[r]) + d
            work[j] -= d
            next_op[j] += 1
    print(f"{picks} picks; rank in the note: " + ", ".join(f"{r}: {100 * c / picks:.1f}%" for r, c in sorted(ranks.items())))
    print("leaving the first job: " + ", ".join(f"{k}: {100 * c / picks:.1f}%" for k, c in sorted(departures.items())))


if __name__ == "__main__":
    main()
