#!/usr/bin/env python3
"""experiments/greedy_in_pool/analyze.py: the better of the greedy answer and a sampled row's, per
instance, from fake Table 1 points (no C++ build needed).

  python3 tests/experiments/greedy_in_pool_test.py
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "greedy_in_pool", "analyze.py")


def write_point(folder, rows):
    """rows: {row name: [(feasible, gap), ...]}, one entry per instance."""
    os.makedirs(folder)
    with open(os.path.join(folder, "instances.jsonl"), "w") as f:
        for name, results in rows.items():
            for i, (feasible, gap) in enumerate(results):
                f.write(json.dumps({"row": name, "instance": f"i{i}", "feasible": feasible,
                                    "gap": gap if feasible else None}) + "\n")
    with open(os.path.join(folder, "summary.json"), "w") as f:
        json.dump({"rows": [{"row": name, "seconds": 0.5} for name in rows]}, f)


class GreedyInPool(unittest.TestCase):
    def test_each_instance_takes_the_better_answer_and_an_infeasible_one_counts_100(self):
        with tempfile.TemporaryDirectory() as d:
            # Instance 0: greedy 0.02 beats best of 8's 0.04; instance 1: best of 8 0.01 beats greedy's
            # infeasible answer; adaptive beats greedy on both.
            write_point(os.path.join(d, "points", "pfsp"), {
                "FALCON N=1": [(True, 0.02), (False, None)],
                "FALCON N=8": [(True, 0.04), (True, 0.01)],
                "FALCON adaptive": [(True, 0.01), (True, 0.0)]})
            subprocess.run([sys.executable, SCRIPT, "--points", os.path.join(d, "points"), "--out", d],
                           check=True, capture_output=True)
            with open(os.path.join(d, "results.md")) as f:
                text = f.read()
            # greedy (2 + 100) / 2; best of 8 (4 + 1) / 2; with greedy (2 + 1) / 2, greedy better once.
            self.assertIn("| PFSP | 2 | 51.00 | 2.50 | 1.50 | 1 | 0.50 | 0.50 | 0 | 0.5 / 0.5 / 0.5 |", text)
            with open(os.path.join(d, "results.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_a_damaged_line_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            write_point(os.path.join(d, "points", "tsp"), {"FALCON N=1": [(True, 0.1)]})
            with open(os.path.join(d, "points", "tsp", "instances.jsonl"), "a") as f:
                f.write("{not json\n")
            r = subprocess.run([sys.executable, SCRIPT, "--points", os.path.join(d, "points"), "--out", d],
                               capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("tsp/instances.jsonl:2: not a falcon_eval result line", r.stderr)


if __name__ == "__main__":
    unittest.main()
