// Reference ids for fixture.json: the JavaScript port of the Hugging Face tokenizers
// (@lenml/tokenizers, from transformers.js) encodes every text with add_special_tokens false,
// for each family in .tokenizers/. Run by make_fixture.sh:
//   node reference.js TOKENIZERS_DIR texts.json > fixture.json
// Random texts are drawn here (seeded) and stored in the fixture with the others. They leave out
// the few characters where JavaScript's regex and Oniguruma's (the Rust library's) disagree:
// U+0085 and U+FEFF in \s, and the case folds of 's' and 'k' (U+017F, U+212A) in (?i:...).
const fs = require('fs');
const path = require('path');
const [dir, textsFile] = process.argv.slice(2);
const { TokenizerLoader } = require(path.resolve(dir, 'reference/dist/main.js'));

let state = 20261204;
const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
const blocks = [[0x20, 0x7e], [0xa0, 0x24f], [0x300, 0x36f], [0x370, 0x3ff], [0x400, 0x4ff], [0x590, 0x6ff],
                [0x900, 0x97f], [0xe00, 0xe7f], [0x2000, 0x206f], [0x3000, 0x30ff], [0x4e00, 0x4fff],
                [0xac00, 0xacff], [0x1f300, 0x1f64f], [0x9, 0xd]];
const excluded = new Set([0x85, 0xfeff, 0x17f, 0x212a]);
function randomText(length) {
  let out = '';
  while ([...out].length < length) {
    const [lo, hi] = blocks[Math.floor(random() * blocks.length)];
    const c = lo + Math.floor(random() * (hi - lo + 1));
    if (!excluded.has(c)) out += String.fromCodePoint(c);
  }
  return out;
}

const texts = JSON.parse(fs.readFileSync(textsFile, 'utf8'));
for (let k = 0; k < 40; ++k) texts.push(randomText(1 + Math.floor(random() * 60)));
texts.push(randomText(3000));
const fixture = { reference: '@lenml/tokenizers ' + require(path.resolve(dir, 'reference/package.json')).version, texts };
for (const family of ['qwen3', 'llama3']) {
  const read = (name) => JSON.parse(fs.readFileSync(path.join(dir, family, name), 'utf8'));
  const tokenizer = TokenizerLoader.fromPreTrained({ tokenizerJSON: read('tokenizer.json'), tokenizerConfig: read('tokenizer_config.json') });
  fixture[family] = texts.map((t) => tokenizer.encode(t, { add_special_tokens: false }));
}
process.stdout.write(JSON.stringify(fixture) + '\n');
