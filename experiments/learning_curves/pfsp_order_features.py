#!/usr/bin/env python3
"""Which job feature the reference PFSP orders follow: the mean Spearman correlation, over
training labels, between a job's position in the order and each feature.

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
    sums = {}
    count = min(labels, len(machines))
    for k in range(count):
        p = times[off[k]:off[k + 1]].reshape(-1, machines[k])  # (jobs, machines)
        order = items[lists[k]:lists[k + 1]]
        position = numpy.empty(len(order))
        position[order] = numpy.arange(len(order))
        for name, value in features(p).items():
            sums[name] = sums.get(name, 0.0) + spearman(position, value)
    print(f"| feature | Spearman with the position ({count} labels) |\n|---|---:|")
    for name, total in sums.items():
        print(f"| {name} | {total / count:.2f} |")


if __name__ == "__main__":
    main()
