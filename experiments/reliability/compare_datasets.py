#!/usr/bin/env python3
"""Are two FALCON datasets the same records? (the kill -9 campaign's datagen check)

usage: compare_datasets.py A.h5 B.h5

Per split: every record index appears once in each file (none lost, none duplicated), and the
records with the same index are equal field by field (instance, name, n, solution, objective,
solver; solve_seconds is a timing and is left out). The record order inside a file may differ:
it follows the order in which labels were finished. Exits 1 naming the first difference.
"""
import json
import sys

import h5py


def cut(data, offsets, i):
    return data[offsets[i]:offsets[i + 1]]


def records(g):
    """index -> the record's fields as plain values; exits when an index repeats."""
    out = {}
    inst, sol = g["instance"], g["solution"]
    columns = {k: (v[()], inst[k + "_offsets"][()] if k + "_offsets" in inst else None)
               for k, v in inst.items() if not k.endswith("_offsets")}
    name, name_offsets = g["name"][()], g["name_offsets"][()]
    items, lists, offsets = sol["items"][()], sol["list_offsets"][()], sol["offsets"][()]
    index, n, objective, solver = g["index"][()], g["n"][()], g["objective"][()], g["solver"][()]
    for i in range(len(index)):
        key = int(index[i])
        if key in out:
            sys.exit(f"{g.file.filename}: {g.name}: record index {key} appears twice")
        out[key] = {
            "n": int(n[i]),
            "name": cut(name, name_offsets, i).tobytes(),
            "instance": {k: (cut(c, o, i).tolist() if o is not None else c[i].item()) for k, (c, o) in columns.items()},
            "solution": [items[lists[k]:lists[k + 1]].tolist() for k in range(offsets[i], offsets[i + 1])],
            "objective": float(objective[i]),
            "solver": json.loads(g.attrs["solvers"])[solver[i]],
        }
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
        splits = json.loads(a.attrs["splits"])
        if splits != json.loads(b.attrs["splits"]):
            sys.exit(f"different splits: {splits} and {json.loads(b.attrs['splits'])}")
        total = 0
        for split in splits:
            ra, rb = records(a[split]), records(b[split])
            if set(ra) != set(rb):
                only_a, only_b = sorted(set(ra) - set(rb)), sorted(set(rb) - set(ra))
                sys.exit(f"{split}: indices only in {sys.argv[1]}: {only_a[:10]}, only in {sys.argv[2]}: {only_b[:10]}")
            for key in sorted(ra):
                for field in ra[key]:
                    if ra[key][field] != rb[key][field]:
                        sys.exit(f"{split}: record {key}: '{field}' differs")
            total += len(ra)
            print(f"{split}: {len(ra)} records, each once in both files, equal field by field")
        print(f"same dataset: {total} records")


if __name__ == "__main__":
    main()
