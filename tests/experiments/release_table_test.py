#!/usr/bin/env python3
"""experiments/release_table/collect.py: its results.md from fake release evaluations.

  python3 tests/experiments/release_table_test.py     # what ctest runs (no C++ build needed)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "release_table", "collect.py")


def write_summary(runs, problem, rows, paired):
    path = os.path.join(runs, problem, "eval")
    os.makedirs(path)
    with open(os.path.join(path, "summary.json"), "w") as f:
        json.dump({"instances": 100, "rows": rows, "paired": paired}, f)


def collect(runs, out, *more):
    return subprocess.run([sys.executable, SCRIPT, "--runs", runs, "--out", out, "--command", "run.sh", *more],
                          capture_output=True, text=True)


class ReleaseTable(unittest.TestCase):
    def test_one_line_per_problem_in_the_papers_order_with_its_rows_and_pairs(self):
        with tempfile.TemporaryDirectory() as d:
            runs, out = os.path.join(d, "runs"), os.path.join(d, "results.md")
            alone = {"row": "model alone", "feasible_raw": 0.725, "gap_all": 0.4597, "gap_feasible": 0.2547}
            adaptive = {"row": "FALCON adaptive", "feasible_raw": 0.75, "gap_all": 0.099, "gap_feasible": 0.099}
            write_summary(runs, "cvrp", [alone, adaptive, {"row": "repair alone", "gap_all": 0.4081}],
                          [{"row": "FALCON adaptive", "against": "repair alone", "wins": 100, "ties": 0, "losses": 0}])
            write_summary(runs, "tsp", [alone], [])  # rows a config lacks are "-"
            result = collect(runs, out)
            self.assertEqual(result.returncode, 0, result.stderr)
            lines = [l for l in open(out).read().splitlines() if l.startswith("| tsp") or l.startswith("| cvrp")]
            self.assertEqual([l.split(" | ")[0] for l in lines], ["| tsp", "| cvrp"])
            cvrp = lines[1].split(" | ")
            self.assertEqual(cvrp[2:5], ["72.5%", "45.97%", "25.47%"])
            self.assertIn("40.81%", cvrp)
            self.assertIn("9.90%", cvrp)
            self.assertIn("100 / 0 / 0", cvrp)
            self.assertEqual(lines[0].count(" - "), 10)  # 6 gap rows and 4 pairs missing

    def test_each_eval_is_kept_as_a_table1_point_that_the_tables_read(self):
        with tempfile.TemporaryDirectory() as d:
            runs, archive = os.path.join(d, "runs"), os.path.join(d, "points")
            write_summary(runs, "op", [{"row": "model alone", "feasible": 0.95, "feasible_raw": 0.95, "gap_feasible": 0.26}], [])
            with open(os.path.join(runs, "op", "eval", "config.yaml"), "w") as f:
                f.write("model: {path: models/op}\ndata: {dataset: runs/op/test.h5, limit: 100}\nthreads: 1\n")
            with open(os.path.join(runs, "op", "seconds"), "w") as f:
                f.write("110\n")
            result = collect(runs, os.path.join(d, "results.md"), "--archive", archive)
            self.assertEqual(result.returncode, 0, result.stderr)
            sys.path.insert(0, os.path.join(ROOT, "experiments", "common"))
            from runs import Point
            point = Point(archive, "table1_released", "op")
            self.assertTrue(point.done)
            self.assertEqual(point.row("model alone")["gap_feasible"], 0.26)
            self.assertEqual(point.meta()["model"], "models/op")
            with open(os.path.join(point.dir, "done")) as f:
                self.assertEqual(json.load(f), {"seconds": 110.0})

    def test_a_problem_not_run_again_keeps_its_archived_line(self):
        with tempfile.TemporaryDirectory() as d:
            archive, out = os.path.join(d, "points"), os.path.join(d, "results.md")
            for runs, problem, gap in ((os.path.join(d, "first"), "op", 0.26), (os.path.join(d, "second"), "tsp", 0.09)):
                write_summary(runs, problem, [{"row": "model alone", "feasible_raw": 1.0, "gap_all": gap,
                                               "gap_feasible": gap}], [])
                with open(os.path.join(runs, problem, "eval", "config.yaml"), "w") as f:
                    f.write(f"model: {{path: models/{problem}}}\ndata: {{dataset: t.h5, limit: 100}}\nthreads: 1\n")
                result = collect(runs, out, "--archive", archive)
                self.assertEqual(result.returncode, 0, result.stderr)
            lines = [l for l in open(out).read().splitlines() if l.startswith("| op") or l.startswith("| tsp")]
            self.assertEqual([l.split(" | ")[0] for l in lines], ["| tsp", "| op"])
            self.assertEqual(lines[1].split(" | ")[3], "26.00%")

    def test_no_runs_is_one_clear_error(self):
        with tempfile.TemporaryDirectory() as d:
            result = collect(os.path.join(d, "nothing"), os.path.join(d, "results.md"))
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("run experiments/release_table/run.sh", result.stderr)


if __name__ == "__main__":
    unittest.main()
