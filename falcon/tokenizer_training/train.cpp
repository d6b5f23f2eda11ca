#include "falcon/tokenizer_training/train.h"

#include <sentencepiece_trainer.h>

#include <algorithm>
#include <unordered_map>

#include "falcon/core/error.h"

namespace falcon::text {
namespace {

class VectorIterator : public sentencepiece::SentenceIterator {
 public:
  explicit VectorIterator(const std::vector<std::string>& texts) : texts_(texts) {}
  bool done() const override { return i_ >= texts_.size(); }
  void Next() override { ++i_; }
  const std::string& value() const override { return texts_[i_]; }
  sentencepiece::util::Status status() const override { return {}; }

 private:
  const std::vector<std::string>& texts_;
  std::size_t i_ = 0;
};

// "0,1,...,999" (and "#0,...,#999" with IDs): the user-defined symbols of kWhole / kWholeIds.
std::string whole_number_symbols(bool ids) {
  std::string out;
  for (int i = 0; i < 1000; ++i) out += (i ? "," : "") + std::to_string(i);
  if (ids)
    for (int i = 0; i < 1000; ++i) out += ",#" + std::to_string(i);
  return out;
}

}  // namespace

NumberHandling number_handling_from_string(std::string_view name) {
  if (name == "plain") return NumberHandling::kPlain;
  if (name == "split_digits") return NumberHandling::kSplitDigits;
  if (name == "whole") return NumberHandling::kWhole;
  if (name == "whole_ids") return NumberHandling::kWholeIds;
  throw Error("tokenizer: unknown number handling '" + std::string(name) + "' (plain, split_digits, whole, whole_ids)");
}

void train_tokenizer(const std::vector<std::string>& texts, const std::string& prefix,
                     const TrainOptions& options) {
  if (texts.empty()) throw Error("tokenizer: no training text");
  if (options.model_type != "bpe" && options.model_type != "unigram")
    throw Error("tokenizer: model_type must be bpe or unigram, not '" + options.model_type + "'");
  std::size_t longest = 0;
  for (const auto& t : texts) longest = std::max(longest, t.size());
  std::map<std::string, std::string> spm_options = {
      {"model_prefix", prefix},
      {"vocab_size", std::to_string(options.vocab_size)},
      {"model_type", options.model_type},
      {"split_digits", options.numbers == NumberHandling::kSplitDigits ? "true" : "false"},
      {"byte_fallback", "true"},
      {"character_coverage", "1.0"},
      {"normalization_rule_name", "identity"},
      {"add_dummy_prefix", "false"},
      {"remove_extra_whitespaces", "false"},
      {"allow_whitespace_only_pieces", "true"},
      {"max_sentence_length", std::to_string(std::max<std::size_t>(longest + 1, 4192))},
      {"hard_vocab_limit", "false"},
      {"pad_id", "0"},
      {"unk_id", "1"},
      {"bos_id", "2"},
      {"eos_id", "3"},
      {"num_threads", std::to_string(options.num_threads)},
      {"minloglevel", "2"},
  };
  if (options.numbers == NumberHandling::kWhole || options.numbers == NumberHandling::kWholeIds)
    spm_options["user_defined_symbols"] = whole_number_symbols(options.numbers == NumberHandling::kWholeIds);
  train_sentencepiece(texts, spm_options);
}

void train_sentencepiece(const std::vector<std::string>& texts, const std::map<std::string, std::string>& options) {
  if (texts.empty()) throw Error("tokenizer: no training text");
  const std::unordered_map<std::string, std::string> args(options.begin(), options.end());
  VectorIterator it(texts);
  auto status = sentencepiece::SentencePieceTrainer::Train(args, &it);
  const auto prefix = options.find("model_prefix");
  if (!status.ok())
    throw Error("tokenizer: training '" + (prefix == options.end() ? std::string("?") : prefix->second) +
                "' failed: " + status.ToString());
}

}  // namespace falcon::text
