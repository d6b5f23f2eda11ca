#!/usr/bin/env python3
"""Characters per prompt, per problem and size: sequence length is the cost of everything.

Runs build/tools/falcon_solve --prompt on 20 generated instances per (problem, n) at the
paper's sizes and writes results.md next to this script. Usage (repository root):
experiments/prompt_lengths/run_prompt_lengths.py
"""
import json, os, statistics, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOLVE = os.path.join(ROOT, "build", "tools", "falcon_solve")
# (problem, sizes, extra generator keys): the paper's ranges (Table 8) and defaults.
SETTINGS = [
    ("tsp", [20, 50, 100], ""), ("op", [20, 50, 100], ""), ("cvrp", [20, 50, 100], ""),
    ("mis", [50, 100, 200], ""), ("mis", [100, 500], ",distribution=ba"), ("mvc", [50, 100], ""),
    ("pfsp", [20, 50, 100], ",m=5"), ("pfsp", [20, 50], ",m=20"), ("jssp", [6, 10, 20], ",m=5"), ("jssp", [10, 15, 30], ",m=10"),
]


def main():
    rows = []
    for problem, sizes, extra in SETTINGS:
        for n in sizes:
            cmd = [SOLVE, "--problem", problem, "--prompt", "--generate", f"n={n},count=20,seed=1{extra}"]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                print(proc.stderr.strip())
                continue
            chars = [json.loads(l)["chars"] for l in proc.stdout.splitlines()]
            rows.append((problem, n, extra.strip(",") or "default", statistics.mean(chars), min(chars), max(chars)))
    lines = ["| problem | n | generator | mean chars | min | max |", "|---|---|---|---|---|---|"]
    lines += [f"| {p} | {n} | {g} | {m:.0f} | {lo} | {hi} |" for p, n, g, m, lo, hi in rows]
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "results.md"), "w") as f:
        f.write("# Prompt length (characters) per problem and size\n\n")
        f.write("Made by `experiments/prompt_lengths/run_prompt_lengths.py` (20 generated instances per row, seeds 1-20).\n\n")
        f.write(text + "\n")


if __name__ == "__main__":
    main()
