#!/usr/bin/env python3
"""experiments/learning_curves/bopo_vs_sft.py: its tables and picture from fake runs of two seeds.

  python3 tests/experiments/bopo_vs_sft_test.py       # what ctest runs (no C++ build needed)
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
SCRIPT = os.path.join(ROOT, "experiments", "learning_curves", "bopo_vs_sft.py")

try:
    import matplotlib  # noqa: F401
except ImportError:
    matplotlib = None


def write_summary(path, valid, greedy_gap, sample_valid, best8_gap):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rows = [{"row": "greedy_raw", "feasible_raw": valid, "gap_all": greedy_gap},
            {"row": "best_of_8", "sample_feasible_raw": sample_valid, "gap_all": best8_gap}]
    with open(path, "w") as f:
        json.dump({"instances": 200, "rows": rows}, f)


def write_run(run_dir, kind, seconds_per_step, steps, evaluated):
    """A metrics log (one line every 10 steps) and the summaries of the evaluated checkpoints."""
    os.makedirs(run_dir)
    with open(os.path.join(run_dir, "metrics.jsonl"), "w") as f:
        for step in range(10, steps + 1, 10):
            line = {"stage": kind, "type": kind, "step": step, "time": 1000.0 + seconds_per_step * step, "loss": 0.1}
            if kind == "bopo":
                line.update({"groups": 6, "skipped_groups": 2, "pairs": 30})
            if kind == "grpo":
                line.update({"groups": 7, "skipped_groups": 1, "pairs": 0})
            f.write(json.dumps(line) + "\n")
    for step, figures in evaluated.items():
        write_summary(os.path.join(run_dir, "eval", f"step_{step}", "summary.json"), *figures)


@unittest.skipIf(matplotlib is None, "matplotlib is not installed")
class BopoVsSft(unittest.TestCase):
    def test_last_checkpoints_their_mean_and_spread_and_the_picture(self):
        with tempfile.TemporaryDirectory() as d:
            runs = os.path.join(d, "runs")
            write_summary(os.path.join(runs, "base", "eval", "summary.json"), 0.9, 0.2, 0.6, 0.12)
            # BOPO: 3 s a step, 40 steps; SFT: 1 s a step, 120 steps (the same 2 minutes).
            write_run(os.path.join(runs, "bopo_seed1"), "bopo", 3.0, 40, {20: (0.9, 0.18, 0.5, 0.11), 40: (0.95, 0.15, 0.5, 0.10)})
            write_run(os.path.join(runs, "bopo_seed2"), "bopo", 3.0, 40, {40: (0.85, 0.17, 0.5, 0.08)})
            write_run(os.path.join(runs, "sft_seed1"), "sft", 1.0, 120, {120: (0.9, 0.19, 0.6, 0.12)})
            write_run(os.path.join(runs, "sft_seed2"), "sft", 1.0, 120, {120: (0.9, 0.21, 0.6, 0.12)})
            with open(os.path.join(runs, "bopo_args"), "w") as f:
                f.write("stages[1].sft_weight=1\n")
            with open(os.path.join(runs, "train_args"), "w") as f:
                f.write("stages[1].loss_on_notes=false\n")
            with open(os.path.join(runs, "base_checkpoint"), "w") as f:
                f.write("runs/sft_tsp/checkpoints/step_1200\n")
            out = os.path.join(d, "out")
            os.makedirs(out)
            subprocess.run([sys.executable, SCRIPT, "--out", out, runs, "1", "2"], check=True, capture_output=True)
            with open(os.path.join(out, "bopo_vs_sft.md")) as f:
                text = f.read()
            self.assertIn("(seeds 1 2; BOPO arm with `stages[1].sft_weight=1`; every arm with "
                          "`stages[1].loss_on_notes=false`)", text)
            self.assertIn("Starting checkpoint (`runs/sft_tsp/checkpoints/step_1200`): 90.0% valid, greedy gap 20.00%, sample valid 60.0%, best-of-8 gap 12.00%.",
                          text)
            # The last checkpoint of each run, at its training minutes; BOPO's skip rate over the logged steps.
            self.assertIn("| bopo | 1 | 40 | 2.0 | 95.0 | 15.00 | 50.0 | 10.00 | 25.0% (120 pairs) |", text)
            self.assertIn("| sft | 2 | 120 | 2.0 | 90.0 | 21.00 | 60.0 | 12.00 | - |", text)
            # Mean ± sample standard deviation over the two seeds.
            self.assertIn("| bopo | 2 | 90.00 ± 7.07 | 16.00 ± 1.41 | 50.00 ± 0.00 | 9.00 ± 1.41 |", text)
            self.assertIn("| sft | 2 | 90.00 ± 0.00 | 20.00 ± 1.41 |", text)
            self.assertTrue(os.path.getsize(os.path.join(out, "bopo_vs_sft.png")) > 1000)
            self.assertIn("TSP-20 (200 held-out instances)", text)  # no problem file: the TSP runs
            self.assertNotIn("| grpo |", text)

    def test_a_grpo_arm_and_another_problem(self):
        with tempfile.TemporaryDirectory() as d:
            runs = os.path.join(d, "runs")
            write_summary(os.path.join(runs, "base", "eval", "summary.json"), 0.97, 0.2, 0.97, 0.14)
            with open(os.path.join(runs, "problem"), "w") as f:
                f.write("jssp\n")
            write_run(os.path.join(runs, "bopo_seed1"), "bopo", 3.0, 40, {40: (0.95, 0.15, 0.5, 0.10)})
            write_run(os.path.join(runs, "grpo_seed1"), "grpo", 2.0, 40, {40: (0.96, 0.16, 0.9, 0.12)})
            write_run(os.path.join(runs, "sft_seed1"), "sft", 1.0, 120, {120: (0.9, 0.19, 0.6, 0.12)})
            out = os.path.join(d, "out")
            os.makedirs(out)
            subprocess.run([sys.executable, SCRIPT, "--out", out, runs, "1"], check=True, capture_output=True)
            with open(os.path.join(out, "bopo_vs_sft.md")) as f:
                text = f.read()
            self.assertIn("JSSP 6x6 (200 held-out instances)", text)
            self.assertIn("Arms run: bopo, grpo, sft;", text)
            # GRPO's degenerate groups (all rewards equal) without BOPO's pair count.
            self.assertIn("| grpo | 1 | 40 | 1.3 | 96.0 | 16.00 | 90.0 | 12.00 | 12.5% |", text)
            self.assertIn("| grpo | 1 | 96.00 | 16.00 | 90.00 | 12.00 |", text)

    def test_runs_missing_from_the_runs_folder_are_read_from_the_archive_beside_the_report(self):
        with tempfile.TemporaryDirectory() as d:
            runs, out = os.path.join(d, "runs"), os.path.join(d, "out")
            archive = os.path.join(out, "runs")  # what bopo_vs_sft.sh keeps of each finished run
            write_summary(os.path.join(archive, "base", "eval", "summary.json"), 0.98, 0.07, 0.89, 0.0126)
            with open(os.path.join(archive, "problem"), "w") as f:
                f.write("mis\n")
            write_run(os.path.join(archive, "bopo_seed1"), "bopo", 3.0, 40, {40: (0.89, 0.15, 0.72, 0.0085)})
            # Seed 2 is still in the runs folder (not archived yet): read from there.
            write_run(os.path.join(runs, "bopo_seed2"), "bopo", 3.0, 40, {40: (0.91, 0.13, 0.81, 0.0108)})
            subprocess.run([sys.executable, SCRIPT, "--out", out, runs, "1", "2"], check=True, capture_output=True)
            with open(os.path.join(out, "bopo_vs_sft.md")) as f:
                text = f.read()
            self.assertIn("MIS (ER-50)", text)
            self.assertIn("98.0% valid, greedy gap 7.00%", text)
            self.assertIn("| bopo | 1 | 40 | 2.0 | 89.0 | 15.00 | 72.0 | 0.85 |", text)
            self.assertIn("| bopo | 2 | 40 | 2.0 | 91.0 | 13.00 | 81.0 | 1.08 |", text)

    def test_without_the_starting_checkpoints_evaluation_it_says_where_it_looked(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            result = subprocess.run([sys.executable, SCRIPT, "--out", out, os.path.join(d, "runs"), "1"],
                                    capture_output=True, text=True)
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("base/eval/summary.json", result.stderr)
            self.assertIn(os.path.join(out, "runs"), result.stderr)


if __name__ == "__main__":
    unittest.main()
