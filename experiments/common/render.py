"""Writing a table's results.md / results.tex / results.csv: the paper's layout, each cell
"paper / ours", quoted rows and cells without a number saying so, then the runs they come from."""
import csv
import io
import json
import os
import re

import cells as C
from paper_tables import PROBLEMS

LEGEND = ("Each cell: *paper / ours*. *quoted*: a row quoted from the paper (hosted LLMs and "
          "LLM-based optimisation methods, which this project does not run). *not run*: the "
          "experiment has not been run at this scale (the command is above). *failed* / "
          "*interrupted*: the point's log.txt says why. *no instances*: none of the run's instances "
          "falls in this bucket. *not available*: a method this project does not have, or a point its "
          "run.sh does not run for this model (the Runs list says why). "
          "*(k of 7)*: a mean over only the k problems that were run; in a size bucket, *(k of m)*: a mean "
          "gap over only k of its m instances, the others having no feasible solution or not fitting the "
          "model's context (prompt + solution; the point's summary.json lists them). *none feasible*: "
          "instances ran, none has a feasible solution. *over context*: no instance of the bucket fits the "
          "model's context. *ours*: a row the paper does not have.")


def _status_line(points):
    skipped = sum(p.status == C.NOT_AVAILABLE for p in points)  # run.sh does not run them (Runs says why)
    runnable = len(points) - skipped
    done = sum(p.done for p in points)
    aside = f" ({skipped} not available)" if skipped else ""
    if runnable == 0:
        return "nothing to run" + aside
    if done == 0:
        return "**not run yet**" + aside
    if done < runnable:
        return f"partly run: {done} of {runnable} falcon_eval points done" + aside
    return f"run: all {runnable} falcon_eval points done" + aside


def needs_line(points):
    """What the points need before they can run: the trained models, named by recipe and problem."""
    from specs import SWEEPS
    named = {SWEEPS[p.sweep][1] for p in points if SWEEPS[p.sweep][1]}
    recipes = sorted(r for r in named if not r.endswith("_all"))
    one_model = sorted(r for r in named if r.endswith("_all"))  # one model for every problem
    problems = sorted({p.name.split(".")[0] for p in points}, key=lambda x: PROBLEMS.index(x))
    if not recipes:
        return "no trained model (solver rows only)"
    solver_only = {p.sweep for p in points if SWEEPS[p.sweep][1] is None}  # heuristic rows: no model
    return (f"trained models `runs/<recipe>_<p>/final` (`runs/paper/...` at SCALE=paper) for recipe "
            f"{', '.join(recipes)} and p = {', '.join(problems)}; run.sh names the falcon_train command "
            "of each one missing (experiments/README.md lists them all)"
            + "".join(f"; the rows of `{r}`, one model for all of them, need `runs/{r}/final`" for r in one_model)
            + ("; the heuristic rows need no model" if solver_only else "")
            + (" (ROWS=heuristics)" if "table2_heuristics" in solver_only else ""))


def _runs_table(points):
    order = lambda p: (p.sweep, PROBLEMS.index(p.name.split(".")[0]), p.name)  # noqa: E731
    points = sorted(points, key=order)
    lines = ["| point | status | data | instances | model | seconds |", "|---|---|---|---|---|---|"]
    for p in points:
        m = p.meta()
        secs = ""
        if p.done:
            try:
                with open(os.path.join(p.dir, "done"), encoding="utf-8") as f:
                    secs = f"{json.load(f)['seconds']:.1f}"
            except (OSError, ValueError, KeyError):
                secs = ""
        lines.append(f"| {m['point']} | {m['status']} | {m.get('data') or m['dataset'] or '-'} | "
                     f"{m.get('instances') if m.get('instances') is not None else '-'} | {m['model'] or '-'} | {secs or '-'} |")
    return "\n".join(lines)


def _pair(paper, ours):
    return f"{paper} / {ours.text}"


def table_lines(paper, ours):
    """[(block, row name, group, kind, [(paper, Cell)])], kind 'paper', 'quoted' or 'ours'."""
    out = []
    for b, block in enumerate(paper.blocks):
        for row in block.rows:
            if row.quoted:
                cells = [(v, C.Cell(C.QUOTED, None, C.QUOTED)) for v in row.values]
                out.append((b, row.name, row.group, "quoted", cells))
            else:
                got = ours.rows.get((b, row.name))
                if got is None:  # a paper row no spec fills: say so rather than leave it blank
                    got = [C.Cell(C.NOT_AVAILABLE, None, C.NOT_AVAILABLE)] * len(row.values)
                out.append((b, row.name, row.group, "paper", list(zip(row.values, got))))
        for name, got in ours.extra.get(b, []):
            out.append((b, name, "", "ours", [("", c) for c in got]))
    return out


def markdown(paper, ours, scale, command, points):
    lines = [f"# {paper.number}: {paper.caption}", "",
             f"The paper's `\\label{{{paper.label}}}` (../shared/paper/falcon.tex) beside our figures.", "",
             f"- **Status:** {_status_line(points)}.",
             f"- **Scale:** {scale}",
             f"- **Command:** `{command}`",
             f"- **Needs:** {needs_line(points)}.",
             "", LEGEND, ""]
    rows = table_lines(paper, ours)
    for b, block in enumerate(paper.blocks):
        header = [paper.row_header] + [f"{g} {c}".strip() for g, c in block.columns]
        lines += ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
        group = None
        for rb, name, g, kind, cells in rows:
            if rb != b:
                continue
            if g and g != group:
                lines.append(f"| *{g}* |" + " |" * len(block.columns))
                group = g
            label = {"quoted": f"{name} (quoted)", "ours": f"{name}"}.get(kind, name)
            shown = [p if kind == "quoted" else (c.text if kind == "ours" else _pair(p, c)) for p, c in cells]
            lines.append("| " + " | ".join([label] + shown) + " |")
        lines.append("")
    lines += ["## Runs", "", "The falcon_eval points these cells are read from (tools/falcon_sweep.py folders; "
              "seconds: the point's last run, only the end of a point resumed across runs).", "",
              _runs_table(points), ""]
    if paper.notes:
        lines += ["## Notes on the paper's table", ""] + [f"- {n}" for n in paper.notes] + [""]
    return "\n".join(lines)


def _tex(s):
    return re.sub(r"[\\&%$#_{}~^]", lambda m: {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}",
                                                "^": r"\textasciicircum{}"}.get(m[0], "\\" + m[0]), s)


def latex(paper, ours, scale, command, points):
    out = [f"% {paper.number} ({paper.label}): paper / ours. {_status_line(points).replace('*', '')}.",
           f"% Scale: {scale}", f"% Command: {command}", f"% Needs: {needs_line(points)}.",
           "% LaTeX: \\usepackage{booktabs}."]
    rows = table_lines(paper, ours)
    for b, block in enumerate(paper.blocks):
        out += [f"\\begin{{tabular}}{{l{'c' * len(block.columns)}}}", "\\toprule"]
        groups = []
        for g, _ in block.columns:  # header groups as \multicolumn spans
            if groups and groups[-1][0] == g:
                groups[-1][1] += 1
            else:
                groups.append([g, 1])
        out.append(" & ".join([paper.row_header] + [f"\\multicolumn{{{n}}}{{c}}{{{_tex(g)}}}" for g, n in groups]) + " \\\\")
        out.append(" & ".join([""] + [_tex(c) for _, c in block.columns]) + " \\\\")
        out.append("\\midrule")
        for rb, name, _, kind, cells in rows:
            if rb != b:
                continue
            label = _tex(name) + ("$^{q}$" if kind == "quoted" else "")
            shown = [_tex(p) if kind == "quoted" else _tex(c.text if kind == "ours" else _pair(p, c)) for p, c in cells]
            out.append(" & ".join([label] + shown) + " \\\\")
        out += ["\\bottomrule", "\\end{tabular}", ""]
    if any(kind == "quoted" for _, _, _, kind, _ in rows):
        out.append("% $^{q}$: quoted from the paper, not run here.")
    return "\n".join(out) + "\n"


CSV_HEADER = ["table", "label", "block", "row", "group", "kind", "column", "paper", "ours", "ours_value", "status"]


def csv_text(paper, ours):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for b, name, group, kind, cells in table_lines(paper, ours):
        for (g, col), (p, c) in zip(paper.blocks[b].columns, cells):
            w.writerow([paper.number, paper.label, b, name, group, kind, f"{g} {col}".strip(), p,
                        c.text, "" if c.value is None else repr(c.value), c.status])
    return buf.getvalue()


def write(prefix, md, tex, csv_data):
    os.makedirs(os.path.dirname(prefix) or ".", exist_ok=True)
    for ext, text in ((".md", md), (".tex", tex), (".csv", csv_data)):
        tmp = prefix + ext + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, prefix + ext)  # a reader never sees half a file
