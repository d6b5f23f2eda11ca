#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds, and runs every test (README's second command).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
tools/build.sh build
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
# A short, deterministic libFuzzer run of each fuzz target (clang build, no torch).
tools/fuzz.sh --runs 20000
