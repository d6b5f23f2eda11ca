#!/usr/bin/env bash
# Configure and build. Usage: tools/build.sh [BUILD_DIR] [extra cmake args...]
# Uses Ninja, ccache when present, and a precompiled header for torch (see CMakeLists.txt).
# FALCON_TARGETS="falcon_train falcon_tokenizer" builds only those targets (and what they need).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
elif [ $# -gt 0 ]; then
  cmake -S . -B "$dir" "$@"
fi
# Two jobs per core would swap on torch translation units; one per core is the sweet spot here.
targets=()
for t in ${FALCON_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$dir" --parallel "$(nproc)" "${targets[@]}"
