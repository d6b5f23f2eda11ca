#!/bin/sh
# Builds the measurement against the libraries of an existing build and prints the markdown table
# of results.md. Usage: run.sh [seconds-per-measurement]
set -e
cd "$(dirname "$0")/../.."
ninja -C build falcon_tokenizer_training >/dev/null
g++ -std=c++17 -O2 -I. experiments/tokenizer_speed/tokenizer_speed.cpp \
  build/falcon/libfalcon_tokenizer_training.a build/falcon/libfalcon_text.a build/falcon/libfalcon_solvers.a \
  build/falcon/libfalcon_problems.a build/falcon/libfalcon_core.a -lsentencepiece -lsentencepiece_train \
  -lfmt -lyaml-cpp -pthread -o build/tokenizer_speed
./build/tokenizer_speed "$@"
