#!/usr/bin/env python3
"""What PFSP's insertion text (text.style: compact_insert) offers a model, measured on labels
before any training: the jobs are placed in NEH's order (the most total processing time first),
and each note ranks a job's places by the makespan of the partial order, so that always taking the
note's first place is NEH. Prints (1) where the reference orders' places rank in those notes, and
(2) the gap of NEH and of a noisy NEH that takes the note's first place with probability q (else
the second or third), best of 8 and of 64 draws: what a model that has learned the notes' first
place, and where to leave it at random, would reach.

usage: pfsp_insertion_features.py DATASET.h5 [SPLIT [INSTANCES]]   (default: test 100)
"""
import sys

import h5py
import numpy


def makespan(times, order):
    done = numpy.zeros(times.shape[1])
    for job in order:
        t = 0.0
        for k in range(times.shape[1]):
            t = max(t, done[k]) + times[job, k]
            done[k] = t
    return done[-1]


def neh_jobs(times):
    """NEH's job order: the most total time first, the smaller ID on ties."""
    return sorted(range(len(times)), key=lambda j: (-times[j].sum(), j))


def ranked_places(times, order, job):
    """The positions `job` can take in `order`, the least makespan after inserting it first
    (earlier positions first on ties), as the insertion text's note lists them."""
    spans = [makespan(times, order[:i] + [job] + order[i:]) for i in range(len(order) + 1)]
    return sorted(range(len(spans)), key=lambda i: (spans[i], i))


def noisy_neh(times, q, rng):
    order = []
    for job in neh_jobs(times):
        places = ranked_places(times, order, job)
        pick = 0 if rng.random() < q or len(places) == 1 else 1 + int(rng.integers(min(2, len(places) - 1)))
        order.insert(places[pick], job)
    return order


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    split = sys.argv[2] if len(sys.argv) > 2 else "test"
    f = h5py.File(sys.argv[1], "r")
    if f.attrs["problem"] != "pfsp":
        sys.exit(f"pfsp_insertion_features.py: {sys.argv[1]} holds {f.attrs['problem']}, not pfsp")
    g = f[split]
    times, off, machines = g["instance/times"][:], g["instance/times_offsets"][:], g["instance/machines"][:]
    items, lists = g["solution/items"][:], g["solution/list_offsets"][:]
    count = min(int(sys.argv[3]) if len(sys.argv) > 3 else 100, len(machines))
    rng = numpy.random.default_rng(1)
    ranks, gaps = [], {}
    for k in range(count):
        p = times[off[k]:off[k + 1]].reshape(-1, machines[k]).astype(float)  # (jobs, machines)
        label = [int(j) for j in items[lists[k]:lists[k + 1]]]
        reference = makespan(p, label)
        position = {j: i for i, j in enumerate(label)}
        order = []
        for job in neh_jobs(p):  # the label written as insertions
            where = sum(position[x] < position[job] for x in order)
            if order:
                ranks.append(ranked_places(p, order, job).index(where))
            order.insert(where, job)
        gaps.setdefault("NEH (always the first place)", []).append(makespan(p, noisy_neh(p, 1.0, rng)) / reference - 1)
        for q in (0.9, 0.7, 0.5):
            draws = [makespan(p, noisy_neh(p, q, rng)) for _ in range(64)]
            gaps.setdefault(f"first place with p = {q}: best of 8", []).append(min(draws[:8]) / reference - 1)
            gaps.setdefault(f"first place with p = {q}: best of 64", []).append(min(draws) / reference - 1)
    r = numpy.array(ranks)
    print(f"{count} {split} instances. The reference order's place in the note: first {numpy.mean(r == 0):.1%}, "
          f"in the first 3 {numpy.mean(r < 3):.1%}, mean rank {r.mean():.2f} (0 = first)\n")
    print("| construction | gap to the reference |\n|---|---:|")
    for name, values in gaps.items():
        print(f"| {name} | {numpy.mean(values):.2%} |")


if __name__ == "__main__":
    main()
