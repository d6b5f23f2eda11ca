#!/usr/bin/env bash
# A released model's held-out test split made again, without its training data: falcon_datagen of
# the data config its release.json names, the other splits cut to one instance (the generator is
# seeded per split and index, so the test instances are the card's).
#   experiments/common/release_test_split.sh PROBLEM LIMIT OUT.h5      (BUILD: where falcon_datagen is)
set -euo pipefail
p=$1 limit=$2 out=$3
data_config=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['data'])" "models/$p/release.json")
"${BUILD:-build}/datagen/falcon_datagen" "$data_config" output="$out" threads=1 \
  splits.train.count=1 splits.val.count=1 splits.test.count="$limit"
