#pragma once
// What a tokenizer format implements behind text::Tokenizer: SentencePiece `tokenizer.model`
// (spm_tokenizer.cpp) and Hugging Face byte-level BPE `tokenizer.json` (hf_tokenizer.cpp).
// Tokenizer checks ids before calling piece, token_bytes and is_special.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "falcon/text/tokenizer.h"

namespace falcon::text {

struct Tokenizer::Impl {
  virtual ~Impl() = default;
  virtual std::vector<int> encode(std::string_view text) const = 0;
  virtual std::string decode(const std::vector<int>& ids) const = 0;
  virtual int vocab_size() const = 0;
  virtual const std::string& piece(int id) const = 0;
  virtual int id(std::string_view piece) const = 0;
  virtual const std::string& token_bytes(int id) const = 0;
  virtual bool is_special(int id) const = 0;

  std::string path;
  int pad = -1, bos = -1, eos = -1, unk = -1;
};

std::shared_ptr<const Tokenizer::Impl> make_spm_tokenizer(std::string_view model_bytes, const std::string& origin);
// `config_json` is tokenizer_config.json's text (its bos / eos / pad / unk tokens), or empty.
std::shared_ptr<const Tokenizer::Impl> make_hf_tokenizer(std::string_view tokenizer_json, std::string_view config_json,
                                                         const std::string& origin);

}  // namespace falcon::text
