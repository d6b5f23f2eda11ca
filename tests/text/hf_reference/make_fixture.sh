#!/usr/bin/env bash
# Remakes fixture.json: the texts (each problem's prompt and a heuristic's solution in the paper's
# and the compact text, whitespace and digit runs, special tokens inside text, long inputs; random
# Unicode is added by reference.js) and the reference ids of both tokenizer families.
#   tools/fetch_tokenizers.sh && tests/text/hf_reference/make_fixture.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
solve="$build/tools/falcon_solve"
[ -x "$solve" ] || { echo "make_fixture: $solve is missing: build it first (tools/build.sh)" >&2; exit 2; }
[ -f "$root/.tokenizers/reference/dist/main.js" ] || { echo "make_fixture: run tools/fetch_tokenizers.sh first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
methods="tsp:nearest_neighbor op:greedy cvrp:nearest_neighbor mis:greedy mvc:greedy pfsp:neh jssp:spt"
for style in paper compact; do
  for pm in $methods; do
    problem=${pm%%:*} method=${pm#*:}
    n=10; [ "$problem" = jssp ] && n=4
    "$solve" --problem "$problem" --generate "n=$n,count=1,seed=3" --text-style "$style" --prompt --format json >> "$work/prompts.jsonl"
    "$solve" --problem "$problem" --generate "n=$n,count=1,seed=3" --text-style "$style" --method "$method" --format json >> "$work/solutions.jsonl"
  done
done
"$solve" --problem tsp --generate "n=100,count=1,seed=5" --prompt --format json >> "$work/prompts.jsonl"  # a long input
python3 - "$work" > "$work/texts.json" <<'PY'
import json, sys
work = sys.argv[1]
texts = [json.loads(l)["prompt"] + "\n" for l in open(work + "/prompts.jsonl")]
texts += [json.loads(l)["solution"] for l in open(work + "/solutions.jsonl")]
texts += [
    "", " ", "  ", "\n", "\n\n\n", "\t", " \t \n ", "a  b   c    d", "trailing   ", "   leading",
    "line\r\nbreaks\rand\n\nmore", "1", "12", "123", "1234", "12345678901234567890", " 42", "x1y22z333",
    "3.14159 -2.5e10 1,000,000", "I'm you're we've they'll she'd it's DON'T I'M", "'s 's 'S",
    "<|im_start|>user\nSolve it<|im_end|>\n<|im_start|>assistant\n", "a<|endoftext|>b", "<|im_end|><|im_end|>",
    "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>", "<|not_a_token|>", "<think>\nok\n</think>",
    "Route: [0, 4, 6, 5, 7, 1, 2, 3], Objective: 3.02", "((()))[[]]{}!!??...,,;;", "tab\there", "naïve café résumé",
    "cafe\u0301 A\u030a \u1e9b\u0323", "日本語のテキスト", "中文，标点。", "한국어 텍스트", "Ελληνικά κείμενο", "Русский текст",
    "עברית", "العربية", "हिन्दी", "ไทย", "emoji 🤖🚀 👩‍👩‍👧", "\u00a0nbsp\u2003em\u3000ideographic",
]
print(json.dumps(texts))
PY
node "$here/reference.js" "$root/.tokenizers" "$work/texts.json" > "$here/fixture.json"
echo "make_fixture: $here/fixture.json ($(du -h "$here/fixture.json" | cut -f1))"
