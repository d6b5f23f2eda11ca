#!/usr/bin/env python3
"""experiments/learning_curves/notes_table.py: its table and picture from fake evaluations.

  python3 tests/experiments/notes_table_test.py       # what ctest runs (no C++ build needed)
Needs matplotlib (skipped without it).
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "learning_curves", "notes_table.py")

try:
    import matplotlib  # noqa: F401
except ImportError:
    matplotlib = None


def write_eval(path, rows):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "summary.json"), "w") as f:
        json.dump({"rows": rows}, f)


@unittest.skipIf(matplotlib is None, "matplotlib is not installed")
class NotesTable(unittest.TestCase):
    def test_rows_by_step_with_the_samples_validity_of_a_best_of_n_row(self):
        with tempfile.TemporaryDirectory() as d:
            evals = os.path.join(d, "evals")
            for step, own in ((500, 0.2), (250, 0.1)):
                write_eval(os.path.join(evals, f"step_{step}"), [
                    {"row": "own", "feasible_raw": own, "gap_all": 0.8, "samples": 1.0},
                    {"row": "N=8", "feasible_raw": 0.9, "sample_feasible_raw": 0.25, "gap_all": 0.15, "samples": 8.0}])
            os.makedirs(os.path.join(evals, "step_750"))  # not evaluated yet: left out
            write_eval(os.path.join(evals, "step_1000"), [  # only some rows, one new
                {"row": "N=8", "feasible_raw": 1.0, "sample_feasible_raw": 0.5, "gap_all": 0.1, "samples": 8.0},
                {"row": "heuristic", "feasible_raw": 1.0, "gap_all": 0.04}])
            out = os.path.join(d, "out")
            subprocess.run([sys.executable, SCRIPT, "--out", out, evals, "Toy"], check=True, capture_output=True)
            with open(os.path.join(out, "notes.md")) as f:
                text = f.read()
            self.assertIn("# Toy: own notes against computed notes", text)
            self.assertIn("| step | own | N=8 | heuristic |", text)
            self.assertIn("| 1000 | - | 50% / 10.0% | 100% / 4.0% |", text)  # by name, a missing row is "-"
            # Steps in order; the best-of-8 row's validity is its samples' (25%), not its answers' (90%).
            self.assertLess(text.index("| 250 | 10% / 80.0% | 25% / 15.0% |"), text.index("| 500 | 20% / 80.0% |"))
            self.assertNotIn("| 750 |", text)
            self.assertTrue(os.path.getsize(os.path.join(out, "notes.png")) > 1000)

    def test_no_evaluation_is_one_clear_error(self):
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([sys.executable, SCRIPT, "--out", d, d, "Toy"], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("no step_N/summary.json", r.stderr)


if __name__ == "__main__":
    unittest.main()
