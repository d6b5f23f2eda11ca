#!/usr/bin/env python3
"""Is BOPO's anchor y* (the best of K samples) better than the model's own greedy answer? Reads the
instances.jsonl of rollout_probe.yaml's falcon_eval run and prints, per best-of-8 row, on how many
instances its answer beats, ties or loses to the greedy row's (by objective; PFSP minimises).

  falcon_eval experiments/learning_curves/problems/pfsp_preferences_release/rollout_probe.yaml threads=1
  /usr/bin/python3 experiments/learning_curves/problems/pfsp_preferences_release/rollout_probe.py \
      runs/pfsp_rollout_probe/instances.jsonl
"""
import json
import sys


def objectives(path):
    """{row: {instance key: objective}} of the feasible answers."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            try:
                d = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"rollout_probe.py: {path}:{number}: not JSON ({e}): rerun the evaluation with --resume")
            if d.get("feasible"):
                rows.setdefault(d["row"], {})[d["key"]] = (d["objective"], d["gap"])
    return rows


def main(argv):
    if len(argv) != 1:
        sys.exit("usage: rollout_probe.py INSTANCES_JSONL")
    rows = objectives(argv[0])
    if "greedy" not in rows:
        sys.exit(f"rollout_probe.py: {argv[0]} has no 'greedy' row: give the run of rollout_probe.yaml")
    greedy = rows["greedy"]
    print("| row | instances | mean gap | better than greedy | equal | worse |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, answers in rows.items():
        keys = [k for k in answers if k in greedy]
        gap = 100 * sum(answers[k][1] for k in keys) / len(keys)
        if name == "greedy":
            print(f"| {name} | {len(keys)} | {gap:.2f}% | - | - | - |")
            continue
        better = sum(answers[k][0] < greedy[k][0] for k in keys)
        equal = sum(answers[k][0] == greedy[k][0] for k in keys)
        print(f"| {name} | {len(keys)} | {gap:.2f}% | {better} | {equal} | {len(keys) - better - equal} |")


if __name__ == "__main__":
    main(sys.argv[1:])
