#pragma once
// SentencePiece tokenizer (issue 4): load any tokenizer.model, or train one byte-exactly from
// the text of generated instances (prompts + formatted solutions).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace falcon::text {

class Tokenizer {
 public:
  // Throws falcon::Error naming `path` when the file is missing or not a SentencePiece model.
  static Tokenizer load(const std::string& path);

  Tokenizer(Tokenizer&&) noexcept;
  Tokenizer& operator=(Tokenizer&&) noexcept;
  ~Tokenizer();

  std::vector<int> encode(std::string_view text) const;
  std::string decode(const std::vector<int>& ids) const;

  int vocab_size() const;
  std::string piece(int id) const;        // SentencePiece's own spelling ("▁x", "<0x0A>")
  int id(std::string_view piece) const;   // unk_id() when unknown
  // The exact bytes this token stands for: U+2581 -> ' ', <0xNN> -> that byte, control and
  // unknown tokens -> "". Concatenating token_bytes over encode(x) gives x.
  const std::string& token_bytes(int id) const;
  bool is_special(int id) const;          // control (pad/bos/eos) or unknown

  int pad_id() const;
  int bos_id() const;
  int eos_id() const;
  int unk_id() const;
  const std::string& path() const { return path_; }

 private:
  Tokenizer() = default;
  std::unique_ptr<sentencepiece::SentencePieceProcessor> sp_;
  std::vector<std::string> bytes_;
  std::string path_;
};

enum class NumberHandling { kPlain, kSplitDigits };
NumberHandling number_handling_from_string(std::string_view name);  // "plain" | "split_digits"

struct TrainOptions {
  // Defaults by measurement (experiments/tokenizer_choice/results.md): plain BPE needs about
  // half the tokens of split digits; the vocabulary is an upper bound (training stops earlier
  // when the text has no more merges).
  int vocab_size = 2000;
  std::string model_type = "bpe";  // "bpe" | "unigram"
  NumberHandling numbers = NumberHandling::kPlain;
  int num_threads = 1;
};

// Trains on `texts` (kept byte-exact: identity normalisation, no dummy prefix, whitespace kept,
// byte fallback) and writes `<prefix>.model` and `<prefix>.vocab`. pad=0, unk=1, bos=2, eos=3.
void train_tokenizer(const std::vector<std::string>& texts, const std::string& prefix,
                     const TrainOptions& options = {});

// Training text of a dataset: for each problem, `instances_per_problem` generated instances
// (n = `n`, default 50 for mis and 20 otherwise), each labelled by the problem's first
// heuristic in the solver registry; yields prompt and format(solution) as separate texts.
struct CorpusOptions {
  std::vector<std::string> problems;  // empty = all registered problems
  int instances_per_problem = 8;
  int n = 0;                          // 0 = default size: 50 for mis, 20 otherwise
  std::uint64_t seed = 1;
};
struct CorpusText {
  std::string problem;
  std::string prompt;
  std::string solution;
};
std::vector<CorpusText> generate_corpus(const CorpusOptions& options);
std::vector<std::string> corpus_texts(const std::vector<CorpusText>& corpus);

}  // namespace falcon::text
