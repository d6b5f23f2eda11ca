#!/usr/bin/env python3
"""Mutation fuzzing of tools/falcon_sweep.py's sweep-file reader (load_sweep, then expand): every
mutated file must be accepted or refused with a SweepError (one line naming the key); anything
else is a failure, written to the findings folder with its traceback. Seeds: configs/sweeps/*.yaml.
A plain-Python stand-in for the libFuzzer targets (the reader is Python), deterministic per seed.

  tests/tools/sweep_config_fuzz.py                          # 3,000 inputs (ctest runs 1,000)
  tests/tools/sweep_config_fuzz.py --runs 10000000 --seed 7 --findings build-fuzz/findings
"""
import argparse
import importlib.util
import os
import random
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")
ALPHABET = b":{}[]-,#\n '\"&*!|>%@`0123456789.eE+axeszipcollectrowsfieldsprogramoverrides\x00\xff"
MAX_POINTS = 10000  # a mutated grid is refused by nobody; expand() of a huge one only costs time


def load_tool():
    spec = importlib.util.spec_from_file_location("falcon_sweep", os.path.join(REPO, "tools", "falcon_sweep.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def mutate(rng, data, seeds):
    """One to four byte-level edits of `data` (bytes), libFuzzer's usual kinds plus a splice."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:  # replace a byte
            data[min(at, len(data) - 1)] = rng.choice(ALPHABET)
        elif kind == 1:  # insert a byte
            data[at:at] = bytes([rng.choice(ALPHABET)])
        elif kind == 2:  # delete a run
            del data[at:at + rng.randint(1, 16)]
        elif kind == 3:  # duplicate a run
            data[at:at] = data[at:at + rng.randint(1, 32)]
        elif kind == 4:  # truncate
            del data[at:]
        else:  # splice in a line of another seed
            lines = rng.choice(seeds).splitlines(keepends=True)
            if lines:
                data[at:at] = rng.choice(lines)
    return bytes(data)


def grid_size(sweep):
    size = 1
    for d in sweep.dims:
        size *= len(d.choices)
    return size


def fuzz(runs, seed, findings=None, progress=False):
    """Returns (executions, accepted, failures); failures are (input bytes, traceback text)."""
    tool = load_tool()
    folder = os.path.join(REPO, "configs", "sweeps")
    seeds = [open(os.path.join(folder, f), "rb").read() for f in sorted(os.listdir(folder)) if f.endswith(".yaml")]
    if not seeds:
        raise SystemExit(f"sweep_config_fuzz: no seed files in {folder}")
    rng = random.Random(seed)
    accepted, failures = 0, []
    start = last = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sweep.yaml")
        for k in range(runs):
            data = mutate(rng, rng.choice(seeds), seeds)
            with open(path, "wb") as f:
                f.write(data)
            try:
                sweep = tool.load_sweep(path, check_files=False)
                if grid_size(sweep) <= MAX_POINTS:
                    tool.expand(sweep)
                accepted += 1
            except tool.SweepError:
                pass  # refused with a message: what a bad sweep file should get
            except Exception:  # noqa: BLE001  (anything else is the finding)
                failures.append((data, traceback.format_exc()))
                if findings:
                    os.makedirs(findings, exist_ok=True)
                    stem = os.path.join(findings, f"sweep_config-{seed}-{k}")
                    with open(stem + ".yaml", "wb") as f:
                        f.write(data)
                    with open(stem + ".txt", "w") as f:
                        f.write(failures[-1][1])
            now = time.monotonic()
            if progress and now - last >= 10:
                rate = (k + 1) / (now - start)
                print(f"sweep_config_fuzz: {k + 1}/{runs}  {rate:.0f}/s  ETA {(runs - k - 1) / rate:.0f}s  "
                      f"accepted {accepted}  failures {len(failures)}", file=sys.stderr, flush=True)
                last = now
    return runs, accepted, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--findings", help="folder for failing inputs and their tracebacks")
    args = parser.parse_args()
    try:
        import yaml  # noqa: F401  (the tool needs it; python3-yaml)
    except ImportError:
        print("sweep_config_fuzz: python3-yaml is not installed (tools/setup.sh installs it); skipped")
        return 77
    start = time.monotonic()
    executions, accepted, failures = fuzz(args.runs, args.seed, args.findings, progress=True)
    seconds = time.monotonic() - start
    print(f"sweep_config_fuzz: {executions} executions in {seconds:.0f} s ({executions / max(seconds, 1e-9):.0f}/s), "
          f"{accepted} accepted, {executions - accepted - len(failures)} refused with a SweepError, "
          f"{len(failures)} failures")
    for data, trace in failures[:3]:
        print(f"--- input {data[:300]!r}\n{trace}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
