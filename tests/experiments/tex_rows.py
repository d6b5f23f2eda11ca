"""Reads the data rows of one tabular of the paper's .tex file, by its \\label, as plain strings:
the test of the transcription in experiments/common/paper_tables.py compares against this."""
import re

_DROP = [r"\\rowcolor\{[^}]*\}", r"\\cellcolor\{[^}]*\}", r"\\addlinespace(\[[^]]*\])?",
         r"\\(top|mid|bottom)rule", r"\\cmidrule(\([^)]*\))?\{[^}]*\}", r"\$", r"\\vspace\{[^}]*\}"]


def _clean(cell):
    for pattern in _DROP:
        cell = re.sub(pattern, "", cell)
    for macro in ("textbf", "underline", "textit"):  # \textbf{x} -> x, nested once is enough here
        cell = re.sub(r"\\%s\{([^{}]*)\}" % macro, r"\1", cell)
    return cell.replace(r"\%", "%").strip()


def tabular_rows(tex, label):
    """[(name, [values])] of the tabular after \\label{label}, in order; header lines included."""
    start = tex.index(r"\label{%s}" % label)
    body = tex[tex.index(r"\begin{tabular}", start):tex.index(r"\end{tabular}", start)]
    body = body.split("\n", 1)[1]  # drop the column specification line
    rows = []
    for line in body.split(r"\\"):
        if r"\multicolumn" in line or r"\multirow" in line:
            continue  # group headers and column headers
        cells = [_clean(c) for c in line.split("&")]
        if len(cells) > 1 and cells[0]:
            rows.append((cells[0], cells[1:]))
    return rows
