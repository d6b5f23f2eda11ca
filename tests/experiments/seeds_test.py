#!/usr/bin/env python3
"""experiments/learning_curves/seeds.py: two seeds side by side from curves.py-style tables.

  python3 tests/experiments/seeds_test.py       # what ctest runs (no C++ build needed)
Needs matplotlib (skipped without it).
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "learning_curves", "seeds.py")

try:
    import matplotlib  # noqa: F401
except ImportError:
    matplotlib = None

HEADER = ["| step | sequences | minutes | loss/token | raw valid % | raw gap % (valid) | repaired gap % |",
          "|---:|---:|---:|---:|---:|---:|---:|"]


def write_tables(path, sections):
    lines = ["# Learning curves", ""]
    for name, rows in sections.items():
        lines += ["## " + name, "", "Some prose.", ""] + HEADER
        lines += [f"| {s} | {32 * s} | {m} | 0.3 | {v} | {g} | {g} |" for s, m, v, g in rows] + [""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


@unittest.skipIf(matplotlib is None, "matplotlib is not installed")
class Seeds(unittest.TestCase):
    def test_seeds_side_by_side_at_equal_steps(self):
        with tempfile.TemporaryDirectory() as d:
            write_tables(os.path.join(d, "a.md"), {"run": [(250, 6.2, 0.0, "nan"), (500, 12.3, 72.0, 132.6)],
                                                  "run_cooldown": [(750, 18.0, 99.0, 11.5)]})
            write_tables(os.path.join(d, "b.md"), {"other": [(500, 9.0, 80.0, 30.25)]})
            out = subprocess.run([sys.executable, SCRIPT, "--out", d, "s1=" + os.path.join(d, "a.md") + ":run,run_cooldown",
                                  "s2=" + os.path.join(d, "b.md") + ":other"], check=True, capture_output=True, text=True)
            with open(os.path.join(d, "seeds.md")) as f:
                text = f.read()
            self.assertEqual(text, out.stdout)
            self.assertIn("| 250 | 6.2 | 0.0 | nan | - | - | - |", text)
            self.assertIn("| 500 | 12.3 | 72.0 | 132.6 | 9.0 | 80.0 | 30.2 |", text)
            self.assertIn("| 750 | 18.0 | 99.0 | 11.5 | - | - | - |", text)  # the cooldown continues seed 1
            self.assertTrue(os.path.getsize(os.path.join(d, "seeds.png")) > 1000)
            subprocess.run([sys.executable, SCRIPT, "--out", d, "--what", "MIS ER-50", "s1=" + os.path.join(d, "a.md") + ":run",
                            "s2=" + os.path.join(d, "b.md") + ":other"], check=True, capture_output=True)
            with open(os.path.join(d, "seeds.md")) as f:
                self.assertEqual(f.readline(), "# Seeds of one recipe, MIS ER-50\n")

    def test_a_missing_section_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            write_tables(os.path.join(d, "a.md"), {"run": [(250, 6.2, 0.0, "nan")]})
            r = subprocess.run([sys.executable, SCRIPT, "--out", d, "s1=" + os.path.join(d, "a.md") + ":runn",
                                "s2=" + os.path.join(d, "a.md") + ":run"], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("has no section 'runn' (has: run)", r.stderr)


if __name__ == "__main__":
    unittest.main()
