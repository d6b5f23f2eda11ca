#!/usr/bin/env python3
"""Splits a falcon_eval run's rows by instance size: valid share and gaps per size bucket.

falcon_eval's summary averages over all instances; a model over several sizes is judged per
bucket (Table 2: Small 10-30, Medium 40-60). Reads the run's instances.jsonl (one line per row and
instance, with its size n) and prints a markdown table, one line per row, one column per bucket.

  tools/size_buckets.py runs/eval/tsp10_60/instances.jsonl
  tools/size_buckets.py RUN/instances.jsonl --bucket small=10-30 --bucket medium=40-60
"""
import argparse
import json
import sys
from collections import OrderedDict


def parse_bucket(text):
    try:
        name, span = text.split("=")
        low, high = (int(v) for v in span.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bucket '{text}': write NAME=LOW-HIGH, e.g. small=10-30")
    return name, low, high


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("instances", help="a falcon_eval run's instances.jsonl")
    parser.add_argument("--bucket", action="append", type=parse_bucket,
                        help="NAME=LOW-HIGH, inclusive (default: small=10-30, medium=40-60)")
    args = parser.parse_args()
    buckets = args.bucket or [("small", 10, 30), ("medium", 40, 60)]

    # per row, per bucket: [instances, valid before repair, sum of gaps with invalid = 100%]
    table = OrderedDict()
    try:
        f = open(args.instances)
    except OSError as e:
        sys.exit(f"{args.instances}: cannot read it ({e.strerror}); give the instances.jsonl of a falcon_eval run")
    with f:
        for number, line in enumerate(f, 1):
            try:
                record = json.loads(line)
                row, n = record["row"], int(record["n"])
            except (ValueError, KeyError, TypeError) as e:
                sys.exit(f"{args.instances}:{number}: not a falcon_eval instance line ({e}); "
                         "give the instances.jsonl of a falcon_eval run")
            bucket = next((name for name, low, high in buckets if low <= n <= high), None)
            if bucket is None:
                continue
            cell = table.setdefault(row, {}).setdefault(bucket, [0, 0, 0.0])
            cell[0] += 1
            cell[1] += bool(record.get("feasible_raw"))
            cell[2] += record["gap"] if record.get("feasible") and record.get("gap") is not None else 1.0
    if not table:
        sys.exit(f"{args.instances}: no instance falls in any bucket")

    names = [name for name, _, _ in buckets]
    print("| row | " + " | ".join(f"{b}: valid / gap (invalid = 100%)" for b in names) + " |")
    print("|---|" + "---:|" * len(names))
    for row, cells in table.items():
        out = []
        for b in names:
            count, valid, gaps = cells.get(b, (0, 0, 0.0))
            out.append(f"{100 * valid / count:.0f}% / {100 * gaps / count:.2f}% ({count})" if count else "-")
        print(f"| {row} | " + " | ".join(out) + " |")


if __name__ == "__main__":
    main()
