#!/usr/bin/env python3
"""experiments/learning_curves/problems/mixing/dataset_curves.py: one dataset's loss against its own
batches, from fake metrics logs of a run alone, a run of two datasets and a run started from
another's checkpoint (no C++ build needed).

  python3 tests/experiments/dataset_curves_test.py
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "learning_curves", "problems", "mixing", "dataset_curves.py")


def write_run(root, name, lines):
    os.makedirs(os.path.join(root, name))
    with open(os.path.join(root, name, "metrics.jsonl"), "w") as f:
        for line in lines:
            f.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    return os.path.join(root, name)


class DatasetCurves(unittest.TestCase):
    def run_script(self, out, *runs):
        return subprocess.run([sys.executable, SCRIPT, "--out", out, "--dataset", "mvc50", *runs],
                              capture_output=True, text=True)

    def test_alone_mixed_and_continued_runs_meet_at_equal_batches(self):
        with tempfile.TemporaryDirectory() as d:
            alone = write_run(d, "alone", [{"type": "sft", "step": s, "loss": 3.0 - s / 100} for s in (25, 50, 75, 100)]
                              + [{"type": "eval", "eval": {"feasible": 1.0}}])
            # Half the batches MVC: step 100 is its 50th batch. Lines without an MVC batch name only JSSP;
            # the stage after SFT is not read (its step 100 would make the cell at 50 batches 5.90).
            mixed = write_run(d, "mixed", [
                {"type": "sft", "step": 75, "loss": 0.4, "loss_by_dataset": {"jssp6": 0.4}},
                {"type": "sft", "step": 100, "loss": 0.5, "loss_by_dataset": {"jssp6": 0.5, "mvc50": 2.8}},
                {"type": "sft", "step": 200, "loss": 2.7, "loss_by_dataset": {"mvc50": 2.7}},
                {"type": "bopo", "step": 100, "loss": 9.0, "loss_by_dataset": {"mvc50": 9.0}}])
            # Started from a model that had seen 50 MVC batches.
            continued = write_run(d, "continued", [{"type": "sft", "step": 50, "loss": 1.5}])
            out = os.path.join(d, "mvc.md")
            r = self.run_script(out, "alone=" + alone, "mixed=" + mixed + ":0.5", "continued=" + continued + ":1:50")
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                text = f.read()
            self.assertIn("| run | 50 | 100 |", text)
            # alone: 2.50 at 50 (steps 50 only: 37.5-62.5), 2.00 at 100; mixed: 2.80 at 50 batches, 2.70 at 100;
            # continued: its step 50 is batch 100.
            self.assertIn("| alone | 2.50 | 2.00 |", text)
            self.assertIn("| mixed | 2.80 | 2.70 |", text)
            self.assertIn("| continued |  | 1.50 |", text)
            self.assertIn("](mvc.png)", text)
            with open(os.path.join(d, "mvc.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_a_curriculum_reads_each_stage_with_its_own_share_and_offset(self):
        with tempfile.TemporaryDirectory() as d:
            # A first SFT stage of MVC and MIS in equal shares, then a second in which MVC has a quarter of the
            # batches; both stages count their steps from 1, so their step 100 lines are different batches.
            run = write_run(d, "curriculum", [
                {"stage": "graphs", "type": "sft", "step": 100, "loss": 2.0, "loss_by_dataset": {"mvc50": 2.0}},
                {"stage": "all", "type": "sft", "step": 100, "loss": 1.0, "loss_by_dataset": {"mvc50": 1.0}}])
            out = os.path.join(d, "mvc.md")
            r = self.run_script(out, "first=" + run + "@graphs:0.5", "then=" + run + "@all:0.25:50")
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                text = f.read()
            # first: step 100 of the first stage is MVC batch 50; then: 50 + 100 * 0.25 = 75, no mark near it,
            # so the table ends at 50 and the second stage is only in the picture.
            self.assertIn("| first | 2.00 |", text)
            self.assertIn("| then |  |", text)
            r = self.run_script(out, "x=" + run + "@bopo")
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("has no SFT loss of 'mvc50' in stage 'bopo'", r.stderr)
            r = self.run_script(out, "x=" + run + "@:0.5")
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("name the stage after '@'", r.stderr)

    def test_bad_inputs_get_one_line_naming_the_place(self):
        with tempfile.TemporaryDirectory() as d:
            cut = write_run(d, "cut", [{"type": "sft", "step": 25, "loss": 3.0}, '{"type": "sft", "st'])
            wrong = write_run(d, "wrong", [{"type": "sft", "step": 25, "loss_by_dataset": {"mvc50": "low"}}])
            other = write_run(d, "other", [{"type": "sft", "step": 25, "loss": 1.0, "loss_by_dataset": {"tsp20": 1.0}}])
            out = os.path.join(d, "x.md")
            cases = [(["cut=" + cut], "metrics.jsonl:2 is not JSON"),
                     (["other=" + other + ":0.5"], "has no SFT loss of 'mvc50'"),
                     (["wrong=" + wrong + ":0.5"], "metrics.jsonl:1: the step and the loss of 'mvc50' must be numbers"),
                     (["nolabel"], "is not LABEL=RUN_DIR"),
                     (["a=" + cut + ":2"], "SHARE must be in (0, 1]"),
                     (["a=" + cut + ":half"], "SHARE and OFFSET must be numbers"),
                     (["a=" + os.path.join(d, "none")], "does not exist")]
            for runs, message in cases:
                r = self.run_script(out, *runs)
                self.assertNotEqual(r.returncode, 0, runs)
                self.assertIn(message, r.stderr, runs)
            self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
