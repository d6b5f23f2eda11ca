#!/usr/bin/env python3
"""The learning curves in results.md as a picture: the model alone per size bucket against SFT steps
on sizes 10-60 from the TSP-20 release, in the compact text (runs/tsp10_60, runs/tsp10_60_b) and then
in the ranked text (runs/tsp10_60_ranked from step 900's weights, then runs/tsp10_60_ranked_b).  /usr/bin/python3 plot.py  ->  curve.png"""
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

compact_steps = [0, 125, 250, 375, 500, 600, 700, 800, 900]   # 0: the compact TSP-20 release
compact_small = [1, 21, 29, 48, 55, 53, 56, 58, 59]           # valid before repair, % of 100 (n 10-30)
compact_medium = [0] * len(compact_steps)                     # the same, n 40-60
ranked_steps = [900 + s for s in (100, 200, 300, 400, 500, 600, 700, 850)]   # 601-850: runs/tsp10_60_ranked_b
ranked_small = [1, 27, 55, 67, 88, 94, 99, 100]
ranked_medium = [0, 0, 0, 1, 23, 37, 58, 73]
picks_small = [78.39, 33.89, 32.85, 22.99, 19.55, 18.34, 18.25, 17.53]      # note picks: 100% valid, mean gap %
picks_medium = [124.51, 71.75, 57.50, 33.60, 26.60, 25.17, 24.90, 23.84]

fig, (valid, gap) = plt.subplots(1, 2, figsize=(10, 3.6))
valid.plot(compact_steps, compact_small, "o-", color="C0", label="Small (10-30), compact")
valid.plot(compact_steps, compact_medium, "s-", color="C1", label="Medium (40-60), compact")
valid.plot(ranked_steps, ranked_small, "o--", color="C0", label="Small, ranked notes")
valid.plot(ranked_steps, ranked_medium, "s--", color="C1", label="Medium, ranked notes")
valid.axvline(900, color="grey", lw=0.8)
valid.set_xlabel("SFT steps on sizes 10-60 (from the TSP-20 release)")
valid.set_ylabel("model alone: valid %")
valid.set_ylim(-3, 100)
valid.grid(alpha=0.3)
valid.legend(fontsize=7)

gap.plot(ranked_steps, picks_small, "o--", color="C0", label="Small, note picks")
gap.plot(ranked_steps, picks_medium, "s--", color="C1", label="Medium, note picks")
for level, color, name in ((17.05, "C0", "nearest neighbour, Small"), (23.28, "C1", "nearest neighbour, Medium")):
    gap.axhline(level, color=color, lw=0.8, ls=":", label=name)
gap.set_xlabel("SFT steps (ranked notes from step 900)")
gap.set_ylabel("model alone with note picks: gap %")
gap.set_ylim(0, 80)
gap.grid(alpha=0.3)
gap.legend(fontsize=7)
fig.tight_layout()
fig.savefig("curve.png", dpi=120)
