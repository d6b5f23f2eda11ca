#!/usr/bin/env python3
"""tools/falcon_sweep.py against a fake program (tests/tools/fake_program.py) that writes
falcon_eval- and falcon_train-shaped summaries: grid expansion, zip groups and labelled variants,
resume, changed-sweep detection, strict errors and the collected table. No C++ build needed.

  python3 -m unittest tests/tools/falcon_sweep_test.py        # from the repository root
  tests/tools/falcon_sweep_test.py                             # what ctest runs (exit 77: skipped)
"""
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "falcon_sweep.py")
FAKE = os.path.join(HERE, "fake_program.py")

try:
    import yaml  # noqa: F401  (the tool needs it; python3-yaml)
except ImportError:
    yaml = None


@unittest.skipIf(yaml is None, "python3-yaml is not installed (tools/setup.sh installs it)")
class FalconSweep(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.out = os.path.join(self.dir, "out")
        self.fake_config({})

    def tearDown(self):
        self.tmp.cleanup()

    def fake_config(self, config):
        with open(os.path.join(self.dir, "fake.json"), "w") as f:
            json.dump(config, f)

    def write_sweep(self, body, program=FAKE, config="fake.json"):
        path = os.path.join(self.dir, "sweep.yaml")
        with open(path, "w") as f:
            f.write(f"program: {program}\nconfig: {config}\noutput_dir: out\n" + textwrap.dedent(body))
        return path

    def sweep(self, *args):
        """Runs the tool in self.dir (paths in the sweep file are relative to where it runs)."""
        r = subprocess.run([sys.executable, TOOL, "sweep.yaml", *args], cwd=self.dir, capture_output=True,
                           text=True, timeout=60)
        return r.returncode, r.stdout, r.stderr

    def calls(self, point):
        path = os.path.join(self.out, point, "calls.jsonl")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [json.loads(line) for line in f]

    def table(self):
        with open(os.path.join(self.out, "table.csv")) as f:
            return list(csv.reader(f))

    GRID = """\
        overrides: [data.limit=20]
        axes:
          rows[1].tau: [0.8, 0.9]
          rows[1].n_max: [16, 64]
        collect:
          rows: [adaptive]
          fields: [gap_all, settings.tau, settings.n_max]
        """

    def test_grid_runs_every_point_with_its_overrides(self):
        self.write_sweep(self.GRID)
        rc, out, err = self.sweep()
        self.assertEqual(rc, 0, err)
        names = sorted(d for d in os.listdir(self.out) if os.path.isdir(os.path.join(self.out, d)))
        self.assertEqual(names, sorted(f"tau={t},n_max={n}" for t in ("0.8", "0.9") for n in (16, 64)))
        # fixed overrides first, then the point's, then its own output_dir
        self.assertEqual(self.calls("tau=0.9,n_max=16"),
                         [["data.limit=20", "rows[1].tau=0.9", "rows[1].n_max=16", "output_dir=out/tau=0.9,n_max=16"]])
        for name in names:
            for file in ("done", "point.json", "log.txt", "summary.json"):
                self.assertTrue(os.path.exists(os.path.join(self.out, name, file)), (name, file))
        with open(os.path.join(self.out, "tau=0.9,n_max=16", "point.json")) as f:
            record = json.load(f)
        self.assertEqual(record["overrides"], ["data.limit=20", "rows[1].tau=0.9", "rows[1].n_max=16"])
        self.assertIn("[4/4]", err)
        self.assertIn("ETA", err)

    def test_zip_groups_and_labelled_variants(self):
        self.write_sweep("""\
            axes:
              variant:
                full: {}
                w/o grammar:
                  rows[0].grammar: false
                  rows[1].grammar: false
                sem: {"rows[1].semantic_mask": true}
            zip:
              - rows[1].n_min: [4, 8]
                rows[1].n_max: [16, 64]
            collect: {fields: [settings.grammar, settings.n_min, settings.n_max]}
            """)
        rc, out, err = self.sweep()
        self.assertEqual(rc, 0, err)
        self.assertEqual(len([d for d in os.listdir(self.out) if os.path.isdir(os.path.join(self.out, d))]), 6)
        self.assertEqual(self.calls("w_o_grammar,n_min=8,n_max=64")[0][:4],
                         ["rows[0].grammar=false", "rows[1].grammar=false", "rows[1].n_min=8", "rows[1].n_max=64"])
        self.assertEqual(self.calls("sem,n_min=4,n_max=16")[0][0], "rows[1].semantic_mask=true")
        self.assertEqual(self.calls("full,n_min=4,n_max=16")[0][:2], ["rows[1].n_min=4", "rows[1].n_max=16"])
        rows = self.table()
        self.assertEqual(rows[0], ["variant", "rows[1].n_min", "rows[1].n_max", "row", "settings.grammar",
                                   "settings.n_min", "settings.n_max", "status"])
        self.assertIn(["w/o grammar", "8", "64", "adaptive", "false", "8", "64", "done"], rows)
        self.assertIn(["full", "4", "16", "greedy", "", "", "", "done"], rows)  # every row when none is chosen
        self.assertEqual(len(rows), 1 + 6 * 2)

    def test_resume_skips_done_points_continues_interrupted_ones_and_reruns_failed_ones(self):
        self.write_sweep(self.GRID)
        self.fake_config({"fail_if": ["rows[1].tau=0.9"]})
        rc, _, err = self.sweep()
        self.assertEqual(rc, 1, err)
        self.assertIn("failed (exit 3)", err)
        self.assertIn("fake: error: asked to fail", err)  # the log's last line, not just a code
        self.assertIn(["0.9", "16", "adaptive", "", "", "", "failed (exit 3)"], self.table())
        self.assertFalse(os.path.exists(os.path.join(self.out, "tau=0.9,n_max=16", "done")))

        # an interrupted point: started (point.json) but neither done nor failed
        os.remove(os.path.join(self.out, "tau=0.8,n_max=64", "done"))
        # the failed point left a training run's metrics, which falcon_train starts over only with --overwrite
        open(os.path.join(self.out, "tau=0.9,n_max=64", "metrics.jsonl"), "w").close()
        open(os.path.join(self.out, "tau=0.8,n_max=64", "metrics.jsonl"), "w").close()
        self.fake_config({})
        rc, _, err = self.sweep()
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(self.calls("tau=0.8,n_max=16")), 1)  # done: skipped
        self.assertEqual(len(self.calls("tau=0.8,n_max=64")), 2)  # interrupted: rerun
        self.assertEqual(len(self.calls("tau=0.9,n_max=64")), 2)  # failed: rerun
        # The interrupted point continues (--resume) below its earlier log; the failed one starts over.
        self.assertNotIn("--resume", self.calls("tau=0.8,n_max=64")[0])
        self.assertIn("--resume", self.calls("tau=0.8,n_max=64")[1])
        self.assertNotIn("--resume", self.calls("tau=0.9,n_max=64")[1])
        self.assertIn("--overwrite", self.calls("tau=0.9,n_max=64")[1])
        self.assertNotIn("--overwrite", self.calls("tau=0.8,n_max=64")[1])
        with open(os.path.join(self.out, "tau=0.8,n_max=64", "log.txt")) as f:
            self.assertEqual(f.read().count("$ "), 2)
        with open(os.path.join(self.out, "tau=0.9,n_max=64", "log.txt")) as f:
            self.assertEqual(f.read().count("$ "), 1)
        self.assertIn("done earlier, skipped", err)
        rc, _, err = self.sweep()
        self.assertEqual(rc, 0, err)
        self.assertNotIn("running", err)  # everything done: nothing runs
        self.assertEqual(len(self.calls("tau=0.9,n_max=64")), 2)

    def test_a_program_that_exits_0_without_a_summary_failed(self):
        self.write_sweep(self.GRID)
        self.fake_config({"no_summary_if": ["rows[1].n_max=64"]})
        rc, _, err = self.sweep()
        self.assertEqual(rc, 1, err)
        self.assertIn("failed (exit 0 but no summary.json)", err)

    def test_sigterm_stops_the_running_points_and_leaves_them_to_rerun(self):
        self.write_sweep(self.GRID)
        self.fake_config({"sleep_if": ["rows[1].tau=0.9"]})
        proc = subprocess.Popen([sys.executable, TOOL, "sweep.yaml"], cwd=self.dir, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        log = os.path.join(self.out, "tau=0.9,n_max=16", "calls.jsonl")
        def started():  # the call's line is complete: the file alone may exist before it is written
            try:
                with open(log) as f:
                    return f.read().endswith("\n")
            except OSError:
                return False
        deadline = time.monotonic() + 30
        while not started() and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn("interrupted", err)
        statuses = {(r[0], r[1]): r[-1] for r in self.table()[1:]}
        self.assertEqual(statuses[("0.8", "64")], "done")
        self.assertEqual(statuses[("0.9", "16")], "interrupted")
        self.assertEqual(statuses[("0.9", "64")], "not run")
        self.fake_config({})
        rc, _, err = self.sweep()
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(self.calls("tau=0.9,n_max=16")), 2)

    def test_a_changed_sweep_is_refused_unless_forced(self):
        self.write_sweep(self.GRID)
        self.assertEqual(self.sweep()[0], 0)
        self.write_sweep(self.GRID.replace("data.limit=20", "data.limit=50"))
        rc, out, err = self.sweep()
        self.assertEqual(rc, 2, err)
        self.assertIn("point tau=0.8,n_max=16 was run with other settings (data.limit: 20 -> 50)", err)
        self.assertIn("(and 3 more)", err)
        self.assertIn("--force", err)
        self.assertEqual(len(self.calls("tau=0.8,n_max=16")), 1)  # refused before anything ran
        self.assertIn(["0.8", "16", "adaptive", "", "", "", "changed"], self.table_after_collect())
        rc, _, err = self.sweep("--only", "tau=0.8,n_max=16", "--force")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.calls("tau=0.8,n_max=16")[-1][0], "data.limit=50")
        self.assertEqual(len(self.calls("tau=0.8,n_max=64")), 1)  # --only: the others untouched

    def table_after_collect(self):
        rc, out, err = self.sweep("--collect-only")
        self.assertEqual(rc, 0, err)
        return self.table()

    def test_only_runs_the_named_points_and_the_table_shows_the_rest_missing(self):
        self.write_sweep(self.GRID)
        rc, _, err = self.sweep("--only", "tau=0.8,*")
        self.assertEqual(rc, 0, err)
        rows = self.table()
        self.assertEqual(len(rows), 1 + 4)  # missing points stay in the table
        self.assertIn(["0.8", "64", "adaptive", "0.25", "0.8", "64", "done"], rows)
        self.assertIn(["0.9", "16", "adaptive", "", "", "", "not run"], rows)
        with open(os.path.join(self.out, "table.md")) as f:
            md = f.read()
        self.assertIn("| rows[1].tau | rows[1].n_max | row | gap_all | settings.tau | settings.n_max | status |", md)
        self.assertIn("| 0.9 | 64 | adaptive | - | - | - | not run |", md)
        self.assertIn("2 of 4 points done", md)
        with open(os.path.join(self.out, "table.tex")) as f:
            tex = f.read()
        self.assertIn(r"rows[1].tau & rows[1].n\_max & row & gap\_all", tex)
        self.assertIn(r"0.8 & 16 & adaptive & 0.25 & 0.8 & 16 & done \\", tex)
        self.assertIn(r"\bottomrule", tex)
        rc, _, err = self.sweep("--only", "tau=0.7*")
        self.assertEqual(rc, 2)
        self.assertIn("--only tau=0.7*: no such point", err)

    def test_train_summaries_collect_stages_and_nested_fields(self):
        self.fake_config({"kind": "train"})
        self.write_sweep("""\
            axes:
              stages[1].beta: [0.1, 0.2]
              stages[1].rollout.samples_per_instance: [4, 8]
            collect: {stages: [1], fields: [steps, eval.mean_gap, settings.beta]}
            """)
        rc, _, err = self.sweep("--jobs", "2")
        self.assertEqual(rc, 0, err)
        rows = self.table()
        self.assertEqual(rows[0], ["stages[1].beta", "stages[1].rollout.samples_per_instance", "stage", "steps",
                                   "eval.mean_gap", "settings.beta", "status"])
        self.assertIn(["0.2", "8", "bopo", "5", "1.0", "0.2", "done"], rows)
        self.assertTrue(os.path.isdir(os.path.join(self.out, "beta=0.2,samples_per_instance=4")))

    def test_a_collect_field_in_no_summary_is_an_error_naming_it(self):
        self.write_sweep(self.GRID.replace("settings.n_max]", "gap]"))
        rc, _, err = self.sweep()
        self.assertEqual(rc, 2, err)
        self.assertIn("collect.fields: 'gap' is in no summary entry", err)
        self.assertIn("gap_all", err)  # what there is instead
        self.write_sweep(self.GRID.replace("rows: [adaptive]", "rows: [adaptiv]"))
        rc, _, err = self.sweep("--collect-only")
        self.assertEqual(rc, 2)
        self.assertIn("has no row 'adaptiv' (it has: greedy, adaptive)", err)
        self.write_sweep(self.GRID.replace("rows: [adaptive]", "stages: [bopo]"))
        rc, _, err = self.sweep("--collect-only")
        self.assertEqual(rc, 2)
        self.assertIn("use collect.rows", err)

    def test_dry_run_lists_commands_and_runs_nothing(self):
        self.write_sweep(self.GRID)
        rc, out, err = self.sweep("--dry-run")
        self.assertEqual(rc, 0, err)
        self.assertIn("[4/4] tau=0.9,n_max=64 (not run): ", out)
        self.assertIn("'rows[1].tau=0.9' 'rows[1].n_max=64' output_dir=out/tau=0.9,n_max=64", out)
        self.assertFalse(os.path.exists(self.out))

    def test_values_are_passed_as_yaml(self):
        self.write_sweep("""\
            axes:
              a.s: ["yes", "plain text", "x: y", 1.0e-5, null, [1, 2]]
            collect: {fields: [gap_all]}
            """)
        rc, out, err = self.sweep("--dry-run")
        self.assertEqual(rc, 0, err)
        for arg in ['\'a.s="yes"\'', "'a.s=plain text'", "'a.s=\"x: y\"'", "a.s=1e-05", "a.s=null", "'a.s=[1, 2]'"]:
            self.assertIn(arg, out)

    def assertBad(self, body, message, **kw):
        self.write_sweep(body, **kw)
        rc, out, err = self.sweep()
        self.assertEqual(rc, 2, err)
        self.assertIn(message, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)  # one line
        self.assertFalse(os.path.exists(self.out))  # before anything runs

    def test_strict_errors_name_the_key_and_the_fix(self):
        ok = "axes: {a: [1]}\ncollect: {fields: [gap_all]}\n"
        self.assertBad(ok + "colect: {}\n", "unknown key 'colect' (known keys: program, config")
        self.assertBad(ok.replace("fields", "field"), "collect: unknown key 'field'")
        self.assertBad("axes: {a: []}\ncollect: {fields: [gap_all]}\n", "axes.a: needs a non-empty list")
        self.assertBad("axes: {}\ncollect: {fields: [gap_all]}\n", "axes: empty; list at least one axis")
        self.assertBad("axes: {a: [1]}\n", "collect: missing")
        self.assertBad(ok, "program: nothing/falcon_eval does not exist: build it", program="nothing/falcon_eval")
        self.assertBad(ok, "config: nothing.yaml does not exist", config="nothing.yaml")
        self.assertBad(ok + "overrides: [data.limit]\n", "'data.limit' is not a key.path=value string")
        self.assertBad(ok + "overrides: [output_dir=x]\n", "output_dir is set per point by the sweep")
        self.assertBad(ok + "overrides: [a=2]\n", "axes.a: sets a, which overrides sets too")
        self.assertBad("axes: {a: [1], a: [2]}\ncollect: {fields: [g]}\n", "duplicate key 'a'")
        self.assertBad("axes: {v: {x: {rows[0].grammar: false}}}\ncollect: {fields: [g]}\n",
                       'quote key paths that hold [ ] ({"rows[0].grammar": false})')
        self.assertBad("axes: {'w/o': [1]}\ncollect: {fields: [g]}\n", "'w/o' is not a key path like rows[2].tau")
        self.assertBad("axes: {v: {x/y: {}, x_y: {}}}\ncollect: {fields: [g]}\n", "both get the folder name 'x_y'")
        self.assertBad("zip:\n  - {a: [1, 2], b: [1]}\ncollect: {fields: [g]}\n",
                       "zip[0]: lists differ in length (a: 2, b: 1)")
        self.assertBad(ok.replace("collect: {", "collect: {rows: [a], stages: [b], "), "not both")
        rc, _, err = self.sweep("--jobs", "0")
        self.assertEqual(rc, 2)
        self.assertIn("--jobs 0: give 1 or more", err)

    def test_a_file_that_is_not_utf8_is_one_line(self):
        # Found by tests/tools/sweep_config_fuzz.py: a stray byte 0xff was a UnicodeDecodeError traceback.
        path = self.write_sweep("axes: {a: [1]}\ncollect: {fields: [gap_all]}\n")
        with open(path, "ab") as f:
            f.write(b"# caf\xe9\n")
        rc, _, err = self.sweep()
        self.assertEqual(rc, 2, err)
        self.assertIn("is not UTF-8 text; save the file as UTF-8", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_two_sweeps_on_one_output_dir_share_its_points(self):
        # As experiments/*/run.sh for two problems at once: each point runs once, and a sweep that
        # reaches a point the other is running waits for it and takes its result.
        self.write_sweep("axes: {\"rows[1].tau\": [0.8, 0.9]}\ncollect: {fields: [gap_all]}\n")
        self.fake_config({"sleep_if": ["rows[1].tau=0.8"], "sleep_s": 3})
        first = subprocess.Popen([sys.executable, TOOL, "sweep.yaml"], cwd=self.dir, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 20
            while not self.calls("tau=0.8") and time.monotonic() < deadline:
                time.sleep(0.05)  # until the first sweep is inside its slow point
            rc, _, err = self.sweep()
        finally:
            _, first_err = first.communicate(timeout=60)
        self.assertEqual(rc, 0, err)
        self.assertEqual(first.returncode, 0, first_err)
        self.assertIn("sweep: tau=0.8: another falcon_sweep is running it; waiting", err)
        self.assertIn("tau=0.8: done by another falcon_sweep", err)
        for point in ("tau=0.8", "tau=0.9"):
            self.assertEqual(len(self.calls(point)), 1, point)
            self.assertTrue(os.path.exists(os.path.join(self.out, point, "done")), point)

    def test_collect_only_needs_no_program(self):
        self.write_sweep(self.GRID)
        self.assertEqual(self.sweep()[0], 0)
        os.remove(os.path.join(self.out, "table.csv"))
        self.write_sweep(self.GRID, program="gone/falcon_eval")
        rc, out, err = self.sweep("--collect-only")
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(self.table()), 5)


if __name__ == "__main__":
    if yaml is None:  # ctest counts exit code 77 as skipped (tests/CMakeLists.txt)
        print("skipped: python3-yaml is not installed (tools/setup.sh installs it)")
        sys.exit(77)
    unittest.main()
