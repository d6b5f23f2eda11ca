#pragma once
// Training SentencePiece tokenizers with libsentencepiece (the one part of the tokenizer that
// needs it). libsentencepiece exports its own copy of protobuf, which crashes processes that also
// load LibTorch: programs with LibTorch must never link this library (falcon_tokenizer_training). They
// load the trained model with falcon/text/tokenizer.h, or run `falcon_tokenizer train`.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace falcon::text {

// plain: BPE may merge digits with punctuation ("4:(", "▁12,"), so one number is cut differently
// from place to place. split_digits: one piece per digit. whole: every integer 0..999 is one piece
// (user-defined symbols, matched longest first), never merged with its neighbours, so node 12 is
// the same piece in the prompt's "12:(" and the solution's ", 12" (experiments/tokenizer_learning).
// whole_ids: whole, and every ID #0..#999 of the compact text style one piece too, so an ID token
// never doubles as a number.
enum class NumberHandling { kPlain, kSplitDigits, kWhole, kWholeIds };
// "plain" | "split_digits" | "whole" | "whole_ids"
NumberHandling number_handling_from_string(std::string_view name);

struct TrainOptions {
  // Defaults by measurement (experiments/tokenizer_choice/results.md): plain BPE needs about
  // half the tokens of split digits; the vocabulary is an upper bound (training stops earlier
  // when the text has no more merges).
  int vocab_size = 2000;
  std::string model_type = "bpe";  // "bpe" | "unigram"
  NumberHandling numbers = NumberHandling::kPlain;
  int num_threads = 1;
};

// SentencePiece's trainer on `texts` with its own options (names as spm_train's flags, e.g.
// {"model_prefix", "out/tok"}, {"vocab_size", "2000"}, {"add_dummy_prefix", "true"}).
void train_sentencepiece(const std::vector<std::string>& texts, const std::map<std::string, std::string>& options);

// Trains on `texts` (kept byte-exact: identity normalisation, no dummy prefix, whitespace kept,
// byte fallback) and writes `<prefix>.model` and `<prefix>.vocab`. pad=0, unk=1, bos=2, eos=3.
void train_tokenizer(const std::vector<std::string>& texts, const std::string& prefix,
                     const TrainOptions& options = {});

}  // namespace falcon::text
