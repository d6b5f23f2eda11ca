#!/usr/bin/env python3
"""Which job feature the reference PFSP orders follow: the mean Spearman correlation, over
training labels, between a job's position in the order and each feature; then, step by step, the
rank of the label's next job among the jobs left when they are sorted by what appending each one
would do to the partial schedule (the order a ranked note would list them in), and the gap of
the order that always takes the note's first job.

usage: pfsp_order_features.py DATASET.h5 [LABELS]   (a PFSP dataset; LABELS: how many, default 2000)
"""
import sys

import h5py
import numpy


def spearman(a, b):
    """Spearman's rank correlation, tied values sharing their mean rank (numpy only)."""
    def ranks(x):
        x = numpy.asarray(x, dtype=float)
        r = numpy.empty(len(x))
        r[numpy.argsort(x, kind="stable")] = numpy.arange(len(x))
        for v in numpy.unique(x):
            r[x == v] = r[x == v].mean()
        return r
    return float(numpy.corrcoef(ranks(a), ranks(b))[0, 1])


def features(times):
    """Per job (rows of times, one column per machine in order): the candidate sort keys."""
    m = times.shape[1]
    slope = numpy.arange(m) - (m - 1) / 2  # Palmer: k - (m+1)/2 for machines k = 1..m
    return {"total time": times.sum(1), "first machine": times[:, 0], "last machine": times[:, -1],
            "Palmer slope index (negated)": -(times * slope).sum(1)}


def append_keys(times, ready, job):
    """What appending `job` after a partial schedule whose machines are free at `ready` does:
    {key name: value, smaller first}, and the machines' new ready times."""
    done = numpy.empty(len(ready))
    idle = 0.0
    for k in range(len(ready)):
        start = max(ready[k], done[k - 1]) if k else ready[0]
        idle += start - ready[k] if k else 0.0
        done[k] = start + times[job, k]
    return {"makespan after appending": done[-1], "idle time it adds": idle,
            "idle time, then makespan": (idle, done[-1]), "sum of the machines' ready times": done.sum()}, done


def lower_bound_after(times, done, left, job):
    """A lower bound on the final makespan once `job` is appended (machines then free at `done`)
    and the jobs in `left` (without it) follow: over machines k, the time k is free, plus the
    load of k still to come, plus the shortest time any job left needs after k."""
    rest = [j for j in left if j != job]
    if not rest:
        return done[-1]
    load = times[rest].sum(0)  # (machines,)
    tails = numpy.cumsum(times[rest][:, ::-1], 1)[:, ::-1]  # (jobs left, machines): time on k and after
    min_after = numpy.append(tails[:, 1:].min(0), 0)  # (machines,): after k only
    return max(done + load + min_after)


def next_job_ranks(times, order):
    """Per key, the rank (0 = first) of the label's next job among the jobs left, one per step
    after the first; ties go to the smaller ID, as in a ranked note."""
    ranks = {}
    ready = numpy.zeros(times.shape[1])
    left = set(range(len(order)))
    for step, job in enumerate(order):
        if step:
            keyed = {}
            for j in left:
                keys, done = append_keys(times, ready, j)
                keys["lower bound after appending"] = lower_bound_after(times, done, left, j)
                keys["lower bound, then idle time (the ranked note)"] = note_key(times, ready, left, j)[:2]
                keyed[j] = keys
            for name in keyed[job]:
                ranks.setdefault(name, []).append(sum((keyed[j][name], j) < (keyed[job][name], job) for j in left))
        ready = append_keys(times, ready, job)[1]
        left.discard(job)
    return ranks


def note_key(times, ready, left, job):
    """A ranked note's key of appending `job` (falcon's pfsp ranked_notes): the lower bound, then
    the idle time, then the ID."""
    keys, done = append_keys(times, ready, job)
    return lower_bound_after(times, done, left, job), keys["idle time it adds"], job


def first_of_note_order(times, first):
    """The order that starts with `first` and then always takes the first job of the note."""
    order, ready, left = [], numpy.zeros(times.shape[1]), set(range(len(times)))
    job = first
    while True:
        order.append(job)
        ready = append_keys(times, ready, job)[1]
        left.discard(job)
        if not left:
            return order
        job = min(note_key(times, ready, left, j) for j in left)[2]


def makespan(times, order):
    ready = numpy.zeros(times.shape[1])
    for job in order:
        ready = append_keys(times, ready, job)[1]
    return ready[-1]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    labels = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    f = h5py.File(sys.argv[1], "r")
    if f.attrs["problem"] != "pfsp":
        sys.exit(f"pfsp_order_features.py: {sys.argv[1]} holds {f.attrs['problem']}, not pfsp")
    g = f["train"]
    times, off, machines = g["instance/times"][:], g["instance/times_offsets"][:], g["instance/machines"][:]
    items, lists = g["solution/items"][:], g["solution/list_offsets"][:]
    sums, step_ranks, lefts, greedy_gaps = {}, {}, [], []
    count = min(labels, len(machines))
    for k in range(count):
        p = times[off[k]:off[k + 1]].reshape(-1, machines[k])  # (jobs, machines)
        order = items[lists[k]:lists[k + 1]]
        position = numpy.empty(len(order))
        position[order] = numpy.arange(len(order))
        for name, value in features(p).items():
            sums[name] = sums.get(name, 0.0) + spearman(position, value)
        for name, r in next_job_ranks(p, list(order)).items():
            step_ranks.setdefault(name, []).extend(r)
        lefts.extend(range(len(order) - 1, 0, -1))
        greedy_gaps.append(makespan(p, first_of_note_order(p, order[0])) / makespan(p, order) - 1)
    print(f"| feature | Spearman with the position ({count} labels) |\n|---|---:|")
    for name, total in sums.items():
        print(f"| {name} | {total / count:.2f} |")
    print(f"\n| jobs left sorted by | label's next job first | in the first 3 | mean rank (0 = first) |\n|---|---:|---:|---:|")
    left = numpy.array(lefts)
    print(f"| (a random order) | {numpy.mean(1 / left):.1%} | {numpy.mean(numpy.minimum(3, left) / left):.1%} "
          f"| {numpy.mean((left - 1) / 2):.2f} |")
    for name, r in step_ranks.items():
        r = numpy.array(r)
        print(f"| {name} | {numpy.mean(r == 0):.1%} | {numpy.mean(r < 3):.1%} | {r.mean():.2f} |")
    print(f"\nThe label's first job, then always the first of the ranked note: {numpy.mean(greedy_gaps):.2%} mean gap "
          "to the label.")


if __name__ == "__main__":
    main()
