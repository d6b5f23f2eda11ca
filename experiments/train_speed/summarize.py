#!/usr/bin/env python3
"""Prints the figures of experiments/train_speed/run.sh from its output folder (runs/train_speed)."""
import json
import pathlib
import sys


def logged_steps(run):
    lines = [json.loads(l) for l in (run / "metrics.jsonl").read_text().splitlines() if l.strip()]
    lines = [l for l in lines if l.get("type") == "sft"]
    if len(lines) < 3:
        raise SystemExit(f"train_speed: {run}/metrics.jsonl has {len(lines)} logged steps: raise STEPS")
    return lines[1:]  # from the second log line: the first holds the warm-up


def steps_per_second(run):
    lines = logged_steps(run)
    return (lines[-1]["global_step"] - lines[0]["global_step"]) / (lines[-1]["time"] - lines[0]["time"])


def tokens_per_second(run):
    """The mean of the logged rates (each over its logging interval), from the third log line on."""
    rates = [l["tokens_per_second"] for l in logged_steps(run)[1:]]
    return sum(rates) / len(rates)


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
    profile = json.loads((out / "scoring_tsp.json").read_text())["scoring"].get("profile")
    if isinstance(profile, dict):
        arms = list(profile)
        print()
        print("| operator (self time, ms per step) | " + " | ".join(arms) + " |")
        print("|---|" + "---:|" * len(arms))
        ops = {arm: {o["op"]: o["ms_per_step"] for o in profile[arm]["ops"]} for arm in arms}
        names = list(dict.fromkeys(name for arm in arms for name in ops[arm]))
        for name in names:
            print(f"| {name} | " + " | ".join(f"{ops[arm][name]:.1f}" if name in ops[arm] else "" for arm in arms) + " |")
        print("| all operators | " + " | ".join(f"{profile[arm]['ms_per_step']:.1f}" for arm in arms) + " |")
    print()
    print("| trainer, two threads | round 1 tokens / s | round 2 | mean |")
    print("|---|---:|---:|---:|")
    mean = {}
    for precision in ["fp32", "bf16"]:
        rates = [tokens_per_second(out / f"{precision}_{r}") for r in (1, 2)]
        mean[precision] = sum(rates) / 2
        print(f"| {precision} | {rates[0]:,.0f} | {rates[1]:,.0f} | {mean[precision]:,.0f} |")
    print(f"| bf16 / fp32 | | | {mean['bf16'] / mean['fp32']:.2f}x |")
    print()
    print("| threads | quiet steps / s | beside a busy process | kept |")
    print("|---|---:|---:|---:|")
    for threads in ["auto", "two"]:
        quiet = steps_per_second(out / f"quiet_{threads}")
        busy = steps_per_second(out / f"busy_{threads}")
        print(f"| {threads} | {quiet:.2f} | {busy:.2f} | {busy / quiet:.2f} |")


if __name__ == "__main__":
    main()
