#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (gcc), in build-asan.
#   tools/sanitize.sh            set up, build, run every test; the record goes to build-asan/sanitize.log
#   tools/sanitize.sh --resume   run only the tests the record has not seen pass (after an interrupted
#                                run of the same commit); the record grows, it is not started over
#   JOBS=1 tools/sanitize.sh     tests at a time (default: one per core)
# The last line says the outcome: every test passed under the sanitizers, or which did not.
set -euo pipefail
cd "$(dirname "$0")/.."
resume=0
case "${1:-}" in
  --resume) resume=1 ;;
  "") ;;
  *) echo "sanitize.sh: unknown argument '$1' (the only one is --resume)" >&2; exit 2 ;;
esac
dir=build-asan
log=$dir/sanitize.log
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- 2>/dev/null || echo "+changes")
if [ "$resume" = 1 ]; then
  [ -f "$log" ] || { echo "sanitize.sh: no record at $log to resume; run tools/sanitize.sh without --resume" >&2; exit 2; }
  recorded=$(sed -n 's/^# commit: //p' "$log" | head -n 1)
  if [ "$recorded" != "$commit" ]; then
    echo "sanitize.sh: $log is of commit $recorded, the tree is at $commit; run tools/sanitize.sh without --resume" >&2
    exit 2
  fi
fi
tools/setup.sh
tools/build.sh "$dir" -DFALCON_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

total=$(ctest --test-dir "$dir" -N | sed -n 's/^Total Tests: //p')
# The numbers of the tests the record has seen pass, from ctest's lines
# "  12/661 Test  #12: Name ....   Passed    0.01 sec".
passed_numbers() { sed -n 's/^ *[0-9]*\/[0-9]* Test *#\([0-9]*\): .* Passed .*/\1/p' "$log" | sort -un; }
select=()
if [ "$resume" = 1 ]; then
  todo=$(comm -23 <(seq 1 "$total" | sort) <(passed_numbers | sort) | sort -n | paste -sd, -)
  if [ -z "$todo" ]; then
    echo "sanitize.sh: every one of the $total tests has passed already ($log)"
    exit 0
  fi
  select=(-I "0,0,0,$todo")
  echo "# resumed $(date -u +%FT%TZ): $(echo "$todo" | tr , '\n' | wc -l) of $total tests left" >>"$log"
else
  { echo "# tools/sanitize.sh: the test suite under ASan + UBSan"; echo "# commit: $commit";
    echo "# started $(date -u +%FT%TZ) on $(nproc) cores, $total tests"; } >"$log"
fi
status=0
ctest --test-dir "$dir" --output-on-failure --parallel "${JOBS:-$(nproc)}" "${select[@]}" 2>&1 | tee -a "$log" ||
  status=$?
passed=$(passed_numbers | wc -l)
echo "# ended $(date -u +%FT%TZ): $passed of $total tests passed under the sanitizers (ctest status $status)" |
  tee -a "$log"
exit "$status"
