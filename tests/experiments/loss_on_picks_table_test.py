#!/usr/bin/env python3
"""experiments/loss_on_picks/table.py on made-up evaluations: the rows in order (the start, the
control's checkpoints, the picks' checkpoints), a split not yet evaluated left blank, other problems'
and unrelated folders ignored, and a clear refusal when nothing is there.

  python3 tests/experiments/loss_on_picks_table_test.py
"""
import json
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "loss_on_picks", "table.py")


def write_eval(root, name, gap, valid, heuristic=0.04):
    os.makedirs(os.path.join(root, name))
    rows = [{"row": "model alone", "method": "greedy", "gap_all": gap, "feasible_raw": valid},
            {"row": "simple heuristic", "method": "solver:greedy", "gap_all": heuristic, "feasible_raw": 1.0}]
    with open(os.path.join(root, name, "summary.json"), "w") as f:
        json.dump({"rows": rows}, f)


def table(root, problem):
    return subprocess.run(["python3", SCRIPT, root, problem], capture_output=True, text=True)


class Table(unittest.TestCase):
    def test_rows_in_order_with_a_missing_split_blank(self):
        with tempfile.TemporaryDirectory() as d:
            write_eval(d, "mis_picks_step_100_val", 0.06, 0.99)
            write_eval(d, "mis_picks_step_100_test", 0.07, 0.98)
            write_eval(d, "mis_every_step_50_val", 0.05, 1.0)
            write_eval(d, "mis_start_val", 0.0459, 1.0)
            write_eval(d, "mis_start_test", 0.0519, 0.995, heuristic=0.0403)
            write_eval(d, "mvc_picks_step_100_val", 0.5, 1.0)  # another problem's
            os.makedirs(os.path.join(d, "mis_picks_step_200_val"))  # not finished: no summary.json
            r = table(d, "mis")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "| arm | step | model alone (val) | model alone (test) |")
        self.assertEqual(lines[2], "| the start (the release) |  | 4.59% (100.0% valid) | 5.19% (99.5% valid) |")
        self.assertEqual(lines[3], "| loss on every token | 50 | 5.00% (100.0% valid) |  |")
        self.assertEqual(lines[4], "| loss on the picks | 100 | 6.00% (99.0% valid) | 7.00% (98.0% valid) |")
        self.assertEqual(len([l for l in lines if l.startswith("| loss")]), 2)
        self.assertEqual(lines[-1], "simple heuristic: test 4.03%, val 4.00%")

    def test_refuses_when_nothing_is_evaluated(self):
        with tempfile.TemporaryDirectory() as d:
            write_eval(d, "mvc_start_val", 0.05, 1.0)
            r = table(d, "op")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no evaluations of op", r.stderr)
        self.assertIn("run.sh op", r.stderr)


if __name__ == "__main__":
    unittest.main()
