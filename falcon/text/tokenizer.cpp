#include "falcon/text/tokenizer.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <fstream>
#include <unordered_map>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/solvers/solver.h"

namespace falcon::text {
namespace {

const std::string kMetaSpace = "\xE2\x96\x81";  // U+2581

std::string piece_to_bytes(const sentencepiece::SentencePieceProcessor& sp, int id) {
  if (sp.IsControl(id) || sp.IsUnknown(id) || sp.IsUnused(id)) return "";
  const std::string& piece = sp.IdToPiece(id);
  if (sp.IsByte(id)) {  // "<0xNN>"
    if (piece.size() != 6 || piece.compare(0, 3, "<0x") != 0 || piece[5] != '>')
      throw Error("tokenizer: malformed byte piece '" + piece + "'");
    return std::string(1, static_cast<char>(std::stoi(piece.substr(3, 2), nullptr, 16)));
  }
  std::string out;
  for (std::size_t i = 0; i < piece.size();) {
    if (piece.compare(i, kMetaSpace.size(), kMetaSpace) == 0) {
      out += ' ';
      i += kMetaSpace.size();
    } else {
      out += piece[i++];
    }
  }
  return out;
}

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

}  // namespace

Tokenizer Tokenizer::load(const std::string& path) {
  if (!std::ifstream(path).good()) throw Error("tokenizer: cannot open '" + path + "'");
  Tokenizer t;
  t.path_ = path;
  t.sp_ = std::make_unique<sentencepiece::SentencePieceProcessor>();
  auto status = t.sp_->Load(path);
  if (!status.ok() || t.sp_->GetPieceSize() <= 0)
    throw Error("tokenizer: '" + path + "' is not a valid SentencePiece model: " + status.ToString());
  t.bytes_.reserve(t.sp_->GetPieceSize());
  for (int id = 0; id < t.sp_->GetPieceSize(); ++id) t.bytes_.push_back(piece_to_bytes(*t.sp_, id));
  return t;
}

Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&&) noexcept = default;
Tokenizer::~Tokenizer() = default;

std::vector<int> Tokenizer::encode(std::string_view text) const {
  std::vector<int> ids;
  auto status = sp_->Encode(absl::string_view(text.data(), text.size()), &ids);
  if (!status.ok()) throw Error("tokenizer: encode failed: " + status.ToString());
  return ids;
}

std::string Tokenizer::decode(const std::vector<int>& ids) const {
  for (int id : ids)
    if (id < 0 || id >= vocab_size()) throw Error("tokenizer: id " + std::to_string(id) + " out of range");
  std::string text;
  auto status = sp_->Decode(ids, &text);
  if (!status.ok()) throw Error("tokenizer: decode failed: " + status.ToString());
  return text;
}

int Tokenizer::vocab_size() const { return sp_->GetPieceSize(); }
std::string Tokenizer::piece(int id) const {
  if (id < 0 || id >= vocab_size()) throw Error("tokenizer: id " + std::to_string(id) + " out of range");
  return sp_->IdToPiece(id);
}
int Tokenizer::id(std::string_view piece) const {
  return sp_->PieceToId(absl::string_view(piece.data(), piece.size()));
}
const std::string& Tokenizer::token_bytes(int id) const {
  if (id < 0 || id >= vocab_size()) throw Error("tokenizer: id " + std::to_string(id) + " out of range");
  return bytes_[id];
}
bool Tokenizer::is_special(int id) const { return sp_->IsControl(id) || sp_->IsUnknown(id); }
int Tokenizer::pad_id() const { return sp_->pad_id(); }
int Tokenizer::bos_id() const { return sp_->bos_id(); }
int Tokenizer::eos_id() const { return sp_->eos_id(); }
int Tokenizer::unk_id() const { return sp_->unk_id(); }

NumberHandling number_handling_from_string(std::string_view name) {
  if (name == "plain") return NumberHandling::kPlain;
  if (name == "split_digits") return NumberHandling::kSplitDigits;
  throw Error("tokenizer: unknown number handling '" + std::string(name) + "' (plain, split_digits)");
}

void train_tokenizer(const std::vector<std::string>& texts, const std::string& prefix,
                     const TrainOptions& options) {
  if (texts.empty()) throw Error("tokenizer: no training text");
  if (options.model_type != "bpe" && options.model_type != "unigram")
    throw Error("tokenizer: model_type must be bpe or unigram, not '" + options.model_type + "'");
  std::size_t longest = 0;
  for (const auto& t : texts) longest = std::max(longest, t.size());
  std::unordered_map<std::string, std::string> args = {
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
  VectorIterator it(texts);
  auto status = sentencepiece::SentencePieceTrainer::Train(args, &it);
  if (!status.ok()) throw Error("tokenizer: training '" + prefix + "' failed: " + status.ToString());
}

std::vector<CorpusText> generate_corpus(const CorpusOptions& options) {
  std::vector<std::string> names = options.problems;
  if (names.empty())
    for (auto name : problems::problem_names()) names.emplace_back(name);
  std::vector<CorpusText> out;
  for (const auto& name : names) {
    const problems::Problem& problem = problems::problem_by_name(name);
    const solvers::SolverEntry* heuristic = nullptr;
    for (const auto* entry : solvers::solvers_for(name))
      if (entry->method != "reference") {
        heuristic = entry;
        break;
      }
    if (heuristic == nullptr) throw Error("tokenizer corpus: no heuristic for " + name);
    problems::GenerateOptions gen;
    gen.n = options.n > 0 ? options.n : (name == "mis" ? 50 : 20);
    for (int k = 0; k < options.instances_per_problem; ++k) {
      auto instance = problem.generate(gen, options.seed + static_cast<std::uint64_t>(k));
      solvers::SolveOptions solve;
      solve.seed = options.seed + static_cast<std::uint64_t>(k);
      auto solution = heuristic->solve(*instance, solve);
      out.push_back({name, problem.prompt(*instance), problem.format(*instance, solution)});
    }
  }
  return out;
}

std::vector<std::string> corpus_texts(const std::vector<CorpusText>& corpus) {
  std::vector<std::string> texts;
  for (const auto& c : corpus) {
    texts.push_back(c.prompt);
    texts.push_back(c.solution);
  }
  return texts;
}

}  // namespace falcon::text
