#!/usr/bin/env python3
"""tools/size_buckets.py: per-bucket figures from a falcon_eval instances.jsonl, and one clear
error for a file that is not one.

  python3 tests/tools/size_buckets_test.py     # what ctest runs (no C++ build needed)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "size_buckets.py")


def run(path, *more):
    return subprocess.run([sys.executable, SCRIPT, path, *more], capture_output=True, text=True)


def line(row, n, feasible_raw, feasible, gap):
    return json.dumps({"row": row, "n": n, "feasible_raw": feasible_raw, "feasible": feasible, "gap": gap})


class SizeBuckets(unittest.TestCase):
    def test_splits_each_row_by_size_and_counts_an_invalid_answer_as_100_percent(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "instances.jsonl")
            with open(path, "w") as f:
                f.write("\n".join([
                    line("model alone", 12, True, True, 0.10),
                    line("model alone", 28, False, False, None),   # invalid: 100%
                    line("model alone", 50, True, True, 0.04),
                    line("model alone", 35, True, True, 9.0),      # in no bucket: left out
                    line("repair alone", 12, False, True, 0.02),   # repaired: its gap counts
                ]) + "\n")
            result = run(path)
            self.assertEqual(result.returncode, 0, result.stderr)
            rows = {l.split(" | ")[0].strip("| "): l for l in result.stdout.splitlines()[2:]}
            self.assertIn("50% / 55.00% / 10.00% (2) | 100% / 4.00% / 4.00% (1)", rows["model alone"])
            self.assertIn("0% / 2.00% / 2.00% (1) | - |", rows["repair alone"])
            self.assertNotIn("Large", result.stdout)  # a bucket without instances gets no column

    def test_other_buckets_can_be_named(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "instances.jsonl")
            with open(path, "w") as f:
                f.write(line("model alone", 35, True, True, 0.5) + "\n")
            result = run(path, "--bucket", "mid=31-39")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("| mid: valid", result.stdout)
            self.assertIn("100% / 50.00% / 50.00% (1)", result.stdout)

    def test_a_line_that_is_not_an_instance_names_the_file_and_line(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "instances.jsonl")
            with open(path, "w") as f:
                f.write(line("model alone", 12, True, True, 0.1) + "\n{truncated\n")
            result = run(path)
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("instances.jsonl:2:", result.stderr)

    def test_a_missing_file_is_named(self):
        result = run("/nonexistent/instances.jsonl")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("/nonexistent/instances.jsonl: cannot read it", result.stderr)


if __name__ == "__main__":
    unittest.main()
