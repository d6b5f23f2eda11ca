#!/usr/bin/env python3
"""experiments/common: size and consistency buckets, tables built from fake falcon_eval points
(finished cells hold their numbers, every other cell says "not run" / "failed" / ...), the figures,
the sweep templates, and that the eval configs have the rows the builders read.

  python3 tests/experiments/build_results_test.py       # what ctest runs (no C++ build needed)
Cases that need python3-yaml or matplotlib are skipped without them.
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COMMON = os.path.join(ROOT, "experiments", "common")
sys.path.insert(0, COMMON)
sys.path.insert(0, os.path.join(ROOT, "tools"))

import archive_points  # noqa: E402
import buckets  # noqa: E402
import build_results  # noqa: E402
import expand_sweep  # noqa: E402
import runs  # noqa: E402
import specs  # noqa: E402

try:
    import yaml
except ImportError:
    yaml = None
try:
    import matplotlib  # noqa: F401
except ImportError:
    matplotlib = None


def summary_row(name, **kw):
    row = {"row": name, "method": "fixed", "instances": 4, "feasible": 1.0, "feasible_raw": 0.75,
           "sample_feasible_raw": 0.9, "repaired": 0.25, "gap_all": 0.05, "gap_feasible": 0.05,
           "seconds": 2.0, "repair_seconds": 0.01, "samples": 8.0, "consistency": 0.5}
    row.update(kw)
    return row


def instance(row, n, gap, consistency=None, samples=8):
    return {"row": row, "instance": f"i{n}", "key": n, "n": n, "feasible": gap is not None, "gap": gap,
            "consistency": consistency, "samples": samples}


class FakeRuns:
    """A runs folder as falcon_sweep leaves it: RUNS/<sweep>/<point>/{point.json, done, summary.json, instances.jsonl}."""

    def __init__(self, root):
        self.root = root

    def point(self, sweep, name, rows, lines=(), status="done", over_context=()):
        d = os.path.join(self.root, sweep, name)
        os.makedirs(d, exist_ok=True)
        if status == "not available":  # a run script's mark (lib.sh's mark_not_available), no run
            with open(os.path.join(d, "not_available"), "w") as f:
                f.write("its model's text writes notes\n")
            return
        with open(os.path.join(d, "point.json"), "w") as f:
            json.dump({"overrides": [f"model.path=runs/x_{name}/final", f"data.dataset=data/{name}.h5"]}, f)
        if status == "done":
            with open(os.path.join(d, "summary.json"), "w") as f:
                summary = {"data": f"data/{name}.h5:test", "instances": 4, "rows": rows}
                if over_context:
                    summary["over_context"] = [{"instance": f"i{n}", "n": n} for n in over_context]
                json.dump(summary, f)
            with open(os.path.join(d, "instances.jsonl"), "w") as f:
                f.writelines(json.dumps(l) + "\n" for l in lines)
            with open(os.path.join(d, "done"), "w") as f:
                json.dump({"seconds": 12.5}, f)
        elif status == "failed":
            with open(os.path.join(d, "failed"), "w") as f:
                json.dump({"exit": 1}, f)


class Buckets(unittest.TestCase):
    def test_size_buckets_are_table_2s(self):
        cases = {10: "Small", 30: "Small", 31: None, 39: None, 40: "Med.", 60: "Med.", 61: None,
                 69: None, 70: "Large", 100: "Large", 101: None, 6: None}
        for n, want in cases.items():
            self.assertEqual(buckets.size_bucket(n), want, n)

    def test_consistency_buckets_are_table_5s(self):
        cases = {1.0: "Easy", 0.71: "Easy", 0.7: "Medium", 0.5: "Medium", 0.3: "Medium", 0.29: "Hard",
                 0.0: "Hard", None: None}
        for c, want in cases.items():
            self.assertEqual(buckets.consistency_bucket(c), want, c)

    def test_mean_gap_skips_infeasible(self):
        lines = [instance("r", 10, 0.1), instance("r", 12, None), instance("r", 14, 0.3)]
        self.assertAlmostEqual(buckets.mean_gap(lines), 0.2)
        self.assertIsNone(buckets.mean_gap([instance("r", 10, None)]))


class Tables(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.runs = os.path.join(self.tmp.name, "runs")
        self.fake = FakeRuns(self.runs)
        self.out = os.path.join(self.tmp.name, "out", "results")

    def tearDown(self):
        self.tmp.cleanup()

    def build(self, key):
        build_results.build(key, self.runs, self.out, "small", "experiments/x/run.sh")
        with open(self.out + ".csv") as f:
            rows = list(csv.DictReader(f))
        with open(self.out + ".md") as f:
            return rows, f.read()

    @staticmethod
    def cell(rows, row, column):
        got = [r for r in rows if r["row"] == row and r["column"] == column]
        assert len(got) == 1, (row, column, got)
        return got[0]

    def test_nothing_run_marks_every_computed_cell_not_run(self):
        rows, md = self.build("table3")
        self.assertIn("**not run yet**", md)
        self.assertIn("`experiments/x/run.sh`", md)
        ours = [r for r in rows if r["kind"] != "quoted"]
        self.assertTrue(ours)
        self.assertEqual({r["ours"] for r in ours}, {"not run"})
        self.assertEqual(self.cell(rows, "SFT Only", "CVRP Fea.")["paper"], "59")

    def test_a_fake_summary_fills_its_cells_and_only_those(self):
        self.fake.point("table3_bopo", "tsp", [
            summary_row("FALCON (Full)", feasible=1.0, gap_feasible=0.0123, seconds=0.5),
            summary_row("w/o Grammar"), summary_row("w/o Repair", feasible=0.9),
            summary_row("w/o Adaptive")])
        self.fake.point("table3_mask", "tsp", [summary_row("with semantic mask", gap_feasible=0.02)])
        self.fake.point("table3_sft", "cvrp", [], status="failed")
        rows, md = self.build("table3")
        full_gap = self.cell(rows, "FALCON (Full)", "TSP Gap")
        self.assertEqual((full_gap["paper"], full_gap["ours"], full_gap["status"]), ("0.92", "1.23", "ok"))
        self.assertAlmostEqual(float(full_gap["ours_value"]), 1.23)
        self.assertEqual(self.cell(rows, "FALCON (Full)", "TSP Time")["ours"], "0.5s")
        self.assertEqual(self.cell(rows, "w/o Repair", "TSP Fea.")["ours"], "90")
        self.assertEqual(self.cell(rows, "FALCON (Full)", "CVRP Gap")["ours"], "not run")
        self.assertEqual(self.cell(rows, "SFT Only", "TSP Gap")["ours"], "not run")
        self.assertEqual(self.cell(rows, "SFT Only", "CVRP Gap")["ours"], "failed")
        self.assertEqual(self.cell(rows, "with semantic mask (ours)", "TSP Gap")["ours"], "2.00")
        self.assertIn("partly run: 2 of 6", md)
        self.assertIn("| 0.92 / 1.23 |", md)
        with open(self.out + ".tex") as f:
            tex = f.read()
        self.assertIn("0.92 / 1.23", tex)
        self.assertIn(r"\begin{tabular}", tex)

    def test_table1_quotes_hosted_rows_and_marks_a_partial_time(self):
        self.fake.point("table1_falcon", "tsp", [summary_row("FALCON N=1"), summary_row("FALCON N=8"),
                                                 summary_row("FALCON adaptive", seconds=3.0)])
        rows, md = self.build("table1")
        gpt = self.cell(rows, "GPT-4o", "TSP Fea.(%)")
        self.assertEqual((gpt["paper"], gpt["ours"], gpt["kind"]), ("39", "quoted", "quoted"))
        self.assertIn("GPT-4o (quoted)", md)
        self.assertEqual(self.cell(rows, "FALCON (Adaptive)", "Time (s)")["ours"], "3 (1 of 7)")
        self.assertEqual(self.cell(rows, "FALCON (Adaptive)", "Time (s)")["status"], "partial")
        self.assertEqual(self.cell(rows, "GRPO", "Time (s)")["ours"], "not run")

    def test_table1_puts_the_one_model_for_all_seven_beside_the_per_problem_models(self):
        self.fake.point("table1_falcon", "mis", [summary_row("FALCON N=1"), summary_row("FALCON N=8"),
                                                 summary_row("FALCON adaptive", gap_feasible=0.0018)])
        self.fake.point("table1_falcon_all", "mis", [summary_row("FALCON N=1"), summary_row("FALCON N=8"),
                                                     summary_row("FALCON adaptive", gap_feasible=0.0031)])
        rows, _ = self.build("table1")
        self.assertEqual(self.cell(rows, "FALCON (Adaptive)", "MIS Gap(%)")["ours"], "0.18")
        one_model = self.cell(rows, "FALCON (Adaptive), one model for all seven (ours)", "MIS Gap(%)")
        self.assertEqual((one_model["ours"], one_model["kind"]), ("0.31", "ours"))
        self.assertEqual(self.cell(rows, "FALCON (N=8), one model for all seven (ours)", "TSP Gap(%)")["ours"],
                         "not run")

    def test_table1_gap_without_a_feasible_answer_says_so(self):
        self.fake.point("table1_foarl", "cvrp", [summary_row("LLMCoSolver N=1", feasible=0.0, gap_feasible=None),
                                                 summary_row("LLMCoSolver N=8")])
        rows, _ = self.build("table1")
        self.assertEqual(self.cell(rows, "LLMCoSolver (N=1)", "CVRP Fea.(%)")["ours"], "0")
        self.assertEqual(self.cell(rows, "LLMCoSolver (N=1)", "CVRP Gap(%)")["ours"], "none feasible")
        self.assertEqual(self.cell(rows, "LLMCoSolver (N=8)", "CVRP Gap(%)")["ours"], "5.00")

    def test_table2_means_by_size_bucket(self):
        lines = [instance("NEH", 12, 0.01), instance("NEH", 25, 0.03), instance("NEH", 50, 0.05)]
        self.fake.point("table2_heuristics", "pfsp.neh", [summary_row("NEH")], lines)
        rows, _ = self.build("table2")
        self.assertEqual(self.cell(rows, "NEH", "PFSP Small")["ours"], "2.00")
        self.assertEqual(self.cell(rows, "NEH", "PFSP Med.")["ours"], "5.00")
        self.assertEqual(self.cell(rows, "NEH", "PFSP Large")["ours"], "no instances")
        self.assertEqual(self.cell(rows, "NEH", "JSSP Small")["ours"], "--")
        self.assertEqual(self.cell(rows, "OR-Tools", "TSP Small")["ours"], "not available")
        self.assertEqual(self.cell(rows, "FIFO", "JSSP Large")["ours"], "not run")
        self.assertEqual(self.cell(rows, "MWKR (ours)", "JSSP Small")["kind"], "ours")

    def test_table2_says_over_how_many_instances_a_bucket_mean_is(self):
        row = "FALCON adaptive"
        lines = [instance(row, 12, 0.02), instance(row, 20, 0.04),          # Small: both feasible
                 instance(row, 45, 0.10), instance(row, 50, None),          # Med.: one of two feasible ...
                 instance("FALCON N=8", 80, 0.5)]                           # (another row's line)
        self.fake.point("table2_falcon", "jssp", [summary_row("FALCON N=8"), summary_row(row)], lines,
                        over_context=(55, 75, 90))                          # ... + one left out; Large: all
        self.fake.point("table2_foarl", "tsp", [summary_row("LLMCoSolver N=8")],
                        [instance("LLMCoSolver N=8", 15, None), instance("LLMCoSolver N=8", 50, 0.3)])
        rows, md = self.build("table2")
        self.assertEqual(self.cell(rows, "FALCON (Adaptive)", "JSSP Small")["ours"], "3.00")
        med = self.cell(rows, "FALCON (Adaptive)", "JSSP Med.")
        self.assertEqual((med["ours"], med["status"]), ("10.00 (1 of 3)", "partial"))
        self.assertEqual(self.cell(rows, "FALCON (Adaptive)", "JSSP Large")["ours"], "over context")
        self.assertEqual(self.cell(rows, "FALCON (N=8)", "JSSP Large")["ours"], "50.00 (1 of 3)")
        self.assertEqual(self.cell(rows, "LLMCoSolver (N=8)", "TSP Small")["ours"], "none feasible")
        self.assertEqual(self.cell(rows, "LLMCoSolver (N=8)", "TSP Med.")["ours"], "30.00")
        self.assertEqual(self.cell(rows, "LLMCoSolver (N=8)", "TSP Large")["ours"], "no instances")
        self.assertIn("*over context*", md)

    def test_table5_buckets_the_adaptive_rows_instances(self):
        lines = [instance("Adaptive", 20, 0.01, consistency=1.0, samples=8),
                 instance("Adaptive", 20, 0.03, consistency=0.9, samples=12),
                 instance("Adaptive", 20, 0.10, consistency=0.5, samples=30),
                 instance("Adaptive", 20, 0.20, consistency=0.0, samples=64),
                 instance("Fixed N=64", 20, 0.5, consistency=0.0, samples=64)]  # another row: ignored
        self.fake.point("table4_adaptive", "tsp", [summary_row("Fixed N=64"), summary_row("Adaptive")], lines)
        rows, _ = self.build("table5")
        self.assertEqual(self.cell(rows, "Easy (Cons.>0.7)", "TSP Inst.")["ours"], "50%")
        self.assertEqual(self.cell(rows, "Easy (Cons.>0.7)", "TSP Samples")["ours"], "10.0")
        self.assertEqual(self.cell(rows, "Easy (Cons.>0.7)", "TSP Gap")["ours"], "2.00")
        self.assertEqual(self.cell(rows, "Hard (Cons.<0.3)", "TSP Samples")["ours"], "64.0")
        self.assertEqual(self.cell(rows, "Medium (0.3--0.7)", "TSP Inst.")["ours"], "25%")
        self.assertEqual(self.cell(rows, "Hard (Cons.<0.3)", "CVRP Gap")["ours"], "not run")

    def test_table4_average_over_the_problems_run(self):
        for p, g in (("tsp", 0.01), ("cvrp", 0.03)):
            self.fake.point("table4_adaptive", p, [summary_row("Fixed N=64", gap_feasible=g, samples=64.0),
                                                   summary_row("Adaptive", gap_feasible=g, samples=20.0)])
        rows, _ = self.build("table4")
        self.assertEqual(self.cell(rows, "Avg.", "Fixed (N=64) Gap")["ours"], "2.00 (2 of 7)")
        self.assertEqual(self.cell(rows, "TSP", "Adaptive Samples")["ours"], "20.0")
        self.assertEqual(self.cell(rows, "OP", "Adaptive Samples")["ours"], "not run")

    def test_a_row_missing_from_a_finished_point_is_an_error(self):
        self.fake.point("table3_bopo", "tsp", [summary_row("something else")])
        with self.assertRaises(build_results.RunsError):
            build_results.build("table3", self.runs, self.out, "small", "x")


class Archive(unittest.TestCase):
    """Points kept in the repository (archive_points.py) fill a table beside the runs folder's."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.runs = os.path.join(self.tmp.name, "runs")
        self.archive = os.path.join(self.tmp.name, "points")
        self.out = os.path.join(self.tmp.name, "out", "results")

    def tearDown(self):
        self.tmp.cleanup()

    def build(self, key, roots):
        build_results.build(key, roots, self.out, "small", "experiments/x/run.sh")
        with open(self.out + ".csv") as f:
            return list(csv.DictReader(f))

    def ours(self, rows, row, column):
        return Tables.cell(rows, row, column)["ours"]

    @staticmethod
    def table3_rows(full_gap):
        return [summary_row("FALCON (Full)", gap_feasible=full_gap)] + [
            summary_row(r) for r in ("w/o Grammar", "w/o Repair", "w/o Adaptive")]

    def test_done_points_are_kept_without_their_text_and_others_are_not(self):
        line = dict(instance("NEH", 12, 0.01), text="Order: [3, 1, 2]", solution=[3, 1, 2], seconds={"total": 1})
        FakeRuns(self.runs).point("table2_heuristics", "pfsp.neh", [summary_row("NEH")], [line])
        FakeRuns(self.runs).point("table2_heuristics", "jssp.fifo", [], status="failed")
        FakeRuns(self.runs).point("table2_heuristics", "jssp.mwkr", [], status="interrupted")
        kept = archive_points.archive_sweep(self.runs, self.archive, "table2_heuristics")
        self.assertEqual(kept, ["pfsp.neh"])
        with open(os.path.join(self.archive, "table2_heuristics", "pfsp.neh", "instances.jsonl")) as f:
            archived = [json.loads(l) for l in f]
        self.assertEqual(archived, [{k: line[k] for k in ("row", "instance", "n", "feasible", "gap", "samples",
                                                          "consistency")}])
        self.assertEqual(sorted(os.listdir(os.path.join(self.archive, "table2_heuristics"))), ["pfsp.neh"])
        self.assertEqual(self.ours(self.build("table2", [self.archive]), "NEH", "PFSP Small"), "1.00")
        with open(self.out + ".md") as f:  # the Runs table keeps the point's seconds
            self.assertIn("| 4 | runs/x_pfsp.neh/final | 12.5 |", f.read())

    def test_an_archived_problem_and_a_fresh_one_fill_one_table(self):
        FakeRuns(self.runs).point("table3_bopo", "tsp", self.table3_rows(0.0123))
        FakeRuns(self.archive).point("table3_bopo", "cvrp", self.table3_rows(0.0456))
        rows = self.build("table3", [self.runs, self.archive])
        self.assertEqual(self.ours(rows, "FALCON (Full)", "TSP Gap"), "1.23")
        self.assertEqual(self.ours(rows, "FALCON (Full)", "CVRP Gap"), "4.56")

    def test_a_point_marked_not_available_says_so_and_why_until_it_runs(self):
        FakeRuns(self.runs).point("table3_mask", "tsp", [summary_row("with semantic mask", gap_feasible=0.047)])
        FakeRuns(self.archive).point("table3_mask", "cvrp", [], status="not available")
        rows = self.build("table3", [self.runs, self.archive])
        self.assertEqual(self.ours(rows, "with semantic mask (ours)", "TSP Gap"), "4.70")
        self.assertEqual(self.ours(rows, "with semantic mask (ours)", "CVRP Gap"), "not available")
        self.assertEqual(self.ours(rows, "w/o BOPO", "CVRP Gap"), "not run")  # only the marked point
        with open(self.out + ".md") as f:
            self.assertIn("| table3_mask/cvrp | not available: its model's text writes notes | - |", f.read())
        FakeRuns(self.runs).point("table3_mask", "cvrp", [summary_row("with semantic mask", gap_feasible=0.05)])
        rows = self.build("table3", [self.runs, self.archive])
        self.assertEqual(self.ours(rows, "with semantic mask (ours)", "CVRP Gap"), "5.00")

    def test_a_fresh_run_of_a_point_wins_over_the_archived_one(self):
        FakeRuns(self.runs).point("table3_bopo", "tsp", self.table3_rows(0.0123))
        FakeRuns(self.archive).point("table3_bopo", "tsp", self.table3_rows(0.0999))
        FakeRuns(self.runs).point("table3_bopo", "cvrp", [], status="failed")
        FakeRuns(self.archive).point("table3_bopo", "cvrp", self.table3_rows(0.0456))
        rows = self.build("table3", [self.runs, self.archive])
        self.assertEqual(self.ours(rows, "FALCON (Full)", "TSP Gap"), "1.23")
        self.assertEqual(self.ours(rows, "FALCON (Full)", "CVRP Gap"), "4.56")  # the failed rerun does not hide it


class Figures(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.runs = os.path.join(self.tmp.name, "runs")
        self.fake = FakeRuns(self.runs)
        self.out = os.path.join(self.tmp.name, "fig", "results")

    def tearDown(self):
        self.tmp.cleanup()

    def test_nothing_run_draws_nothing(self):
        build_results.build("fig_repair", self.runs, self.out, "small", "x")
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "fig", "repair.png")))
        with open(self.out + ".md") as f:
            md = f.read()
        self.assertIn("**not run yet**", md)
        self.assertIn("| TSP | not run |", md)

    @unittest.skipIf(matplotlib is None, "matplotlib is not installed (python3-matplotlib)")
    def test_repair_figure_from_fake_summaries(self):
        for p, feas in (("tsp", 0.97), ("cvrp", 0.85), ("jssp", 0.81)):
            self.fake.point("table1_falcon", p, [summary_row("FALCON N=1"), summary_row("FALCON N=8"),
                                                 summary_row("FALCON adaptive", sample_feasible_raw=feas,
                                                             repair_seconds=(1 - feas) / 10)])
        build_results.build("fig_repair", self.runs, self.out, "small", "x")
        self.assertTrue(os.path.getsize(os.path.join(self.tmp.name, "fig", "repair.png")) > 1000)
        with open(self.out + ".csv") as f:
            rows = list(csv.DictReader(f))
        claims = {r["row"]: r["ours"] for r in rows if r["kind"] == "paper's statement"}
        self.assertEqual(claims["samples feasible before repair, range over the seven problems"], "81%--97% (3 of 7)")
        self.assertTrue(claims["correlation of repair frequency and cost over the problems"].startswith("r=1.000"))
        self.assertIn("TSP 3.0%", claims["repair frequency, TSP and PFSP"])
        op = [r for r in rows if r["row"] == "OP" and r["kind"] == "ours per problem"]
        self.assertEqual({r["ours"] for r in op}, {"not run"})

    @unittest.skipIf(matplotlib is None, "matplotlib is not installed (python3-matplotlib)")
    def test_bopo_vs_grpo_needs_both_models_of_a_problem(self):
        row = "N=1, grammar, no repair"
        # GRPO's feasible answers are closer (5% against 7.1%), but it is feasible on a tenth of the
        # instances: counting an infeasible one as 100% (0.9 x 7.1% + 10%; 0.1 x 5% + 90%), BOPO's gap
        # is 82% lower.
        self.fake.point("fig_bopo", "cvrp", [summary_row(row, gap_feasible=0.071, gap_all=0.1639, feasible=0.9)])
        self.fake.point("fig_grpo", "cvrp", [summary_row(row, gap_feasible=0.05, gap_all=0.905, feasible=0.1)])
        self.fake.point("fig_bopo", "mis", [summary_row(row)])  # no GRPO point: not in the figure
        build_results.build("fig_bopo_vs_grpo", self.runs, self.out, "small", "x")
        self.assertTrue(os.path.exists(os.path.join(self.tmp.name, "fig", "bopo_vs_grpo.png")))
        with open(self.out + ".csv") as f:
            claims = [r["ours"] for r in csv.DictReader(f) if r["kind"] == "paper's statement"]
        self.assertEqual(claims, ["82% (infeasible = 100%)", "not run", "lower on 1 of 1 problems run (infeasible = 100%)"])


class Templates(unittest.TestCase):
    def test_expand_refuses_missing_and_unused_values(self):
        self.assertEqual(expand_sweep.expand("a: ${X}/b", {"X": "1"}), "a: 1/b")
        with self.assertRaisesRegex(ValueError, r"no value for \$\{Y\}"):
            expand_sweep.expand("${X} ${Y}", {"X": "1"})
        with self.assertRaisesRegex(ValueError, "Z is given"):
            expand_sweep.expand("${X}", {"X": "1", "Z": "2"})

    @unittest.skipIf(yaml is None, "python3-yaml is not installed")
    def test_templates_expand_to_valid_sweeps(self):
        import falcon_sweep
        values = {"BUILD": "build", "EVAL": "experiments/table1_main/eval_falcon.yaml", "OUT": "runs/x",
                  "THREADS": "1", "LIMIT": "20", **{f"DATA_{p}": f"data/{p}.h5" for p in specs.PROBLEMS},
                  **{f"MODEL_{p}": f"runs/bopo_{p}/final" for p in specs.PROBLEMS},
                  "MORE_OVERRIDES": ", data.over_context=skip"}
        with tempfile.TemporaryDirectory() as tmp:
            for template, given, points in (
                    ("experiments/common/problems.sweep.yaml", values, list(specs.PROBLEMS)),
                    ("experiments/table2_heuristics/heuristics.sweep.yaml",
                     {"BUILD": "build", "OUT": "runs/y", "THREADS": "1", "T2DATA": "runs/d"},
                     [name for rows in (specs.T2_HEURISTICS, specs.T2_EXTRA) for where in rows.values()
                      for name, _ in where.values()]),
                    ("experiments/table1_main/heuristic.sweep.yaml",
                     {k: v for k, v in values.items() if not k.startswith("MODEL_")}, list(specs.PROBLEMS))):
                path = os.path.join(tmp, "sweep.yaml")
                with open(os.path.join(ROOT, template)) as f:
                    text = expand_sweep.expand(f.read(), given)
                with open(path, "w") as f:
                    f.write(text)
                sweep = falcon_sweep.load_sweep(path, check_files=False)
                names = [p.name for p in falcon_sweep.expand(sweep)]
                self.assertEqual(sorted(names), sorted(points), template)
        overrides = falcon_sweep.expand(falcon_sweep.load_sweep(self._expanded(values), check_files=False))[0].overrides
        self.assertIn("model.path=runs/bopo_tsp/final", overrides)
        self.assertIn("data.limit=20", overrides)
        self.assertIn("data.over_context=skip", overrides)
        plain = falcon_sweep.expand(falcon_sweep.load_sweep(self._expanded({**values, "MORE_OVERRIDES": ""}),
                                                            check_files=False))[0].overrides
        self.assertEqual(plain, ["threads=1", "data.limit=20", "model.path=runs/bopo_tsp/final", "data.dataset=data/tsp.h5"])

    def _expanded(self, values):
        path = os.path.join(tempfile.mkdtemp(), "s.yaml")
        with open(os.path.join(ROOT, "experiments/common/problems.sweep.yaml")) as f:
            text = expand_sweep.expand(f.read(), values)
        with open(path, "w") as f:
            f.write(text)
        return path


class Configs(unittest.TestCase):
    """The builders read rows by name: each must exist in the eval config its sweep runs."""

    @unittest.skipIf(yaml is None, "python3-yaml is not installed")
    def test_every_row_read_is_in_its_eval_config(self):
        def rows_of(sweep):
            with open(os.path.join(ROOT, specs.SWEEPS[sweep][0])) as f:
                return [r["name"] for r in yaml.safe_load(f)["rows"]]
        wanted = list(specs.T1_ROWS.values()) + list(specs.T1_EXTRA.values()) + list(specs.T2_MODELS.values())
        wanted += list(specs.T3_ROWS.values()) + list(specs.T3_EXTRA.values())
        wanted += [("table4_adaptive", r) for r in specs.T4_ROWS] + [("table1_falcon", "FALCON adaptive")]
        wanted += [("fig_bopo", "N=1, grammar, no repair"), ("fig_grpo", "N=1, grammar, no repair")]
        for sweep, row in wanted:
            self.assertIn(row, rows_of(sweep), f"{sweep}: {specs.SWEEPS[sweep][0]}")

    def test_run_scripts_run_each_sweep_with_its_config_and_model(self):
        calls = 0
        for script in glob.glob(os.path.join(ROOT, "experiments", "*", "run.sh")):
            with open(script) as f:
                for line in f:
                    m = re.match(r"\s*run_sweep (\S+) \S+ (\S+) (\S+) ", line)
                    if m:
                        calls += 1
                        recipe = None if m[3] == "-" else m[3]  # "-": solver rows, no model
                        self.assertEqual(specs.SWEEPS[m[1]], (m[2], recipe), f"{script}: {line.strip()}")
        self.assertGreaterEqual(calls, 10)

    def test_every_sweep_a_script_runs_itself_is_archived(self):
        # run_sweep archives its points; a script that calls falcon_sweep.py directly must too, or a
        # table rebuilt after runs/ is gone reads "not run" where it had numbers
        for script in glob.glob(os.path.join(ROOT, "experiments", "*", "run.sh")):
            with open(script) as f:
                text = f.read()
            for sweep in re.findall(r'falcon_sweep\.py "\$RUNS/(\w+)/sweep\.yaml"', text):
                self.assertRegex(text, rf'archive_points\.py "\$RUNS" "\$ARCHIVE" {sweep}\b', script)

    def test_a_sweep_keeps_the_threads_it_was_started_with(self):
        # falcon_sweep refuses points whose overrides changed; threads change only the times
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "s"))
            with open(os.path.join(tmp, "s", "sweep.yaml"), "w") as f:
                f.write("program: x\noverrides: [threads=1, data.limit=20]\n")
            script = f"source experiments/common/lib.sh; sweep_threads {tmp}/s; sweep_threads {tmp}/new"
            r = subprocess.run(["bash", "-c", script], cwd=ROOT, env=dict(os.environ, THREADS="0"),
                               capture_output=True, text=True)
        self.assertEqual(r.stdout.split(), ["1", "0"], r.stderr)
        self.assertIn("was started with THREADS=1 and keeps it", r.stderr)

    def run_lib(self, tmp, model, script, **extra_env):
        """Runs lib.sh functions with SKIP_MISSING=1, one trained model at tmp/m/<model>/final, and a
        stand-in for python3 that records what the sweep tools were asked; returns (result, calls)."""
        os.makedirs(os.path.join(tmp, "m", model, "final"))
        open(os.path.join(tmp, "m", model, "final", "config.json"), "w").close()
        calls = os.path.join(tmp, "calls")
        fake_py = os.path.join(tmp, "py")
        with open(fake_py, "w") as f:
            f.write(f"#!/bin/sh\necho \"$*\" >>{calls}\n")
        os.chmod(fake_py, 0o755)
        env = dict(os.environ, SKIP_MISSING="1", MODELS=os.path.join(tmp, "m"), RUNS=os.path.join(tmp, "r"),
                   PY=fake_py, **extra_env)
        r = subprocess.run(["bash", "-c", "source experiments/common/lib.sh; " + script], cwd=ROOT, env=env,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(calls) as f:
            return r, [line.split() for line in f]

    def test_skip_missing_runs_only_the_problems_with_a_model(self):
        with tempfile.TemporaryDirectory() as tmp:
            r, lines = self.run_lib(tmp, "bopo_tsp", "need_models bopo tsp cvrp; stop_if_missing; "
                                    "run_sweep s t.yaml e.yaml bopo tsp cvrp; run_sweep s2 t.yaml e.yaml grpo tsp")
        sweeps = [line for line in lines if "tools/falcon_sweep.py" in line]
        self.assertEqual(sweeps, [["tools/falcon_sweep.py", f"{tmp}/r/s/sweep.yaml", "--only", "tsp"]])
        self.assertIn(f"skipped: no trained model at {tmp}/m/bopo_cvrp/final, its points not run", r.stderr)
        self.assertIn("sweep s2: no grpo model of tsp, nothing to run", r.stderr)

    def test_a_solver_only_sweep_names_no_model_and_skips_no_problem(self):
        with tempfile.TemporaryDirectory() as tmp:
            r, lines = self.run_lib(tmp, "bopo_tsp", "run_sweep s t.yaml e.yaml - tsp cvrp")
        expand = next(line for line in lines if "experiments/common/expand_sweep.py" in line)
        self.assertFalse([v for v in expand if v.startswith("MODEL_")], expand)
        self.assertIn("DATA_cvrp=data/cvrp20.h5", expand)
        self.assertIn(["tools/falcon_sweep.py", f"{tmp}/r/s/sweep.yaml", "--only", "tsp", "cvrp"], lines)

    def test_a_point_not_run_for_its_model_is_marked_beside_the_archived_points(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, ARCHIVE=os.path.join(tmp, "points"))
            r = subprocess.run(["bash", "-c", "source experiments/common/lib.sh; "
                                "mark_not_available table3_mask cvrp 'its text writes notes'"],
                               cwd=ROOT, env=env, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            point = runs.Point(os.path.join(tmp, "points"), "table3_mask", "cvrp")
            self.assertEqual(point.status, "not available")
            self.assertEqual(point.not_available_reason(), "its text writes notes")

    def test_sweeps_runs_only_the_sweeps_it_names(self):
        with tempfile.TemporaryDirectory() as tmp:
            r, lines = self.run_lib(tmp, "bopo_tsp", "run_sweep s t.yaml e.yaml bopo tsp; "
                                    "run_sweep s2 t.yaml e.yaml bopo tsp; finish", SWEEPS="s2")
        sweeps = [line for line in lines if "tools/falcon_sweep.py" in line]
        self.assertEqual(sweeps, [["tools/falcon_sweep.py", f"{tmp}/r/s2/sweep.yaml", "--only", "tsp"]])
        self.assertIn("sweep s: not in SWEEPS, its points left as they are", r.stderr)

    def test_a_misspelt_sweep_in_sweeps_is_an_error(self):
        env = dict(os.environ, SWEEPS="s3", RUNS="/nonexistent", PY="true")
        r = subprocess.run(["bash", "-c", "source experiments/common/lib.sh; run_sweep s t.yaml e.yaml - tsp; finish"],
                           cwd=ROOT, env=env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("SWEEPS names 's3', which this run did not come to (it came to: s)", r.stderr)

    def test_a_one_model_recipe_serves_every_problem_from_one_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            r, lines = self.run_lib(tmp, "bopo_all", "need_models bopo_all tsp cvrp; stop_if_missing; "
                                    "run_sweep s t.yaml e.yaml bopo_all tsp cvrp; train_hint bopo_all mis")
        expand = next(line for line in lines if "experiments/common/expand_sweep.py" in line)
        self.assertIn(f"MODEL_cvrp={tmp}/m/bopo_all/final", expand)
        self.assertIn(f"MODEL_jssp={tmp}/m/bopo_all/final", expand)
        self.assertIn(["tools/falcon_sweep.py", f"{tmp}/r/s/sweep.yaml", "--only", "tsp", "cvrp"], lines)
        self.assertEqual(r.stdout.strip(), f"run falcon_train configs/bopo_all.yaml output_dir={tmp}/m/bopo_all first")

    def test_the_paper_scale_hint_for_one_model_names_every_problems_data_and_one_folder(self):
        env = dict(os.environ, SCALE="paper", MODELS="m")
        r = subprocess.run(["bash", "-c", "source experiments/common/lib.sh; train_hint bopo_all mis"], cwd=ROOT,
                           env=env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        match = re.search(r"falcon_train configs/bopo_all.yaml 'data.config=\[([^]]*)\]' output_dir=m/bopo_all ",
                          r.stdout)
        self.assertIsNotNone(match, r.stdout)
        files = match.group(1).split(",")
        # The recipe's own data list (configs/data/tsp20.yaml, ...) sets the order its data.weights follow.
        with open(os.path.join(ROOT, "configs", "bopo_all.yaml")) as f:
            recipe_problems = re.findall(r"configs/data/([a-z]+)[0-9]+\.yaml", f.read())
        self.assertEqual(len(recipe_problems), 7)
        self.assertEqual(files, [f"configs/data/{p}_paper.yaml" for p in recipe_problems])
        for f in files:
            self.assertTrue(os.path.isfile(os.path.join(ROOT, f)), f)

    def test_a_missing_model_is_one_line_naming_the_command(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "build", "eval"))
            prog = os.path.join(tmp, "build", "eval", "falcon_eval")
            with open(prog, "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(prog, 0o755)
            env = dict(os.environ, BUILD=os.path.join(tmp, "build"), MODELS=os.path.join(tmp, "m"),
                       RUNS=os.path.join(tmp, "runs"), PROBLEMS="cvrp", SCALE="small")
            r = subprocess.run([os.path.join(ROOT, "experiments", "table3_ablation", "run.sh")], env=env,
                               capture_output=True, text=True)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn(f"table3_ablation: no trained model at {tmp}/m/bopo_cvrp/final: run falcon_train "
                      f"configs/bopo_cvrp.yaml output_dir={tmp}/m/bopo_cvrp first", r.stderr.splitlines())
        self.assertFalse(os.path.exists(os.path.join(tmp, "runs")))


if __name__ == "__main__":
    unittest.main()
