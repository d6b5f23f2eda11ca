#!/usr/bin/env python3
"""The learning curve in results.md as a picture: the model alone's valid share per size bucket
against training steps (runs/tsp10_60's checkpoints, then runs/tsp10_60_b's).  /usr/bin/python3 plot.py  ->  curve.png"""
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

steps = [0, 125, 250, 375, 500, 600, 700, 800, 900]   # 0: models/tsp; 501-900: runs/tsp10_60_b
small = [1, 21, 29, 48, 55, 53, 56, 58, 59]           # valid before repair, % of 100 instances (n 10-30)
medium = [0] * len(steps)                             # the same, n 40-60
plt.figure(figsize=(5, 3.2))
plt.plot(steps, small, "o-", label="Small (10-30)")
plt.plot(steps, medium, "s-", label="Medium (40-60)")
plt.xlabel("SFT steps on sizes 10-60 (from the TSP-20 release)")
plt.ylabel("model alone: valid %")
plt.ylim(-3, 100)
plt.grid(alpha=0.3)
plt.legend()
plt.tight_layout()
plt.savefig("curve.png", dpi=120)
