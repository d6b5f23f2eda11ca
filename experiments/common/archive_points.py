#!/usr/bin/env python3
"""Keeps the finished falcon_eval points of a sweep in the repository, so that tables rerun one
problem at a time (one machine's models, then the next one's) add up instead of each run
leaving the others "not run": runs/ holds models and full outputs and is not kept, the archive is
small text and is committed.

  experiments/common/archive_points.py RUNS ARCHIVE SWEEP
copies every done point RUNS/SWEEP/<point>/ to ARCHIVE/SWEEP/<point>/: point.json, summary.json,
done (its seconds), and instances.jsonl cut to the fields the table builders read (no answer text, no solution).
A point already archived is replaced by the newer run. runs.Point reads RUNS first, then ARCHIVE.
"""
import json
import os
import shutil
import sys

# The per-instance fields experiments/common reads (size and consistency buckets, samples used).
KEPT_FIELDS = ("row", "instance", "n", "feasible", "feasible_raw", "gap", "samples", "consistency")


def _trimmed_line(line):
    record = json.loads(line)
    return json.dumps({k: record[k] for k in KEPT_FIELDS if k in record}, separators=(",", ":"))


def archive_point(src, dst):
    """Copies one done point; written under a temporary name and renamed, so an interrupted copy
    never looks done."""
    tmp = dst + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for name in ("point.json", "summary.json", "done"):  # done: the run's seconds, for the Runs table
        shutil.copyfile(os.path.join(src, name), os.path.join(tmp, name))
    instances = os.path.join(src, "instances.jsonl")
    if os.path.exists(instances):
        with open(instances, encoding="utf-8") as f, open(os.path.join(tmp, "instances.jsonl"), "w",
                                                          encoding="utf-8") as out:
            for line in f:
                if line.strip():
                    out.write(_trimmed_line(line) + "\n")
    shutil.rmtree(dst, ignore_errors=True)
    os.rename(tmp, dst)


def archive_sweep(runs, archive, sweep):
    """Archives the done points of RUNS/SWEEP; returns their names."""
    src_root, dst_root = os.path.join(runs, sweep), os.path.join(archive, sweep)
    if not os.path.isdir(src_root):
        return []
    os.makedirs(dst_root, exist_ok=True)
    names = []
    for name in sorted(os.listdir(src_root)):
        src = os.path.join(src_root, name)
        if os.path.exists(os.path.join(src, "done")) and os.path.exists(os.path.join(src, "summary.json")):
            archive_point(src, os.path.join(dst_root, name))
            names.append(name)
    return names


def main(argv):
    if len(argv) != 4:
        print("usage: archive_points.py RUNS ARCHIVE SWEEP", file=sys.stderr)
        return 2
    try:
        names = archive_sweep(argv[1], argv[2], argv[3])
    except (OSError, ValueError) as e:
        print(f"archive_points: {argv[3]}: {e}; the runs under {argv[1]} are untouched, rerun to retry",
              file=sys.stderr)
        return 1
    if names:
        print(f"archive_points: {argv[3]}: {len(names)} points kept in {os.path.join(argv[2], argv[3])}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
