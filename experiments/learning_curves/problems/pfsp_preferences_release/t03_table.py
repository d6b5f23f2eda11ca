#!/usr/bin/env python3
"""Each arm's last checkpoint at T 0.3 (eval_t03.yaml), mean per arm and per-instance wins / ties /
losses against the start and between BOPO and more SFT of the same seed.

  t03_table.py --keep runs/pfsp_release_t03   # keep each run's objectives in t03/ (from its instances.jsonl)
  t03_table.py                                # the table, from t03/
Run names: base, pref_pfsp_release_<arm>_seed<N> (the study), pref_pfsp_release_t03_bopo_seed<N>
(BOPO rolled out at T 0.3): the output folders of the evaluation loop in results.md.
"""
import glob
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KEPT = os.path.join(HERE, "t03")
ARMS = {"pref_pfsp_release_bopo": "BOPO (rollout T 1.0)", "pref_pfsp_release_sft": "more SFT",
        "pref_pfsp_release_t03_bopo": "BOPO (rollout T 0.3)"}


def keep(runs_dir):
    os.makedirs(KEPT, exist_ok=True)
    for run in sorted(os.listdir(runs_dir)):
        path = os.path.join(runs_dir, run, "instances.jsonl")
        if not os.path.isfile(path):
            continue
        objectives = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                objectives[d["key"]] = {"objective": d["objective"], "gap": d["gap"]}
        with open(os.path.join(KEPT, run + ".json"), "w", encoding="utf-8") as f:
            json.dump({"instances": objectives}, f, separators=(",", ":"))


def load():
    runs = {}
    for path in sorted(glob.glob(os.path.join(KEPT, "*.json"))):
        with open(path, encoding="utf-8") as f:
            runs[os.path.basename(path)[:-5]] = json.load(f)["instances"]
    if "base" not in runs:
        sys.exit(f"t03_table.py: {KEPT}/base.json is missing: evaluate the start and run --keep first")
    return runs


def paired(a, b):
    """Instances where a's objective is lower / equal / higher than b's (PFSP minimises)."""
    keys = [k for k in a if k in b]
    lower = sum(a[k]["objective"] < b[k]["objective"] for k in keys)
    equal = sum(a[k]["objective"] == b[k]["objective"] for k in keys)
    return f"{lower} / {equal} / {len(keys) - lower - equal}"


def mean_gap(run):
    return 100 * statistics.mean(v["gap"] for v in run.values())


def main(argv):
    if argv[:1] == ["--keep"] and len(argv) == 2:
        keep(argv[1])
        return
    runs = load()
    base = runs["base"]
    print(f"Start (models/pfsp): best of 8 at T 0.3 {mean_gap(base):.2f}% over {len(base)} instances.\n")
    print("| arm | seed | best of 8 at T 0.3 | against the start (w / t / l) | against more SFT, same seed (w / t / l) |")
    print("|---|---:|---:|---:|---:|")
    for prefix, label in ARMS.items():
        for name in sorted(n for n in runs if n.startswith(prefix + "_seed")):
            seed = name.rsplit("seed", 1)[1]
            sft = runs.get(f"pref_pfsp_release_sft_seed{seed}")
            versus_sft = paired(runs[name], sft) if sft is not None and "sft" not in prefix else "-"
            print(f"| {label} | {seed} | {mean_gap(runs[name]):.2f}% | {paired(runs[name], base)} | {versus_sft} |")


if __name__ == "__main__":
    main(sys.argv[1:])
