#!/usr/bin/env python3
"""A stand-in for falcon_eval / falcon_train in falcon_sweep_test.py: `fake_program.py CONFIG
[--flags] key=value ... output_dir=DIR` writes DIR/summary.json in the real programs' shapes.

CONFIG is JSON (a YAML subset):
  kind       "eval" (default: {"rows": [...]}, rows "greedy" and "adaptive") or "train"
             ([{"stage": "sft", ...}, {"stage": "bopo", ...}])
  fail_if    overrides that make it exit 3, e.g. ["rows[1].tau=0.9"]
  sleep_if   overrides that make it sleep first (to be interrupted, or overlapped by another sweep)
  sleep_s    how long, in seconds (default 30)
  no_summary_if  overrides that make it exit 0 without writing summary.json
Every call appends its arguments to DIR/calls.jsonl, so tests can count runs.
"""
import json
import os
import sys
import time

config = json.load(open(sys.argv[1]))
args = sys.argv[2:]
overrides = dict(a.split("=", 1) for a in args if "=" in a)
out = overrides["output_dir"]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "calls.jsonl"), "a") as f:
    f.write(json.dumps(args) + "\n")
print("fake: starting", flush=True)
if any(a in config.get("sleep_if", []) for a in args):
    time.sleep(config.get("sleep_s", 30))
if any(a in config.get("fail_if", []) for a in args):
    print("fake: error: asked to fail", file=sys.stderr)
    sys.exit(3)
if any(a in config.get("no_summary_if", []) for a in args):
    sys.exit(0)


def settings(prefix):  # the overrides under a prefix, so tests can see them in the table
    return {k[len(prefix):]: v for k, v in overrides.items() if k.startswith(prefix)}


if config.get("kind", "eval") == "eval":
    summary = {"instances": 4, "rows": [
        {"row": "greedy", "feasible": 1.0, "gap_all": 0.5, "consistency": None, "settings": settings("rows[0].")},
        {"row": "adaptive", "feasible": 0.75, "gap_all": 0.25, "consistency": 0.125, "settings": settings("rows[1].")},
    ]}
else:
    summary = [
        {"stage": "sft", "steps": 10, "last_loss": 1.5, "eval": {"mean_gap": 1.25, "feasible": 1.0}},
        {"stage": "bopo", "steps": 5, "last_loss": 0.5, "eval": {"mean_gap": 1.0, "feasible": 1.0},
         "settings": settings("stages[1].")},
    ]
with open(os.path.join(out, "summary.json"), "w") as f:
    json.dump(summary, f)
