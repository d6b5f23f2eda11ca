#!/usr/bin/python3
"""Per-token SFT loss a TSP model would have if it chose nodes uniformly, for a tokenizer.

Usage: uniform_baselines.py DATASET.h5 TOKENIZER.model [TOKENIZER.model ...]

Two references for reading falcon_train's SFT loss (nats per solution token, the EOS included):
uniform over the unvisited nodes (log k! per tour: the model knows not to repeat) and uniform
over all n nodes (n log n). The objective's digits count as 3 uniform digits; they are partly
predictable from n, so a loss a few hundredths below the first reference is not yet routing.
Needs python3-h5py (Debian) and build/tools/falcon_tokenizer.
"""
import json
import math
import subprocess
import sys

import h5py

TOKENIZER_TOOL = "build/tools/falcon_tokenizer"


def labelled_tours(path, count):
    with h5py.File(path, "r") as f:
        g = f["train"]
        lists, items = g["solution/list_offsets"], g["solution/items"]
        for i in range(min(count, len(g["n"]))):
            first = g["solution/offsets"][i]
            tour = items[lists[first]:lists[first + 1]].tolist()
            yield tour, float(g["objective"][i])


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    tours = list(labelled_tours(sys.argv[1], 40))
    print("| tokenizer | solution tokens | uniform over unvisited | uniform over all |")
    print("|---|---:|---:|---:|")
    for model in sys.argv[2:]:
        tokens = unvisited = anywhere = 0.0
        for tour, objective in tours:
            n = len(tour)
            text = "Route: [%s], Objective: %.2f" % (", ".join(map(str, tour)), objective)
            out = json.loads(subprocess.check_output([TOKENIZER_TOOL, "encode", model, text]))
            tokens += out["tokens"] + 1  # + EOS
            unvisited += math.lgamma(n + 1) + 3 * math.log(10)
            anywhere += n * math.log(n) + 3 * math.log(10)
        print(f"| {model} | {tokens / len(tours):.1f} | {unvisited / tokens:.3f} | {anywhere / tokens:.3f} |")


if __name__ == "__main__":
    main()
