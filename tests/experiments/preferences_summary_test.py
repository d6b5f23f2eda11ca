#!/usr/bin/env python3
"""experiments/learning_curves/problems/preferences_summary.py: the cross-problem table and its
picture from fake bopo_vs_sft.md reports (no C++ build needed).

  python3 tests/experiments/preferences_summary_test.py
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "learning_curves", "problems", "preferences_summary.py")

REPORT = """# BOPO vs ...

## Last checkpoint of each run

| arm | seed | steps | minutes | valid | greedy gap | sample valid | best-of-8 gap | skipped |
|---|---|---|---|---|---|---|---|---|
| bopo | 1 | 60 | 4.9 | 96.0 | 33.49 | 82.5 | 21.00 | 10.0% (96 pairs) |
| grpo | 1 | 60 | 6.6 | 100.0 | 34.37 | 96.4 | 22.00 | 0.0% |
| sft | 1 | 150 | 4.8 | 94.0 | 35.28 | 80.1 | 20.00 | - |
| bopo | 2 | 60 | 4.9 | 90.0 | 34.37 | 78.1 | 23.00 | 30.0% (103 pairs) |
| sft | 2 | 150 | 3.5 | 92.0 | 35.28 | 80.1 | 24.00 | - |

## Mean ± standard deviation over the seeds

| arm | runs | valid | greedy gap | sample valid | best-of-8 gap |
|---|---|---|---|---|---|
| bopo | 2 | 93.00 ± 4.24 | 1.00 | 1.00 | 1.00 |
"""


class PreferencesSummary(unittest.TestCase):
    def test_means_seed_by_seed_wins_and_missing_studies(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "op"))
            with open(os.path.join(d, "op", "bopo_vs_sft.md"), "w") as f:
                f.write(REPORT)
            out = os.path.join(d, "summary.md")
            subprocess.run([sys.executable, SCRIPT, "--out", out, "OP-20=" + os.path.join(d, "op"),
                            "MVC=" + os.path.join(d, "none")], check=True, capture_output=True)
            with open(out) as f:
                text = f.read()
            # Only the per-run rows are read (not the mean table); GRPO ran on seed 1 only;
            # BOPO beat SFT on seed 2 (23 < 24) but not on seed 1 (21 > 20). More SFT's minutes over BOPO's:
            # 4.8 / 4.9 and 3.5 / 4.9.
            self.assertIn("| OP-20 | 2 | 22.00 ± 1.41 | 22.00 ± 2.83 | 22.00 (1 seed) | 1 of 2 | 1 of 1 | "
                          "93.00 ± 4.24 | 93.00 ± 1.41 | 100.00 (1 seed) | 20.0% | 85% (71-98%) |", text)
            self.assertIn("| MVC | 0 | not run | not run | not run | - | - | not run | not run | not run | - | - |", text)
            # The picture beside the table, linked from it.
            self.assertIn("](summary.png)", text)
            with open(os.path.join(d, "summary.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_an_arm_with_fewer_seeds_than_its_row_says_how_many(self):
        three_seeds = REPORT.replace("| sft | 2 | 150 |", "| grpo | 2 | 60 | 6.6 | 90.0 | 34.37 | 96.4 | 24.00 | 0.0% |\n"
                                     "| bopo | 3 | 60 | 4.9 | 90.0 | 34.37 | 78.1 | 22.00 | 30.0% (103 pairs) |\n"
                                     "| sft | 2 | 150 |")
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "bopo_vs_sft.md"), "w") as f:
                f.write(three_seeds)
            out = os.path.join(d, "summary.md")
            subprocess.run([sys.executable, SCRIPT, "--out", out, "OP-20=" + d], check=True, capture_output=True)
            with open(out) as f:
                text = f.read()
            # BOPO on seeds 1-3, more SFT and GRPO on 1 and 2.
            self.assertIn("| OP-20 | 3 | 22.00 ± 1.00 | 22.00 ± 2.83 (2 seeds) | 23.00 ± 1.41 (2 seeds) |", text)

    def test_an_argument_without_a_report_folder_is_refused(self):
        result = subprocess.run([sys.executable, SCRIPT, "--out", os.devnull, "op"], capture_output=True, text=True)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("'op' is not PROBLEM=REPORT_DIR", result.stderr)


if __name__ == "__main__":
    unittest.main()
