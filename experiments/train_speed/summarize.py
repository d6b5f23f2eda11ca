#!/usr/bin/env python3
"""Prints the figures of experiments/train_speed/run.sh from its output folder (runs/train_speed)."""
import json
import pathlib
import sys


def steps_per_second(run):
    lines = [json.loads(l) for l in (run / "metrics.jsonl").read_text().splitlines() if l.strip()]
    lines = [l for l in lines if l.get("type") == "sft"]
    if len(lines) < 3:
        raise SystemExit(f"train_speed: {run}/metrics.jsonl has {len(lines)} logged steps: raise STEPS")
    first, last = lines[1], lines[-1]  # from the second log line: the first holds the warm-up
    return (last["global_step"] - first["global_step"]) / (last["time"] - first["time"])


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "runs/train_speed")
    print("| text | arm | tokens / s | seconds / step |")
    print("|---|---|---:|---:|")
    for name in ["tsp", "mvc"]:
        scoring = json.loads((out / f"scoring_{name}.json").read_text())["scoring"]
        for arm, figures in scoring["arms"].items():
            print(f"| {name} | {arm} | {figures['tokens_per_s']:,.0f} | {figures['seconds_per_step']:.3f} |")
        print(f"| {name} | trained positions / every position after the prompt: fp32 {scoring['speedup_trained_positions_fp32']:.2f}x, "
              f"bf16 {scoring['speedup_trained_positions_bf16']:.2f}x; bf16 / fp32 {scoring['speedup_bf16_over_fp32_trained_positions']:.2f}x "
              f"| | |")
    print()
    print("| threads | quiet steps / s | beside a busy process | kept |")
    print("|---|---:|---:|---:|")
    for threads in ["auto", "two"]:
        quiet = steps_per_second(out / f"quiet_{threads}")
        busy = steps_per_second(out / f"busy_{threads}")
        print(f"| {threads} | {quiet:.2f} | {busy:.2f} | {busy / quiet:.2f} |")


if __name__ == "__main__":
    main()
