#!/usr/bin/env python3
"""experiments/common/paper_tables.py: the paper's numbers are all there, well-formed, and (when
../shared/paper/falcon.tex is present) equal to the .tex file's cells, row by row.

  python3 tests/experiments/paper_tables_test.py        # what ctest runs; standard library only
"""
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "experiments", "common"))
sys.path.insert(0, HERE)

import paper_tables as pt  # noqa: E402
from tex_rows import tabular_rows  # noqa: E402

# The paper beside the repository (README: ../shared/paper/falcon.tex), or FALCON_PAPER.
TEX = os.environ.get("FALCON_PAPER", os.path.join(os.path.dirname(ROOT), "shared", "paper", "falcon.tex"))

NUMBER = re.compile(r"-?\d+(\.\d+)?(s|%)?\Z")  # 0.92, 100, 6.3s, 42%


class Transcription(unittest.TestCase):
    def test_every_table_of_section_4_is_there(self):
        self.assertEqual(sorted(pt.TABLES), ["table1", "table2", "table3", "table4", "table5"])
        self.assertEqual([t.label for t in pt.TABLES.values()],
                         ["tab:main_results_llm", "tab:heuristic_results", "tab:ablation_components",
                          "tab:adaptive_efficiency", "tab:difficulty_allocation"])
        self.assertEqual(sorted(f.label for f in pt.FIGURES.values()), ["fig:bopo_vs_grpo", "fig:repair_analysis"])

    def test_rows_are_well_formed(self):
        for t in pt.TABLES.values():
            for b, block in enumerate(t.blocks):
                names = [r.name for r in block.rows]
                self.assertEqual(len(names), len(set(names)), f"{t.key} block {b}: a row twice")
                for r in block.rows:
                    where = f"{t.key} block {b} row {r.name}"
                    self.assertEqual(len(r.values), len(block.columns), where)
                    for v in r.values:
                        self.assertTrue(v == "--" or NUMBER.match(v), f"{where}: '{v}' is not a printed number")

    def test_shapes(self):
        t1 = pt.TABLES["table1"].blocks[0]
        self.assertEqual(len(t1.columns), 15)  # 7 problems x (Fea., Gap) + Time
        self.assertEqual(len(t1.rows), 21)
        self.assertEqual(sum(r.quoted for r in t1.rows), 14)  # 7 LLMs, 3 reasoning models, 4 LLM-based methods
        self.assertEqual([len(b.rows) for b in pt.TABLES["table2"].blocks], [6, 5])
        self.assertEqual(len(pt.TABLES["table3"].blocks[0].rows), 7)
        self.assertEqual([r.name for r in pt.TABLES["table4"].blocks[0].rows],
                         [pt.PROBLEM_NAMES[p] for p in pt.PROBLEMS] + ["Avg."])
        self.assertEqual(len(pt.TABLES["table5"].blocks[0].rows), 3)

    def test_only_hosted_methods_are_quoted(self):
        for t in pt.TABLES.values():
            for block in t.blocks:
                for r in block.rows:
                    hosted = r.group in ("General-Purpose LLMs (Zero-shot)", "Reasoning Models", "LLM-based Optimization")
                    self.assertEqual(r.quoted, hosted, f"{t.key}: {r.name}")

    def test_some_cells_by_hand(self):
        def cell(key, row, column, block=0):
            b = pt.TABLES[key].blocks[block]
            return next(r for r in b.rows if r.name == row).values[b.columns.index(column)]
        self.assertEqual(cell("table1", "FALCON (Adaptive)", ("CVRP", "Gap(%)")), "3.52")
        self.assertEqual(cell("table1", "GPT-o1", ("", "Time (s)")), "192.0")
        self.assertEqual(cell("table2", "ACO", ("TSP", "Large")), "36.69")
        self.assertEqual(cell("table2", "NEH", ("JSSP", "Small"), block=1), "--")
        self.assertEqual(cell("table3", "w/o Repair", ("CVRP", "Fea.")), "85")
        self.assertEqual(cell("table4", "JSSP", ("Adaptive", "Samples")), "48.6")
        self.assertEqual(cell("table5", "Hard (Cons.<0.3)", ("CVRP", "Inst.")), "31%")

    def test_figures_have_their_stated_numbers(self):
        for f in pt.FIGURES.values():
            self.assertTrue(f.claims)
            for c in f.claims:
                self.assertTrue(c.text and c.value and c.where)
        self.assertIn("r=0.912", [c.value for c in pt.FIG_REPAIR.claims])

    @unittest.skipUnless(os.path.isfile(TEX), f"the paper is not at {TEX} (set FALCON_PAPER)")
    def test_cells_equal_the_tex_file(self):
        with open(TEX, encoding="utf-8") as f:
            tex = f.read()
        for t in pt.TABLES.values():
            parsed = tabular_rows(tex, t.label)
            ours = [r for b in t.blocks for r in b.rows]
            self.assertEqual([name for name, _ in parsed], [r.name for r in ours], f"{t.label}: rows")
            for (name, values), r in zip(parsed, ours):
                self.assertEqual(values, list(r.values), f"{t.label}: {name}")


if __name__ == "__main__":
    unittest.main()
