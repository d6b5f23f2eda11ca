#pragma once
// SentencePiece tokenizer in plain C++: loads any BPE or unigram `tokenizer.model` and encodes
// exactly as libsentencepiece does (same ids), without linking it. libsentencepiece carries its
// own exported copy of protobuf, which crashes any process that also loads LibTorch, so the
// model file is read with a small wire-format reader instead. Training a tokenizer needs the
// real library: falcon/tokenizer_training (falcon_text_train, never linked with LibTorch).
//
// Supported normalisation: none (identity: our trained models, Llama-style models), with the
// NormalizerSpec flags add_dummy_prefix, remove_extra_whitespaces, escape_whitespaces. Models
// that need a precompiled (NFKC) character map are rejected at load with a clear error.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace falcon::text {

// The trainer ends every prompt with this before the solution text; tokenizers are trained on
// the same text (corpus_texts in falcon/tokenizer_training/corpus.h).
inline constexpr std::string_view kPromptEnd = "\n";

class Tokenizer {
 public:
  // Throws falcon::Error naming `path` when the file is missing, not a SentencePiece model,
  // truncated or malformed, or needs a normalisation this class does not implement.
  static Tokenizer load(const std::string& path);
  // The same from the bytes of a model file; `origin` names it in errors.
  static Tokenizer from_bytes(std::string_view bytes, const std::string& origin);

  Tokenizer(const Tokenizer&) = default;  // shares the immutable model
  Tokenizer& operator=(const Tokenizer&) = default;
  Tokenizer(Tokenizer&&) noexcept;
  Tokenizer& operator=(Tokenizer&&) noexcept;
  ~Tokenizer();

  // SentencePieceProcessor::Encode: the same ids for every input, including invalid UTF-8 (each
  // bad byte reads as U+FFFD) and text outside the vocabulary (byte pieces with byte fallback,
  // else one <unk> per run). Thread-safe.
  std::vector<int> encode(std::string_view text) const;
  // Concatenates the tokens' text: U+2581 -> ' ', byte pieces -> their raw byte (invalid UTF-8
  // stays as it is, where SentencePiece would print U+FFFD), control tokens -> "", <unk> -> the
  // model's unk surface (" \u2047 "). Strips the dummy-prefix space of the first token when the
  // model adds one. decode(encode(x)) == x for valid UTF-8 x without U+2581 (read as a space),
  // unless the model removes whitespace or puts its dummy space at the end.
  std::string decode(const std::vector<int>& ids) const;

  int vocab_size() const;
  // piece, token_bytes, is_special and decode throw falcon::Error for ids outside [0, vocab_size()).
  const std::string& piece(int id) const;  // SentencePiece's own spelling ("▁x", "<0x0A>")
  int id(std::string_view piece) const;    // the unknown piece's id when unknown
  // The exact bytes this token stands for: U+2581 -> ' ', <0xNN> -> that byte, control, unknown
  // and unused tokens -> "". Concatenating token_bytes over encode(x) gives x for valid UTF-8 x
  // without U+2581 when the model adds no dummy space and removes no whitespace (our models).
  const std::string& token_bytes(int id) const;
  bool is_special(int id) const;  // control (pad/bos/eos) or unknown

  // SentencePiece's: looked up by piece name (<pad>, <s>, </s>, <unk> unless the model renames
  // them); -1 when the model has none.
  int pad_id() const;
  int bos_id() const;
  int eos_id() const;
  int unk_id() const;
  const std::string& path() const;

 private:
  struct Impl;
  explicit Tokenizer(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

}  // namespace falcon::text
