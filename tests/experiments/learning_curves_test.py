#!/usr/bin/env python3
"""experiments/learning_curves/curves.py: training wall time from a metrics log (a pause of a
stopped and resumed run is not counted), and tables.md / curves.png from fake runs;
echo_errors.py: which rule a compact_echo MIS answer breaks first; ranked_choices.py: where a
ranked answer's choices fall in its notes; pfsp_order_features.py: the features and the ranks of
a label's next job; run.sh: which evaluation rows each variant gets.

  python3 tests/experiments/learning_curves_test.py       # what ctest runs (no C++ build needed)
The picture needs matplotlib (skipped without it).
"""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CURVES = os.path.join(ROOT, "experiments", "learning_curves")
sys.path.insert(0, CURVES)

try:
    import matplotlib  # noqa: F401
except ImportError:
    matplotlib = None
try:
    import h5py  # noqa: F401  (echo_errors.py reads datasets with it)
except ImportError:
    h5py = None


def write_metrics(path, points):
    with open(path, "w") as f:
        for step, t, loss in points:
            f.write(json.dumps({"stage": "sft", "step": step, "time": t, "loss": loss}) + "\n")


@unittest.skipIf(h5py is None, "python3-h5py is not installed")
class EchoErrors(unittest.TestCase):
    CYCLE = [{1, 3}, {0, 2}, {1, 3}, {0, 2}]  # the 4-cycle 0-1-2-3-0

    def test_free_notes(self):
        import echo_errors
        check = echo_errors.mis_answer
        self.assertEqual(check(self.CYCLE, "Set: [#0 (#2), #2 ()], Objective: 2.00", "free"), (True, ""))
        self.assertEqual(check(self.CYCLE, "Set: [#0 (#2), #3 ()]", "free"), (True, "not in its own previous note"))
        self.assertEqual(check(self.CYCLE, "Set: [#0 (#2#3), #3 ()]", "free"), (False, "not in the true previous note (its note was wrong)"))
        self.assertEqual(check(self.CYCLE, "Set: [#1 (#3), #1 ()]", "free"), (False, "not in its own previous note"))

    def test_neighbours_notes(self):
        import echo_errors
        check = echo_errors.mis_answer
        self.assertEqual(check(self.CYCLE, "Set: [#0 (#1#3), #2 (#3)]"), (True, ""))
        self.assertEqual(check(self.CYCLE, "Set: [#0 (#1#3), #3 ()]", "neighbours"), (True, "named in its own earlier note"))
        self.assertEqual(check(self.CYCLE, "Set: [#2 (#3), #1 ()]", "neighbours"), (False, "not ascending"))

    def test_cvrp_demand_and_capacity_notes(self):
        import collections
        import echo_errors
        cvrp = (10, [0, 4, 5, 9])
        check = echo_errors.cvrp_answer
        self.assertEqual(check(cvrp, "Routes: [[#1 (4 6), #2 (5 1)], [#3 (9 1)]], Objective: 6.24"), (True, ""))
        steps = collections.Counter()
        # #1's demand copied wrong (0), its note subtracted right: 10 - 0 = 10 leaves room for #3.
        self.assertEqual(check(cvrp, "Routes: [[#1 (0 10), #3 (9 1)]]", steps),
                         (False, "over the true capacity (its note was wrong)"))
        self.assertEqual(dict(steps), {"notes": 2, "demand": 1, "subtraction": 2})
        self.assertEqual(check(cvrp, "Routes: [[#1 (4 6), #2 (5 2)]]", steps), (False, "misses a customer"))
        self.assertEqual(dict(steps), {"notes": 4, "demand": 3, "subtraction": 3})
        # A model of the capacity-only notes: its demand is what its notes subtract.
        self.assertEqual(check(cvrp, "Routes: [[#1 (6), #2 (1)], [#3 (1)]]"), (True, ""))

    def test_op_budget_notes(self):
        import numpy
        import echo_errors
        op = (numpy.array([[0, 0], [0, 0.5], [0.5, 0.5], [1, 1]]), 2.0, 0, 0)  # budget 200 on the grid
        check = echo_errors.op_answer
        self.assertEqual(check(op, "Route: [#1 (100), #2 (29)], Objective: 0.70"), (True, ""))
        self.assertEqual(check(op, "Route: [#1 (100), #3 (0)]"), (True, "over the budget its own note leaves"))
        self.assertEqual(check(op, "Route: [#1 (250), #3 (0)]"), (False, "over the true budget (its note was wrong)"))
        self.assertEqual(check(op, "Route: [#1 (100), #1 (100)]"), (True, "repeats a node"))


class OpRoutes(unittest.TestCase):
    def test_locality_size_and_length_of_a_route(self):
        import numpy
        import op_routes
        # A depot and a row of 6 points 0.1 apart: 1 -> 2 -> 3 are neighbours, 3 -> 6 is not among 3's 4 nearest.
        points = numpy.array([[0, 0]] + [[0.1 * k, 0.5] for k in range(1, 7)])
        instance = (points, 2.0, 0, 0, [])
        near, nodes, ratio = op_routes.route_stats(instance, [1, 2, 3, 6])
        self.assertAlmostEqual(near, 2 / 3)
        self.assertEqual(nodes, 4)
        length = numpy.hypot(0.1, 0.5) + 0.5 + numpy.hypot(0.6, 0.5)
        self.assertAlmostEqual(ratio, length / 2.0)


class PfspOrderFeatures(unittest.TestCase):
    def test_palmer_index_grows_with_time_on_the_early_machines(self):
        import numpy
        import pfsp_order_features
        times = numpy.array([[9, 5, 1], [1, 5, 9]])  # job 0: long early; job 1: long late
        f = pfsp_order_features.features(times)
        self.assertEqual(list(f["total time"]), [15, 15])
        self.assertEqual(list(f["Palmer slope index (negated)"]), [8, -8])
        self.assertAlmostEqual(pfsp_order_features.spearman([0, 1, 2, 3], [10, 20, 30, 40]), 1.0)
        self.assertAlmostEqual(pfsp_order_features.spearman([0, 1, 2, 3], [4, 3, 2, 1]), -1.0)
        self.assertAlmostEqual(pfsp_order_features.spearman([0, 1, 2], [5, 5, 9]), 0.8660254, places=6)  # ties: ranks 0.5, 0.5, 2


class PfspNextJobRanks(unittest.TestCase):
    def test_the_label_s_next_job_is_ranked_by_what_appending_it_does(self):
        import numpy
        import pfsp_order_features
        times = numpy.array([[1, 9], [5, 1], [2, 2]])  # jobs x machines
        keys, ready = pfsp_order_features.append_keys(times, numpy.zeros(2), 0)
        self.assertEqual(list(ready), [1, 10])
        self.assertEqual(keys["idle time it adds"], 1)  # machine 2 waits for job 0's first machine
        keys, ready = pfsp_order_features.append_keys(times, ready, 1)
        self.assertEqual(list(ready), [6, 11])
        self.assertEqual(keys["idle time it adds"], 0)
        # After job 0 (machines free at 1 and 10), job 2 ends at 12 and job 1 at 11: job 1 first.
        ranks = pfsp_order_features.next_job_ranks(times, [0, 2, 1])
        self.assertEqual(ranks["makespan after appending"], [1, 0])  # one rank per step after the first
        self.assertEqual(pfsp_order_features.next_job_ranks(times, [0, 1, 2])["makespan after appending"], [0, 0])
        # Appending job 1 after job 0 frees the machines at 6 and 11; job 2 (2 on each) is left:
        # machine 1 is busy to 6 + 2, then job 2 needs 2 more on machine 2; machine 2 to 11 + 2.
        self.assertEqual(pfsp_order_features.lower_bound_after(times, numpy.array([6, 11]), {1, 2}, 1), 13)
        self.assertEqual(pfsp_order_features.lower_bound_after(times, numpy.array([6, 11]), {1}, 1), 11)
        self.assertEqual(ranks["lower bound after appending"], [1, 0])  # both end at 13: the smaller ID first
        self.assertEqual(pfsp_order_features.first_of_note_order(times, 0), [0, 1, 2])
        self.assertEqual(pfsp_order_features.makespan(times, [0, 1, 2]), 13)
        wide = numpy.array([[1, 9], [9, 1], [5, 5]])  # after job 0 the note puts job 2 first (bound 16 against 20)
        self.assertEqual(pfsp_order_features.first_of_note_order(wide, 0), [0, 2, 1])


class RankedChoices(unittest.TestCase):
    def test_each_choice_is_placed_by_its_rank_in_the_note_before_it(self):
        import collections
        import ranked_choices
        counts = collections.Counter()
        self.assertEqual(ranked_choices.choice_ranks("Set: [#4 (#1#2#3), #2 (#1), #1 ()]", counts), ("", False))
        self.assertEqual(counts, {"second": 1, "first": 1})
        counts.clear()  # a repeat, then another vertex outside the note; the last note not empty
        self.assertEqual(ranked_choices.choice_ranks("Set: [#4 (#1#2), #4 (#1), #3 (#1)]", counts), ("a repeat", True))
        self.assertEqual(counts, {"outside": 2})
        self.assertEqual(ranked_choices.choice_ranks("Set: [#4 (#1), #0 ()]", counts), ("another vertex", False))
        self.assertEqual(ranked_choices.choice_ranks("", counts), ("", False))


class RunShEvaluationRows(unittest.TestCase):
    def test_every_variant_with_computable_notes_is_decoded_with_the_notes_computed(self):
        import re
        import subprocess
        script = os.path.join(CURVES, "run.sh")
        text = open(script).read()
        variants = re.search(r"unknown variant '\$1' \(([^)]*)\)", text).group(1).split(", ")
        functions = "".join(re.findall(r"(?ms)^(?:overrides|eval_config_of)\(\) \{.*?^\}\n", text))
        calls = "".join(f'echo "{v} $(overrides {v}) -> $(eval_config_of {v})"\n' for v in variants)
        out = subprocess.run(["bash", "-c", "here=H\n" + functions + calls], capture_output=True, text=True, check=True).stdout
        self.assertEqual(len(out.splitlines()), len(variants))
        for line in out.splitlines():
            with_notes = any(f"text.style={style}" in line for style in ("compact_state", "compact_ranked", "compact_insert"))
            self.assertEqual(line.endswith("H/eval_state.yaml"), with_notes, line)
        self.assertIn("mis_ranked_scratch", variants)  # named otherwise than *_ranked: chosen by its style


class TrainingClock(unittest.TestCase):
    def test_a_resume_pause_is_charged_at_the_running_rate(self):
        import curves
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "metrics.jsonl")
            # 25 steps per 50 s, then a 2-hour stop between steps 50 and 75.
            write_metrics(path, [(25, 1000.0, 3.0), (50, 1050.0, 2.0), (75, 8250.0, 1.0), (100, 8300.0, 0.5)])
            clock = curves.training_clock(path)
            self.assertAlmostEqual(clock[50][0] - clock[25][0], 50.0)
            self.assertAlmostEqual(clock[75][0] - clock[50][0], 50.0)  # the pause is not training time
            self.assertAlmostEqual(clock[25][0], 50.0)  # the steps before the first line, at the mean rate
            self.assertEqual(clock[100][1], 0.5)

    def test_steps_lost_to_a_resume_are_dropped(self):
        import curves
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "metrics.jsonl")
            # Checkpoint at 50; the run reached 75 and stopped; resumed, it redid 51..75 and went on.
            write_metrics(path, [(25, 0.0, 3.0), (50, 50.0, 2.0), (75, 100.0, 9.0), (75, 400.0, 1.0), (100, 450.0, 0.5)])
            clock = curves.training_clock(path)
            self.assertEqual(clock[75][1], 1.0)  # the resumed run's line
            self.assertAlmostEqual(clock[75][0] - clock[50][0], 50.0)
            self.assertAlmostEqual(clock[100][0] - clock[75][0], 50.0)

    def test_a_checkpoint_between_logged_steps_is_placed_between_their_times(self):
        import curves
        clock = {25: (50.0, 1.0), 50: (150.0, 0.5), 60: (170.0, 0.4)}  # logged every 25 steps and at the last
        self.assertAlmostEqual(curves.wall_at(clock, 15), 30.0)   # from 0 s at step 0
        self.assertAlmostEqual(curves.wall_at(clock, 30), 70.0)
        self.assertAlmostEqual(curves.wall_at(clock, 45), 130.0)
        self.assertAlmostEqual(curves.wall_at(clock, 60), 170.0)
        self.assertAlmostEqual(curves.wall_at(clock, 70), 170.0)  # past the last line: its time
        self.assertTrue(curves.wall_at({}, 10) != curves.wall_at({}, 10))  # nothing logged: nan


@unittest.skipIf(matplotlib is None, "matplotlib is not installed")
class Results(unittest.TestCase):
    def test_tables_and_picture_from_fake_runs(self):
        import subprocess
        with tempfile.TemporaryDirectory() as d:
            run = os.path.join(d, "runs", "compact_k4")
            os.makedirs(os.path.join(run, "eval", "step_500"))
            write_metrics(os.path.join(run, "metrics.jsonl"), [(s, 100.0 + 2 * s, 1.0 / s) for s in range(25, 525, 25)])
            with open(os.path.join(run, "solution_tokens"), "w") as f:
                f.write("69\n")
            rows = [{"row": "greedy_raw", "feasible_raw": 0.5, "gap_feasible": 0.25, "gap_all": 0.625},
                    {"row": "greedy_repair", "feasible_raw": 0.5, "gap_feasible": 0.3, "gap_all": 0.3},
                    {"row": "solver:nearest_neighbor", "feasible_raw": 1.0, "gap_feasible": 0.177, "gap_all": 0.177}]
            with open(os.path.join(run, "eval", "step_500", "summary.json"), "w") as f:
                json.dump({"rows": rows}, f)
            out = os.path.join(d, "out")
            os.makedirs(out)
            subprocess.run([sys.executable, os.path.join(CURVES, "curves.py"), "--out", out, os.path.join(d, "runs"),
                            "compact_k4", "paper"], check=True, capture_output=True)
            text = open(os.path.join(out, "tables.md")).read()
            self.assertIn("| 500 | 16000 | 16.7 |", text)  # 500 steps of 2 s
            self.assertIn("| 50.0 | 25.0 | 30.0 |", text)  # raw valid, raw gap over the valid, repaired gap
            self.assertIn("0.570 per token", text)        # ln 19! / 69
            self.assertIn("## paper\n\nnot run", text)
            self.assertIn("compact_k4: nearest neighbor on the same instances: 17.7% gap.", text)
            self.assertTrue(os.path.getsize(os.path.join(out, "curves.png")) > 1000)


if __name__ == "__main__":
    unittest.main()
