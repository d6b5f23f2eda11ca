"""The two figures: repair statistics per problem (fig:repair_analysis) and BOPO vs GRPO
(fig:bopo_vs_grpo). The paper's .tex has no data for them (empty \\includegraphics), so each gets
our numbers per problem, a PNG drawn from them (matplotlib), and what the paper's text states
about it beside the matching number of ours."""
import csv
import io
import math

from paper_tables import PROBLEMS, PROBLEM_NAMES
import cells as C
from runs import Point

# ---------------------------------------------------------------- repair statistics

REPAIR_ROW = "FALCON adaptive"  # Table 1's FALCON rows (experiments/table1_main/eval_falcon.yaml)
REPAIR_COLUMNS = (
    # (column, how it is made from the summary row) -- docs/evaluation.md for the fields
    ("feasible before repair, samples (%)", lambda r: 100 * r["sample_feasible_raw"]),
    ("feasible before repair, delivered (%)", lambda r: 100 * r["feasible_raw"]),
    ("feasible (%)", lambda r: 100 * r["feasible"]),
    # Repair leaves a feasible sample as it is (Definition 3.2), so it changes exactly the
    # samples that were infeasible before it: its frequency is 1 - sample_feasible_raw.
    ("repair frequency, samples (%)", lambda r: 100 * (1 - r["sample_feasible_raw"])),
    ("repaired, delivered (%)", lambda r: 100 * r["repaired"]),
    ("repair time share (%)", lambda r: 100 * r["repair_seconds"] / r["seconds"] if r["seconds"] else None),
    ("gap (%)", lambda r: 100 * r["gap_feasible"] if r["gap_feasible"] is not None else None),
)


def _table(runs, sweep, row, columns):
    """{problem: {column: value}} for the problems whose point is done; and every point read."""
    points, data = [], {}
    for p in PROBLEMS:
        point = Point(runs, sweep, p)
        points.append(point)
        if point.done:
            r = point.row(row)
            data[p] = {name: f(r) for name, f in columns}
    return points, data


def repair_data(runs):
    points, data = _table(runs, "table1_falcon", REPAIR_ROW, REPAIR_COLUMNS)
    return points, data, [name for name, _ in REPAIR_COLUMNS]


def pearson(xs, ys):
    """Pearson's r, or None with fewer than 3 points or a constant series."""
    if len(xs) < 3:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    if sx == 0 or sy == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy)


def _of(data, problems, column):
    return [(p, data[p][column]) for p in problems if p in data and data[p][column] is not None]


def _partial(got, total):
    return f" ({len(got)} of {total})" if len(got) < total else ""


def repair_claims(data):
    """Our number for each of the paper's statements (paper_tables.FIG_REPAIR.claims, in order)."""
    def listed(problems, column):
        got = _of(data, problems, column)
        return ", ".join(f"{PROBLEM_NAMES[p]} {v:.1f}%" for p, v in got) or C.NOT_RUN

    feas = _of(data, PROBLEMS, "feasible before repair, samples (%)")
    share = _of(data, PROBLEMS, "repair time share (%)")
    freq = dict(_of(data, PROBLEMS, "repair frequency, samples (%)"))
    both = [p for p in PROBLEMS if p in freq and p in dict(share)]
    r = pearson([freq[p] for p in both], [dict(share)[p] for p in both])
    final = _of(data, PROBLEMS, "feasible (%)")
    return [
        f"{min(v for _, v in feas):.0f}%--{max(v for _, v in feas):.0f}%{_partial(feas, 7)}" if feas else C.NOT_RUN,
        f"{max(v for _, v in share):.2f}% (largest){_partial(share, 7)}" if share else C.NOT_RUN,
        listed(("tsp", "pfsp"), "repair frequency, samples (%)"),
        listed(("cvrp", "jssp"), "repair frequency, samples (%)"),
        (f"r={r:.3f} (frequency vs time share, {len(both)} problems)" if r is not None
         else "needs 3 or more problems" if both else C.NOT_RUN),
        f"{min(v for _, v in final):.0f}% (lowest){_partial(final, 7)}" if final else C.NOT_RUN,
    ]


def plot_repair(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    probs = [p for p in PROBLEMS if p in data]
    names = [PROBLEM_NAMES[p] for p in probs]
    x = range(len(probs))
    fig, ax = plt.subplots(2, 2, figsize=(11, 8))

    def bars(a, columns, title, ylabel):
        width = 0.8 / len(columns)
        for i, (col, label) in enumerate(columns):
            a.bar([k + (i - (len(columns) - 1) / 2) * width for k in x],
                  [data[p][col] or 0 for p in probs], width, label=label)
        a.set_xticks(list(x))
        a.set_xticklabels(names)
        a.set_title(title)
        a.set_ylabel(ylabel)
        if len(columns) > 1:
            # at most two a row: three side by side are wider than the panel and cover its ticks
            a.legend(fontsize=8, loc="upper center", ncol=min(2, len(columns)))

    bars(ax[0][0], [("feasible before repair, samples (%)", "samples before repair"),
                    ("feasible before repair, delivered (%)", "delivered before repair"),
                    ("feasible (%)", "delivered after repair")], "(a) Feasibility", "%")
    ax[0][0].set_ylim(0, 140)  # room above 100% for the legend's two rows
    ax[0][0].set_yticks(range(0, 101, 20))
    bars(ax[0][1], [("gap (%)", "gap")], "(b) Optimality gap (adaptive)", "%")
    bars(ax[1][0], [("repair frequency, samples (%)", "repair frequency (samples)"),
                    ("repair time share (%)", "repair time (% of total)")], "(c) Repair frequency and cost", "%")
    ax[1][0].set_ylim(0, 125)  # frequencies reach 100%: room for the legend above them
    ax[1][0].set_yticks(range(0, 101, 20))
    pts = [(data[p]["repair frequency, samples (%)"], data[p]["repair time share (%)"], PROBLEM_NAMES[p])
           for p in probs if data[p]["repair time share (%)"] is not None]
    a = ax[1][1]
    a.scatter([q[0] for q in pts], [q[1] for q in pts])
    for fx, fy, name in pts:
        a.annotate(name, (fx, fy), fontsize=8)
    r = pearson([q[0] for q in pts], [q[1] for q in pts])
    a.set_title("(d) Frequency vs cost" + (f", r = {r:.3f}" if r is not None else ""))
    a.set_xlabel("repair frequency (% of samples)")
    a.set_ylabel("repair time (% of total)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# ---------------------------------------------------------------- BOPO vs GRPO

COMPARE_ROW = "N=1, grammar, no repair"  # experiments/fig_bopo_vs_grpo/eval.yaml
COMPARE_FIELDS = (("gap (%)", "gap_feasible"), ("feasible (%)", "feasible"), ("gap, infeasible = 100% (%)", "gap_all"))
COMPARED_GAP = "gap, infeasible = 100% (%)"  # the gap BOPO and GRPO are compared on
RELATIVE = "relative gap improvement, infeasible = 100% (%)"


def compare_data(runs):
    points, data = [], {}
    for p in PROBLEMS:
        got = {}
        for method, sweep in (("BOPO", "fig_bopo"), ("GRPO", "fig_grpo")):
            point = Point(runs, sweep, p)
            points.append(point)
            if point.done:
                r = point.row(COMPARE_ROW)
                for name, field in COMPARE_FIELDS:
                    got[f"{method} {name}"] = 100 * r[field] if r[field] is not None else None
        if len(got) == 2 * len(COMPARE_FIELDS):  # both models ran on this problem
            # Compared on every instance, an infeasible answer counted as a 100% gap: the gap of
            # the feasible ones alone favours a model that is rarely feasible (on the few
            # instances it solves, which are the easy ones).
            b, g = got[f"BOPO {COMPARED_GAP}"], got[f"GRPO {COMPARED_GAP}"]
            got[RELATIVE] = 100 * (g - b) / g if b is not None and g else None
            data[p] = got
    columns = [f"{m} {n}" for n, _ in COMPARE_FIELDS for m in ("BOPO", "GRPO")] + [RELATIVE]
    return points, data, columns


def compare_claims(data):
    cvrp, mis = data.get("cvrp"), data.get("mis")
    bopo, grpo = f"BOPO {COMPARED_GAP}", f"GRPO {COMPARED_GAP}"
    both = [p for p in PROBLEMS if p in data and data[p][bopo] is not None and data[p][grpo] is not None]
    lower = sum(data[p][bopo] < data[p][grpo] for p in both)
    rel = cvrp and cvrp[RELATIVE]
    return [
        f"{rel:.0f}% (infeasible = 100%)" if rel is not None else C.NOT_RUN,
        f"{mis['BOPO feasible (%)'] - mis['GRPO feasible (%)']:+.0f} percentage points" if mis else C.NOT_RUN,
        f"lower on {lower} of {len(both)} problems run (infeasible = 100%)" if both else C.NOT_RUN,
    ]


def plot_compare(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    probs = [p for p in PROBLEMS if p in data]
    names = [PROBLEM_NAMES[p] for p in probs]
    x = list(range(len(probs)))
    fig, ax = plt.subplots(2, 2, figsize=(11, 8))
    for a, (name, _), title in zip([ax[0][0], ax[0][1], ax[1][0]], COMPARE_FIELDS,
                                   ["(a) Gap, feasible instances", "(b) Feasibility (no repair)",
                                    "(c) Gap, infeasible counted as 100%"]):
        for i, m in enumerate(("BOPO", "GRPO")):
            a.bar([k + (i - 0.5) * 0.4 for k in x], [data[p][f"{m} {name}"] or 0 for p in probs], 0.4, label=m)
        a.set_xticks(x)
        a.set_xticklabels(names)
        a.set_title(title)
        a.set_ylabel("%")
        a.legend(fontsize=8, loc="upper center", ncol=2)
    for a in (ax[0][1], ax[1][0]):  # feasibility and gap-with-infeasible reach 100%: room for the legend
        a.set_ylim(0, 125)
        a.set_yticks(range(0, 101, 20))
    a = ax[1][1]
    a.bar(x, [data[p][RELATIVE] or 0 for p in probs])
    a.axhline(0, color="black", linewidth=0.8)
    a.set_xticks(x)
    a.set_xticklabels(names)
    a.set_title("(d) Relative gap improvement (gaps of c)")
    a.set_ylabel("% of GRPO's gap")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


FIGURE_SPECS = {  # key -> (data, claims, plot, PNG file name)
    "fig_repair": (repair_data, repair_claims, plot_repair, "repair.png"),
    "fig_bopo_vs_grpo": (compare_data, compare_claims, plot_compare, "bopo_vs_grpo.png"),
}


# ---------------------------------------------------------------- results files


def _fmt(v):
    return "-" if v is None else f"{v:.2f}"  # None in a finished point: e.g. no feasible instance, no gap


def markdown(fig, status, scale, command, points, data, columns, claims, png):
    from render import _runs_table, needs_line
    lines = [f"# {fig.number}: {fig.caption}", "",
             f"The paper's `\\label{{{fig.label}}}` (../shared/paper/falcon.tex). The .tex file holds no data for "
             "this figure (its \\includegraphics names no file), so only what its text states can be compared.", "",
             f"- **Status:** {status}.", f"- **Scale:** {scale}", f"- **Command:** `{command}`",
             f"- **Needs:** {needs_line(points)}.", ""]
    if png:
        lines += [f"![{fig.label}]({png})", ""]
    lines += ["## Ours per problem", "", "| problem | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for p in PROBLEMS:
        row = data.get(p)
        lines.append(f"| {PROBLEM_NAMES[p]} | " + " | ".join(_fmt(row[c]) if row else C.NOT_RUN for c in columns) + " |")
    lines += ["", "## What the paper states, and ours", "", "| statement | paper | ours | where in the paper |",
              "|---|---|---|---|"]
    lines += [f"| {c.text} | {c.value} | {o} | {c.where} |" for c, o in zip(fig.claims, claims)]
    lines += ["", "## Runs", "", _runs_table(points), ""]
    return "\n".join(lines)


def latex(fig, status, scale, command, data, columns, claims):
    from render import _tex
    out = [f"% {fig.number} ({fig.label}): ours per problem. {status.replace('*', '')}.", f"% Scale: {scale}",
           f"% Command: {command}", "% LaTeX: \\usepackage{booktabs}.",
           f"\\begin{{tabular}}{{l{'r' * len(columns)}}}", "\\toprule",
           " & ".join(["Problem"] + [_tex(c) for c in columns]) + " \\\\", "\\midrule"]
    for p in PROBLEMS:
        row = data.get(p)
        out.append(" & ".join([PROBLEM_NAMES[p]] + [_tex(_fmt(row[c]) if row else C.NOT_RUN) for c in columns]) + " \\\\")
    out += ["\\bottomrule", "\\end{tabular}", "", "\\begin{tabular}{lll}", "\\toprule",
            "Statement & Paper & Ours \\\\", "\\midrule"]
    out += [f"{_tex(c.text)} & {_tex(c.value)} & {_tex(o)} \\\\" for c, o in zip(fig.claims, claims)]
    out += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(out) + "\n"


def csv_text(fig, data, columns, claims):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["figure", "label", "kind", "row", "column", "paper", "ours"])
    for p in PROBLEMS:
        row = data.get(p)
        for c in columns:
            w.writerow([fig.number, fig.label, "ours per problem", PROBLEM_NAMES[p], c, "",
                        C.NOT_RUN if not row else "" if row[c] is None else repr(row[c])])
    for c, o in zip(fig.claims, claims):
        w.writerow([fig.number, fig.label, "paper's statement", c.text, c.where, c.value, o])
    return buf.getvalue()
