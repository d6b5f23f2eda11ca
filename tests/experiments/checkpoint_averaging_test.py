#!/usr/bin/env python3
"""experiments/checkpoint_averaging/study.py with stand-in falcon_eval and falcon_average programs
(no C++ build needed): what it evaluates, that k is chosen on the validation split, that a rerun
evaluates nothing again, and its refusals.

  python3 tests/experiments/checkpoint_averaging_test.py
"""
import json
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "checkpoint_averaging", "study.py")

# falcon_eval's stand-in: the model alone's gap is GAPS[model][split], the model a step_N
# checkpoint's or a model directory's base name; each call noted in $CALLS.
FAKE_EVAL = r'''#!/usr/bin/env python3
import json, os, sys
args = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
model = os.path.basename(args.get("model.checkpoint") or args["model.path"])
split = args["data.split"]
gap = json.loads(os.environ["GAPS"])[model][split]
open(os.environ["CALLS"], "a").write(f"eval {model} {split}\n")
os.makedirs(args["output_dir"], exist_ok=True)
rows = [{"gap_all": gap, "gap_feasible": gap, "feasible_raw": 1.0}, {"gap_all": 0.05}]
json.dump({"rows": rows}, open(os.path.join(args["output_dir"], "summary.json"), "w"))
'''
FAKE_AVERAGE = r'''#!/usr/bin/env python3
import os, sys
out = sys.argv[sys.argv.index("--out") + 1]
open(os.environ["CALLS"], "a").write("average " + " ".join(os.path.basename(a) for a in sys.argv[1:sys.argv.index("--tokenizer")]) + "\n")
os.makedirs(out)
'''


class Study(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        os.makedirs(os.path.join(d, "build", "tools"))
        for name, body in (("falcon_eval", FAKE_EVAL), ("falcon_average", FAKE_AVERAGE)):
            path = os.path.join(d, "build", "tools", name)
            open(path, "w").write(body)
            os.chmod(path, 0o755)
        for step in (100, 200, 300):
            os.makedirs(os.path.join(d, "run", "checkpoints", f"step_{step}"))
        os.makedirs(os.path.join(d, "start"))
        self.calls = os.path.join(d, "calls")
        # Val prefers the mean of the last 2, test the mean of the last 3: the choice must follow val.
        gaps = {"start": {"val": 0.10, "test": 0.10}, "step_100": {"val": 0.09, "test": 0.09},
                "step_200": {"val": 0.08, "test": 0.08}, "step_300": {"val": 0.07, "test": 0.07},
                "mean_200-300": {"val": 0.05, "test": 0.06}, "mean_200-300+start": {"val": 0.06, "test": 0.06},
                "mean_100-300": {"val": 0.055, "test": 0.04}, "mean_100-300+start": {"val": 0.08, "test": 0.08}}
        self.env = dict(os.environ, BUILD=os.path.join(d, "build"), CALLS=self.calls, GAPS=json.dumps(gaps))

    def tearDown(self):
        self.tmp.cleanup()

    def study(self, ks):
        d = self.tmp.name
        return subprocess.run(["/usr/bin/python3", SCRIPT, "--run", os.path.join(d, "run"), "--start",
                               os.path.join(d, "start"), "--eval", "eval.yaml", "--ks", ks, "--out",
                               os.path.join(d, "out")], env=self.env, capture_output=True, text=True)

    def calls_made(self):
        return open(self.calls).read().splitlines() if os.path.exists(self.calls) else []

    def test_chooses_on_val_and_reruns_nothing(self):
        done = self.study("2,3")
        self.assertEqual(done.returncode, 0, done.stderr)
        calls = self.calls_made()
        self.assertIn("average step_200 step_300", calls)
        self.assertIn("average step_100 step_200 step_300 start", calls)
        self.assertEqual(sum(c.startswith("eval ") for c in calls), 2 * 8)  # 8 models x 2 splits
        table = open(os.path.join(self.tmp.name, "out", "table.md")).read()
        self.assertIn("mean of the last 2 (200-300) **(chosen on val)**", table)
        self.assertIn("Chosen on val: `mean_200-300`, test 6.00%; the run's end 7.00%; the start 10.00%.", table)
        self.assertIn("| step_300 (the run's end) | 7.00% | 7.00% |", table)
        os.remove(self.calls)
        self.assertEqual(self.study("2,3").returncode, 0)
        self.assertEqual(self.calls_made(), [])  # every point was kept

    def test_checkpoints_only_while_training_and_refusals(self):
        done = self.study("")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertFalse([c for c in self.calls_made() if c.startswith("average")])
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "out", "table.md")))
        for ks in ("4", "1"):
            done = self.study(ks)
            self.assertNotEqual(done.returncode, 0)
            self.assertIn("holds 3 checkpoints; give counts from 2 to that", done.stderr)


if __name__ == "__main__":
    unittest.main()
