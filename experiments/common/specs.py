"""Where each of our cells comes from: for every table, which sweep, point (problem) and
falcon_eval row fill which paper row, and how a summary or the instance lines become the number.

A sweep is one tools/falcon_sweep.py run under RUNS/<sweep>/ (experiments/common/lib.sh names
them); SWEEPS says which eval config (its rows) and which trained model each one runs, so the
tests can check that every row named here exists in that config.
"""
from paper_tables import PROBLEMS, PROBLEM_NAMES
import buckets
import cells as C
from runs import Point

# sweep -> (eval config with its rows, the recipe whose model it evaluates; None: solvers only)
SWEEPS = {
    "table1_sft": ("experiments/table1_main/eval_sft.yaml", "sft"),
    "table1_grpo": ("experiments/table1_main/eval_grpo.yaml", "grpo"),
    "table1_foarl": ("experiments/table1_main/eval_foarl.yaml", "foarl"),
    "table1_falcon": ("experiments/table1_main/eval_falcon.yaml", "bopo"),
    "table1_falcon_all": ("experiments/table1_main/eval_falcon.yaml", "bopo_all"),  # one model, seven problems
    # The released models (models/<p>), each problem with its configs/eval/release_<p>.yaml (rows named
    # alike); experiments/release_table/run.sh runs and keeps these points, without training.
    "table1_released": ("configs/eval/release_tsp.yaml", "released"),
    "table1_repair": ("experiments/table1_main/eval_repair.yaml", "bopo"),  # the model is not read
    "table1_heuristic": ("experiments/table1_main/eval_heuristic.yaml", None),
    "table2_heuristics": ("experiments/table2_heuristics/eval_heuristics.yaml", None),
    "table2_foarl": ("experiments/table1_main/eval_foarl.yaml", "foarl"),
    "table2_falcon": ("experiments/table1_main/eval_falcon.yaml", "bopo"),
    "table3_bopo": ("experiments/table3_ablation/eval_bopo.yaml", "bopo"),
    "table3_sft": ("experiments/table3_ablation/eval_sft.yaml", "sft"),
    "table3_mask": ("experiments/table3_ablation/eval_mask.yaml", "bopo"),
    "table4_adaptive": ("experiments/table4_adaptive/eval.yaml", "bopo"),
    "fig_bopo": ("experiments/fig_bopo_vs_grpo/eval.yaml", "bopo"),
    "fig_grpo": ("experiments/fig_bopo_vs_grpo/eval.yaml", "grpo"),
}


class Ours:
    """Our side of one table: cells per (block, paper row), rows only we have, the points read."""

    def __init__(self):
        self.rows, self.extra, self.points = {}, {}, {}

    def point(self, runs, sweep, name):
        key = (sweep, name)
        if key not in self.points:
            self.points[key] = Point(runs, sweep, name)
        return self.points[key]


def _summary(p, row, field, scale=1.0):
    """One summary field of one row (scaled to %), or the point's status."""
    if not p.done:
        return C.why(p.status)
    v = p.row(row).get(field)
    return v * scale if v is not None else None


def _cell(p, row, field, fmt, scale=1.0):
    v = _summary(p, row, field, scale)
    if isinstance(v, C.Cell):
        return v
    if v is None and field == "gap_feasible" and not p.row(row).get("feasible"):
        return C.Cell(C.NONE_FEASIBLE, None, C.NONE_FEASIBLE)  # instances ran; no answer had a gap
    return C.number(v, fmt)


# ---------------------------------------------------------------- Table 1

T1_ROWS = {  # paper row -> (sweep, falcon_eval row)
    "SFT Only": ("table1_sft", "SFT only"),
    "GRPO": ("table1_grpo", "GRPO"),
    "LLMCoSolver (N=1)": ("table1_foarl", "LLMCoSolver N=1"),
    "LLMCoSolver (N=8)": ("table1_foarl", "LLMCoSolver N=8"),
    "FALCON (N=1)": ("table1_falcon", "FALCON N=1"),
    "FALCON (N=8)": ("table1_falcon", "FALCON N=8"),
    "FALCON (Adaptive)": ("table1_falcon", "FALCON adaptive"),
}
T1_EXTRA = {
    # Each problem's simple heuristic: nearest neighbour, greedy, NEH or MWKR (eval_heuristic.yaml)
    "Simple heuristic (ours)": ("table1_heuristic", "Simple heuristic"),
    "Repair alone (ours)": ("table1_repair", "Repair alone"),  # repair of an empty answer
    # configs/bopo_all.yaml's one model for all seven problems, beside the per-problem FALCON rows
    "FALCON (N=8), one model for all seven (ours)": ("table1_falcon_all", "FALCON N=8"),
    "FALCON (Adaptive), one model for all seven (ours)": ("table1_falcon_all", "FALCON adaptive"),
    # The released models against the yardsticks without a model: the model decoded alone (greedy,
    # grammar and notes, no repair: Fea. is its share of valid answers), FALCON, and the model-free
    # sampler over the same choices at the same samples and rule.
    "Model alone, released model (ours)": ("table1_released", "model alone"),
    "FALCON (N=8), released model (ours)": ("table1_released", "FALCON N=8"),
    "FALCON (Adaptive), released model (ours)": ("table1_released", "FALCON adaptive"),
    "Heuristic sampler (N=8), no model (ours)": ("table1_released", "heuristic sampler N=8"),
    "Heuristic sampler (Adaptive), no model (ours)": ("table1_released", "heuristic sampler adaptive"),
}


def _t1_line(out, runs, sweep, row):
    line, times = [], []
    for p in PROBLEMS:
        point = out.point(runs, sweep, p)
        # Gap over the feasible instances: the only reading of the paper's rows below 100%
        # feasibility (an infeasible answer has no gap); gap_all is in each summary.json.
        line += [_cell(point, row, "feasible", C.pct, 100), _cell(point, row, "gap_feasible", C.gap, 100)]
        times.append(_cell(point, row, "seconds", C.seconds))
    return line + [C.mean_of(times, C.seconds, len(PROBLEMS))]  # the paper's one time per method


def table1(runs):
    out = Ours()
    for paper_row, (sweep, row) in T1_ROWS.items():
        out.rows[(0, paper_row)] = _t1_line(out, runs, sweep, row)
    out.extra[0] = [(name, _t1_line(out, runs, sweep, row)) for name, (sweep, row) in T1_EXTRA.items()]
    return out


# ---------------------------------------------------------------- Table 2

T2_HEURISTICS = {  # paper row -> {problem: (point of table2_heuristics, falcon_eval row)}
    "Nearest Neighbor": {"tsp": ("tsp.nearest_neighbor", "Nearest Neighbor"),
                         "cvrp": ("cvrp.nearest_neighbor", "Nearest Neighbor")},
    "ACO": {"tsp": ("tsp.aco", "ACO"), "cvrp": ("cvrp.aco", "ACO")},
    "NEH": {"pfsp": ("pfsp.neh", "NEH")},
    "FIFO": {"jssp": ("jssp.fifo", "FIFO")},
}
T2_EXTRA = {  # rows only we have: JSSP dispatching rules beside FIFO (the text names SPT)
    "SPT (ours)": {"jssp": ("jssp.spt", "SPT")},
    "MWKR (ours)": {"jssp": ("jssp.mwkr", "MWKR")},
    # Repair applied to an empty answer: what the FALCON rows would deliver with no model at all.
    "Repair alone (ours)": {p: (f"{p}.repair_empty", "Repair alone") for p in ("tsp", "cvrp", "pfsp", "jssp")},
}
T2_MODELS = {
    "LLMCoSolver (N=8)": ("table2_foarl", "LLMCoSolver N=8"),
    "FALCON (N=8)": ("table2_falcon", "FALCON N=8"),
    "FALCON (Adaptive)": ("table2_falcon", "FALCON adaptive"),
}
T2_BLOCKS = (("tsp", "cvrp"), ("pfsp", "jssp"))


def _bucket_cells(point, row):
    """Mean gap (%) per size bucket, Small / Med. / Large, from the instance lines. The mean is over
    the feasible instances; when that is not every instance of the bucket (an infeasible one, or
    one left out because it does not fit the model's context), the cell says over how many."""
    if not point.done:
        return [C.why(point.status)] * len(buckets.SIZE_BUCKETS)
    by_size = lambda item: buckets.size_bucket(item["n"])  # noqa: E731
    groups = buckets.group(point.instances(row), by_size)
    left_out = buckets.group(point.summary().get("over_context", []), by_size)
    out = []
    for name, _, _ in buckets.SIZE_BUCKETS:
        lines, skipped = groups.get(name, []), left_out.get(name, [])
        feasible = [line for line in lines if line.get("gap") is not None]
        total = len(lines) + len(skipped)
        if not lines:
            status = C.OVER_CONTEXT if skipped else C.NO_INSTANCES
            out.append(C.Cell(status, None, status))
        elif not feasible:
            out.append(C.Cell(C.NONE_FEASIBLE, None, C.NONE_FEASIBLE))
        else:
            v = buckets.mean_gap(feasible) * 100
            if len(feasible) < total:
                out.append(C.Cell(f"{C.gap(v)} ({len(feasible)} of {total})", v, "partial"))
            else:
                out.append(C.number(v, C.gap))
    return out


def table2(runs):
    out = Ours()
    for b, problems in enumerate(T2_BLOCKS):
        for rows, target in ((T2_HEURISTICS, out.rows), (T2_EXTRA, None)):
            for paper_row, where in rows.items():
                if not any(p in where for p in problems):
                    continue  # this row belongs to the other block
                line = []
                for p in problems:
                    if p in where:
                        line += _bucket_cells(out.point(runs, "table2_heuristics", where[p][0]), where[p][1])
                    else:  # NEH is not a JSSP method: the paper prints "--" there
                        line += [C.Cell(C.NOT_APPLICABLE, None, C.NOT_APPLICABLE)] * len(buckets.SIZE_BUCKETS)
                if target is not None:
                    target[(b, paper_row)] = line
                else:
                    out.extra.setdefault(b, []).append((paper_row, line))
        for paper_row, (sweep, row) in T2_MODELS.items():
            out.rows[(b, paper_row)] = [c for p in problems for c in _bucket_cells(out.point(runs, sweep, p), row)]
    na = C.Cell(C.NOT_AVAILABLE, None, C.NOT_AVAILABLE)  # no OR-Tools in this project
    out.rows[(0, "OR-Tools")] = [na] * 6
    return out


# ---------------------------------------------------------------- Table 3

T3_ROWS = {
    "FALCON (Full)": ("table3_bopo", "FALCON (Full)"),
    "w/o Grammar": ("table3_bopo", "w/o Grammar"),
    "w/o Repair": ("table3_bopo", "w/o Repair"),
    "w/o Adaptive": ("table3_bopo", "w/o Adaptive"),
    "w/o BOPO": ("table3_sft", "w/o BOPO"),
    "SFT + Repair": ("table3_sft", "SFT + Repair"),
    "SFT Only": ("table3_sft", "SFT Only"),
}
T3_EXTRA = {"with semantic mask (ours)": ("table3_mask", "with semantic mask")}
T3_PROBLEMS = ("tsp", "cvrp")


def _t3_line(out, runs, sweep, row):
    line = []
    for p in T3_PROBLEMS:
        point = out.point(runs, sweep, p)
        line += [_cell(point, row, "feasible", C.pct, 100), _cell(point, row, "gap_feasible", C.gap, 100),
                 _cell(point, row, "seconds", C.seconds_s)]
    return line


def table3(runs):
    out = Ours()
    for paper_row, (sweep, row) in T3_ROWS.items():
        out.rows[(0, paper_row)] = _t3_line(out, runs, sweep, row)
    out.extra[0] = [(name, _t3_line(out, runs, sweep, row)) for name, (sweep, row) in T3_EXTRA.items()]
    return out


# ---------------------------------------------------------------- Table 4

T4_ROWS = ("Fixed N=64", "Adaptive")  # falcon_eval rows of experiments/table4_adaptive/eval.yaml


def table4(runs):
    out = Ours()
    columns = []  # per column, the seven problems' cells, for the Avg. row
    for p in PROBLEMS:
        point = out.point(runs, "table4_adaptive", p)
        line = []
        for row in T4_ROWS:
            line += [_cell(point, row, "gap_feasible", C.gap, 100), _cell(point, row, "samples", C.samples),
                     _cell(point, row, "seconds", C.seconds_s)]
        out.rows[(0, PROBLEM_NAMES[p])] = line
        columns.append(line)
    fmts = (C.gap, C.samples, C.seconds_s) * len(T4_ROWS)
    out.rows[(0, "Avg.")] = [C.mean_of([c[i] for c in columns], fmts[i], len(PROBLEMS)) for i in range(len(fmts))]
    return out


# ---------------------------------------------------------------- Table 5

T5_PROBLEMS = ("tsp", "cvrp")
T5_ROWS = {"Easy (Cons.>0.7)": "Easy", "Medium (0.3--0.7)": "Medium", "Hard (Cons.<0.3)": "Hard"}


def table5(runs):
    out = Ours()
    per_problem = {}
    for p in T5_PROBLEMS:
        point = out.point(runs, "table4_adaptive", p)  # Table 4's adaptive row, bucketed
        if point.done:
            lines = [l for l in point.instances("Adaptive") if l.get("consistency") is not None]
            per_problem[p] = (len(lines), buckets.group(lines, lambda l: buckets.consistency_bucket(l["consistency"])))
        else:
            per_problem[p] = point.status
    for paper_row, bucket in T5_ROWS.items():
        line = []
        for p in T5_PROBLEMS:
            got = per_problem[p]
            if isinstance(got, str):
                line += [C.why(got)] * 3
                continue
            total, groups = got
            chosen = groups.get(bucket, [])
            line.append(C.number(100.0 * len(chosen) / total if total else None, C.share))
            line.append(C.number(buckets.mean([l["samples"] for l in chosen]), C.samples))
            g = buckets.mean_gap(chosen)
            line.append(C.number(g * 100 if g is not None else None, C.gap))
        out.rows[(0, paper_row)] = line
    return out


TABLE_SPECS = {"table1": table1, "table2": table2, "table3": table3, "table4": table4, "table5": table5}
