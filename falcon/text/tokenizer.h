#pragma once
// The two tokenizer files models come with, read in plain C++ with the reference's ids:
//
// - SentencePiece `tokenizer.model` (our trained models, Llama-2-style models): any BPE or
//   unigram model, encoded exactly as libsentencepiece does, without linking it.
//   libsentencepiece carries its own exported copy of protobuf, which crashes any process that
//   also loads LibTorch, so the file is read with a small wire-format reader instead. Training a
//   tokenizer needs the real library: falcon/tokenizer_training (falcon_tokenizer_training, never
//   linked with LibTorch). Supported normalisation: none (identity), with the NormalizerSpec
//   flags add_dummy_prefix, remove_extra_whitespaces, escape_whitespaces; a model that needs a
//   precompiled (NFKC) character map is rejected at load with a clear error.
// - Hugging Face `tokenizer.json` with a byte-level BPE model (Qwen2 / Qwen2.5 / Qwen3,
//   Llama-3, GPT-2): added tokens, NFC, the pre-tokenizer's split regex, merges by rank
//   (hf_bpe.h). The tokenizer_config.json beside it names bos / eos / pad. encode() adds no
//   special token (the Hugging Face `add_special_tokens=False`).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace falcon::text {

struct ChatTemplate;

// The trainer ends every prompt with this before the solution text; tokenizers are trained on
// the same text (corpus_texts in falcon/tokenizer_training/corpus.h).
inline constexpr std::string_view kPromptEnd = "\n";

// A model directory's tokenizer: tokenizer.model, else tokenizer.json when only that exists.
std::string tokenizer_file(const std::string& model_dir);
// Copies a tokenizer into a model directory under its format's name there: tokenizer.model, or
// tokenizer.json with the tokenizer_config.json beside it when there is one.
void copy_tokenizer(const std::string& tokenizer_path, const std::string& model_dir);

class Tokenizer {
 public:
  // A path ending in .json is read as a Hugging Face tokenizer.json (with tokenizer_config.json
  // from its folder when there is one), anything else as a SentencePiece model. Throws
  // falcon::Error naming `path` when the file is missing, truncated or malformed, or needs a
  // component (normalizer, pre-tokenizer, model type) this class does not implement.
  static Tokenizer load(const std::string& path);
  // The same from the bytes of a model file (JSON when it starts with '{'); `origin` names it.
  static Tokenizer from_bytes(std::string_view bytes, const std::string& origin);

  Tokenizer(const Tokenizer&) = default;  // shares the immutable model
  Tokenizer& operator=(const Tokenizer&) = default;
  Tokenizer(Tokenizer&&) noexcept;
  Tokenizer& operator=(Tokenizer&&) noexcept;
  ~Tokenizer();

  // SentencePieceProcessor::Encode: the same ids for every input, including invalid UTF-8 (each
  // bad byte reads as U+FFFD) and text outside the vocabulary (byte pieces with byte fallback,
  // else one <unk> per run). Hugging Face: the ids of `tokenizer.encode(text,
  // add_special_tokens=False)`, invalid UTF-8 read as U+FFFD. Thread-safe.
  std::vector<int> encode(std::string_view text) const;
  // Concatenates the tokens' text: U+2581 -> ' ', byte pieces -> their raw byte (invalid UTF-8
  // stays as it is, where SentencePiece would print U+FFFD), control tokens -> "", <unk> -> the
  // model's unk surface (" \u2047 "). Strips the dummy-prefix space of the first token when the
  // model adds one. decode(encode(x)) == x for valid UTF-8 x without U+2581 (read as a space),
  // unless the model removes whitespace or puts its dummy space at the end.
  std::string decode(const std::vector<int>& ids) const;

  int vocab_size() const;
  // piece, token_bytes, is_special and decode throw falcon::Error for ids outside [0, vocab_size()).
  const std::string& piece(int id) const;  // the file's own spelling ("▁x", "<0x0A>", "Ġx")
  int id(std::string_view piece) const;    // the unknown piece's id when unknown (-1 if none)
  // The exact bytes this token stands for: U+2581 -> ' ', <0xNN> -> that byte, control, unknown
  // and unused tokens -> "". Concatenating token_bytes over encode(x) gives x for valid UTF-8 x
  // without U+2581 when the model adds no dummy space and removes no whitespace (our models).
  // Hugging Face: the byte-level spelling mapped back to bytes ("Ġx" -> " x"), an added token's
  // text, "" for special added tokens and for ids the file leaves without a token.
  const std::string& token_bytes(int id) const;
  // Control (pad/bos/eos) or unknown; Hugging Face: special added tokens and unassigned ids.
  bool is_special(int id) const;

  // SentencePiece's: looked up by piece name (<pad>, <s>, </s>, <unk> unless the model renames
  // them); Hugging Face: tokenizer_config.json's bos_token, eos_token, pad_token, unk_token;
  // -1 when the model has none (Qwen has no BOS).
  int pad_id() const;
  int bos_id() const;
  int eos_id() const;  // the chat template's end token once one is set
  int unk_id() const;

  // A copy whose sequences follow the instruct format `name` (chat_template.h: none, chatml,
  // llama3): policy::prompt_tokens wraps prompts in it and its end token becomes eos_id(), so
  // training ends solutions with it and decoding stops at it. Like Hugging Face's tokenizers, the
  // tokenizer carries its chat template. Throws falcon::Error when the tokenizer lacks the
  // template's special tokens.
  Tokenizer with_chat_template(std::string_view name) const;
  const ChatTemplate& chat_template() const;  // "none" unless set
  const std::string& path() const;

  struct Impl;  // what each file format implements (tokenizer_impl.h)

 private:
  explicit Tokenizer(std::shared_ptr<const Impl> impl);
  void check_id(int id) const;
  std::shared_ptr<const Impl> impl_;
  const ChatTemplate* chat_ = nullptr;  // static storage (chat_template.cpp); nullptr = none
  int chat_end_ = -1;                   // the template's end token, -1 = the file's EOS
};

}  // namespace falcon::text
