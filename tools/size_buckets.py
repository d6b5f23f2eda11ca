#!/usr/bin/env python3
"""Splits a falcon_eval run's rows by instance size: valid share and gaps per size bucket.

falcon_eval's summary averages over all instances; a model over several sizes is judged per
bucket (Table 2's, experiments/common/buckets.py: Small 10-30, Med. 40-60, Large 70-100). Reads the
run's instances.jsonl (one line per row and instance, with its size n) and prints a markdown
table, one line per row, one column per bucket that holds an instance.

  tools/size_buckets.py runs/eval/tsp10_60/instances.jsonl
  tools/size_buckets.py RUN/instances.jsonl --bucket small=10-20 --bucket large=21-60
"""
import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "experiments" / "common"))
import buckets  # noqa: E402


def parse_bucket(text):
    try:
        name, span = text.split("=")
        low, high = (int(v) for v in span.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bucket '{text}': write NAME=LOW-HIGH, e.g. small=10-30")
    return name, low, high


def read_lines(path):
    try:
        f = open(path)
    except OSError as e:
        sys.exit(f"{path}: cannot read it ({e.strerror}); give the instances.jsonl of a falcon_eval run")
    lines = []
    with f:
        for number, text in enumerate(f, 1):
            try:
                line = json.loads(text)
                line["row"], line["n"] = str(line["row"]), int(line["n"])
            except (ValueError, KeyError, TypeError) as e:
                sys.exit(f"{path}:{number}: not a falcon_eval instance line ({e}); "
                         "give the instances.jsonl of a falcon_eval run")
            lines.append(line)
    return lines


def cell(lines):
    """valid before repair / gap with an invalid answer counted 100% / gap of the feasible."""
    valid = sum(bool(line.get("feasible_raw")) for line in lines) / len(lines)
    gap_all = buckets.mean([line["gap"] if line.get("gap") is not None else 1.0 for line in lines])
    gap_feasible = buckets.mean_gap(lines)
    feasible = "-" if gap_feasible is None else f"{100 * gap_feasible:.2f}%"
    return f"{100 * valid:.0f}% / {100 * gap_all:.2f}% / {feasible} ({len(lines)})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("instances", help="a falcon_eval run's instances.jsonl")
    parser.add_argument("--bucket", action="append", type=parse_bucket,
                        help="NAME=LOW-HIGH, inclusive, in place of Table 2's buckets")
    args = parser.parse_args()
    spans = args.bucket or buckets.SIZE_BUCKETS

    def bucket_of(line):
        return next((name for name, low, high in spans if low <= line["n"] <= high), None)

    lines = read_lines(args.instances)
    by_bucket = buckets.group(lines, bucket_of)
    if not by_bucket:
        sys.exit(f"{args.instances}: no instance falls in any bucket")
    names = [name for name, _, _ in spans if name in by_bucket]
    print("| row | " + " | ".join(f"{b}: valid / gap (invalid = 100%) / gap of the feasible" for b in names) + " |")
    print("|---|" + "---:|" * len(names))
    for row, row_lines in buckets.group(lines, lambda line: line["row"]).items():
        cells = buckets.group(row_lines, bucket_of)
        print(f"| {row} | " + " | ".join(cell(cells[b]) if b in cells else "-" for b in names) + " |")


if __name__ == "__main__":
    main()
