// falcon::text::Tokenizer (plain C++) against libsentencepiece itself: the same ids for every
// input, on models trained by train_tokenizer and on Llama-style / whitespace-removing / unigram
// / user-defined-symbol models trained here with SentencePiece's own options.
#include <gtest/gtest.h>
#include <sentencepiece_processor.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <tuple>

#include <unistd.h>

#include "falcon/core/error.h"
#include "falcon/text/tokenizer.h"
#include "falcon/text/wire_reader.h"
#include "tests/text/spm_model_writer.h"
#include "falcon/tokenizer_training/corpus.h"
#include "falcon/tokenizer_training/train.h"

namespace falcon::text {
namespace {

namespace fs = std::filesystem;
using testing::put_field;

// SentencePieceProcessor::SetVocabulary also retypes byte pieces (NORMAL or UNUSED), which makes
// its serialised model unloadable with byte fallback on; this types every "<0xNN>" BYTE again.
std::string restore_byte_pieces(std::string_view model) {
  std::string out;
  WireReader reader(model);
  while (auto f = reader.next()) {
    if (f->number != 1) {
      put_field(out, *f);
      continue;
    }
    std::string piece, message;
    std::uint64_t type = 1;  // NORMAL unless given
    WireReader fields(f->bytes);
    while (auto g = fields.next()) {
      if (g->number == 1) piece = std::string(g->bytes);
      if (g->number == 3) type = g->value;
      else put_field(message, *g);
    }
    if (piece.size() == 6 && piece.compare(0, 3, "<0x") == 0) type = 6;
    put_field(message, {3, WireType::kVarint, type, {}, 0, 0});
    WireField whole{1, WireType::kBytes, 0, message, 0, 0};
    put_field(out, whole);
  }
  return out;
}

// Strings to encode: held-out prompts and solutions, their fragments and mutations, random
// ASCII / digit / bracket text, random UTF-8 (multi-byte, U+2581, U+FFFD), raw invalid bytes,
// whitespace runs and the empty string.
std::vector<std::string> probe_strings(const std::vector<std::string>& corpus, std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  std::vector<std::string> out = {"", " ", "  ", "\n", "\t", " \n ", "   leading", "trailing   ", "a  b   c",
                                  "\xE2\x96\x81", "\xE2\x96\x81\xE2\x96\x81x", "\xEF\xBF\xBD", "\xFF", "\xC3",
                                  "\xE2\x82", "\xF0\x9F\x98\x80", "\xED\xA0\x80", "\xC0\xAF", "\xF4\x90\x80\x80",
                                  "<s>", "</s>", "<unk>", "<pad>", "<0x0A>", "Route: [0, 3, 1, 2], Objective: 4.12"};
  for (const auto& text : corpus) {
    out.push_back(text);
    const std::size_t a = uniform(text.size() + 1), b = uniform(text.size() + 1);
    out.push_back(text.substr(std::min(a, b), std::max(a, b) - std::min(a, b)));
    std::string mutated = text;  // a few random byte edits
    for (int k = 0; k < 3 && !mutated.empty(); ++k) mutated[uniform(mutated.size())] = static_cast<char>(rng());
    out.push_back(mutated);
    out.push_back("  " + text + "  ");
  }
  const std::string ascii = "0123456789[](), :.-abcdefghijklmnopqrstuvwxyzRSOJ\n\t";
  const std::vector<std::string> utf8 = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xE2\x96\x81", "\xEF\xBF\xBD",
                                         "\xD0\x96", "\xE4\xB8\xAD", " ", "1", "["};
  for (int k = 0; k < 3000; ++k) {
    std::string s;
    const std::size_t length = uniform(80);
    const int kind = k % 4;
    for (std::size_t i = 0; i < length; ++i) {
      if (kind == 0) s += ascii[uniform(ascii.size())];                          // ASCII soup
      if (kind == 1) s += "0123456789 ,[]"[uniform(14)];                           // numbers
      if (kind == 2) s += uniform(3) ? std::string(1, ascii[uniform(ascii.size())]) : utf8[uniform(utf8.size())];
      if (kind == 3) s += static_cast<char>(rng());                               // raw bytes
    }
    out.push_back(s);
  }
  for (int spaces = 1; spaces <= 6; ++spaces) out.push_back(std::string(spaces, ' ') + "x" + std::string(spaces, ' '));
  return out;
}

class ParityTest : public ::testing::Test {
 protected:
  struct Model {
    std::string name;
    fs::path path;
  };

  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("falcon_spm_parity_" + std::to_string(::getpid())));
    fs::create_directories(*dir_);
    CorpusOptions train;
    train.instances_per_problem = 6;
    const auto corpus = generate_corpus(train);
    const auto texts = corpus_texts(corpus);
    models_ = new std::vector<Model>;
    auto ours = [&](const std::string& name, int vocab, NumberHandling numbers, const std::string& type = "bpe") {
      TrainOptions options;
      options.vocab_size = vocab;
      options.numbers = numbers;
      options.model_type = type;
      train_tokenizer(texts, (*dir_ / name).string(), options);
      models_->push_back({name, *dir_ / (name + ".model")});
    };
    ours("plain_400", 400, NumberHandling::kPlain);
    ours("plain_2000", 2000, NumberHandling::kPlain);
    ours("split_500", 500, NumberHandling::kSplitDigits);
    ours("split_1000", 1000, NumberHandling::kSplitDigits);
    ours("unigram_500", 500, NumberHandling::kPlain, "unigram");
    ours("whole_2000", 2000, NumberHandling::kWhole);
    {  // the compact text style's tokenizer, on compact TSP text (the style other problems lack yet)
      CorpusOptions compact = train;
      compact.problems = {"tsp"};
      compact.style = formats::make_text_style("compact", 3, "test");
      TrainOptions options;
      options.vocab_size = 2400;
      options.numbers = NumberHandling::kWholeIds;
      train_tokenizer(corpus_texts(generate_corpus(compact)), (*dir_ / "whole_ids_2400").string(), options);
      models_->push_back({"whole_ids_2400", *dir_ / "whole_ids_2400.model"});
    }

    // SentencePiece's own options: Llama's normalisation, whitespace removal, no byte fallback,
    // user-defined symbols, whitespace as suffix, unigram with a dummy prefix.
    auto theirs = [&](const std::string& name, std::map<std::string, std::string> args) {
      args.insert({{"model_prefix", (*dir_ / name).string()}, {"vocab_size", "600"}, {"model_type", "bpe"},
                   {"character_coverage", "1.0"}, {"hard_vocab_limit", "false"}, {"num_threads", "1"},
                   {"minloglevel", "2"}});
      train_sentencepiece(texts, args);
      models_->push_back({name, *dir_ / (name + ".model")});
    };
    theirs("llama", {{"normalization_rule_name", "identity"}, {"add_dummy_prefix", "true"},
                     {"remove_extra_whitespaces", "false"}, {"byte_fallback", "true"}, {"split_digits", "true"},
                     {"allow_whitespace_only_pieces", "true"}, {"user_defined_symbols", "Objective:,<sep>"}});
    theirs("collapse_ws_no_fallback", {{"normalization_rule_name", "identity"}, {"add_dummy_prefix", "true"},
                                       {"remove_extra_whitespaces", "true"}, {"character_coverage", "0.98"}});
    theirs("suffix_ws", {{"normalization_rule_name", "identity"}, {"add_dummy_prefix", "true"},
                         {"remove_extra_whitespaces", "false"}, {"treat_whitespace_as_suffix", "true"},
                         {"byte_fallback", "true"}});
    theirs("unigram_llama", {{"model_type", "unigram"}, {"normalization_rule_name", "identity"},
                             {"add_dummy_prefix", "true"}, {"remove_extra_whitespaces", "false"},
                             {"byte_fallback", "true"}, {"user_defined_symbols", "Route:"}});

    CorpusOptions held_out;
    held_out.instances_per_problem = 2;
    held_out.seed = 1000;
    std::vector<CorpusText> unseen = generate_corpus(held_out);
    held_out.n = 10;
    for (auto& c : generate_corpus(held_out)) unseen.push_back(std::move(c));
    held_out.problems = {"tsp"};
    held_out.style = formats::make_text_style("compact", 4, "test");
    for (auto& c : generate_corpus(held_out)) unseen.push_back(std::move(c));
    probes_ = new std::vector<std::string>(probe_strings(corpus_texts(unseen), 7));
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
    delete models_;
    delete probes_;
  }

  // Every probe: the same ids as SentencePiece; decode round-trips wherever SentencePiece's does.
  static void expect_parity(const std::string& name, const sentencepiece::SentencePieceProcessor& sp,
                            const Tokenizer& ours) {
    int compared = 0, round_trips = 0;
    for (const std::string& text : *probes_) {
      std::vector<int> expected;
      ASSERT_TRUE(sp.Encode(text, &expected).ok());
      const std::vector<int> got = ours.encode(text);
      ASSERT_EQ(got, expected) << name << " on \"" << text << "\"";
      ++compared;
      std::string sp_text;
      ASSERT_TRUE(sp.Decode(expected, &sp_text).ok());
      if (sp_text == text) {
        EXPECT_EQ(ours.decode(got), text) << name << " on \"" << text << "\"";
        ++round_trips;
      }
    }
    EXPECT_GT(compared, 3000) << name;
    EXPECT_GT(round_trips, 0) << name;
  }

  static fs::path* dir_;
  static std::vector<Model>* models_;
  static std::vector<std::string>* probes_;
};
fs::path* ParityTest::dir_ = nullptr;
std::vector<ParityTest::Model>* ParityTest::models_ = nullptr;
std::vector<std::string>* ParityTest::probes_ = nullptr;

TEST_F(ParityTest, SameIdsAsSentencePieceOnEveryModel) {
  ASSERT_EQ(models_->size(), 11u);
  for (const auto& model : *models_) {
    sentencepiece::SentencePieceProcessor sp;
    ASSERT_TRUE(sp.Load(model.path.string()).ok()) << model.name;
    expect_parity(model.name, sp, Tokenizer::load(model.path.string()));
  }
}

TEST_F(ParityTest, SameVocabularyViewAsSentencePiece) {
  for (const auto& model : *models_) {
    sentencepiece::SentencePieceProcessor sp;
    ASSERT_TRUE(sp.Load(model.path.string()).ok());
    const Tokenizer ours = Tokenizer::load(model.path.string());
    ASSERT_EQ(ours.vocab_size(), sp.GetPieceSize()) << model.name;
    EXPECT_EQ(ours.pad_id(), sp.pad_id()) << model.name;
    EXPECT_EQ(ours.bos_id(), sp.bos_id()) << model.name;
    EXPECT_EQ(ours.eos_id(), sp.eos_id()) << model.name;
    EXPECT_EQ(ours.unk_id(), sp.unk_id()) << model.name;
    for (int id = 0; id < ours.vocab_size(); ++id) {
      EXPECT_EQ(ours.piece(id), sp.IdToPiece(id)) << model.name;
      EXPECT_EQ(ours.id(ours.piece(id)), sp.PieceToId(sp.IdToPiece(id))) << model.name;
      EXPECT_EQ(ours.is_special(id), sp.IsControl(id) || sp.IsUnknown(id)) << model.name;
    }
    EXPECT_EQ(ours.id("no such piece \x01"), sp.PieceToId("no such piece \x01"));
  }
}

// Our trained models keep text byte-exact: every valid UTF-8 probe without U+2581 (SentencePiece's
// own space symbol) decodes back to itself, and its tokens' bytes concatenate to it.
TEST_F(ParityTest, TrainedModelsRoundTripEveryValidUtf8Text) {
  for (const auto& model : *models_) {
    if (model.name.find("plain") != 0 && model.name.find("split") != 0) continue;
    const Tokenizer ours = Tokenizer::load(model.path.string());
    int valid = 0;
    for (const std::string& text : *probes_) {
      const auto ids = ours.encode(text);
      if (text.find("\xEF\xBF\xBD") == std::string::npos && ours.decode(ids).find("\xEF\xBF\xBD") != std::string::npos)
        continue;  // invalid UTF-8 read as U+FFFD, as SentencePiece does
      if (text.find("\xE2\x96\x81") != std::string::npos) continue;  // U+2581 reads as a space
      ++valid;
      EXPECT_EQ(ours.decode(ids), text) << model.name;
      std::string joined;
      for (int id : ids) joined += ours.token_bytes(id);
      EXPECT_EQ(joined, text) << model.name;
    }
    EXPECT_GT(valid, 1500) << model.name;
  }
}

// Decoding arbitrary id sequences (what a model may generate) gives SentencePiece's text, except
// that our byte tokens stay raw bytes where SentencePiece prints U+FFFD for invalid UTF-8.
TEST_F(ParityTest, DecodeMatchesSentencePieceOnValidUtf8) {
  std::mt19937 rng(3);
  for (const auto& model : *models_) {
    sentencepiece::SentencePieceProcessor sp;
    ASSERT_TRUE(sp.Load(model.path.string()).ok());
    const Tokenizer ours = Tokenizer::load(model.path.string());
    int compared = 0;
    for (int k = 0; k < 1000; ++k) {
      std::vector<int> ids(rng() % 12);
      for (int& id : ids) id = static_cast<int>(rng() % static_cast<unsigned>(ours.vocab_size()));
      std::string expected;
      ASSERT_TRUE(sp.Decode(ids, &expected).ok());
      const std::string got = ours.decode(ids);
      if (expected.find("\xEF\xBF\xBD") != std::string::npos) continue;  // invalid bytes: U+FFFD there
      EXPECT_EQ(got, expected) << model.name;
      ++compared;
    }
    EXPECT_GT(compared, 150) << model.name;
  }
}

// SentencePiece's vocabulary restriction marks pieces UNUSED: merges through them are split back.
TEST_F(ParityTest, UnusedPiecesAreResegmentedLikeSentencePiece) {
  for (const auto& model : *models_) {
    if (model.name.find("unigram") != std::string::npos) continue;
    sentencepiece::SentencePieceProcessor sp;
    ASSERT_TRUE(sp.Load(model.path.string()).ok());
    std::vector<std::string> keep;  // every third piece stays usable, and the byte pieces
    for (int id = 0; id < sp.GetPieceSize(); ++id)
      if (id % 3 == 0 || sp.IsByte(id)) keep.push_back(sp.IdToPiece(id));
    ASSERT_TRUE(sp.SetVocabulary(std::vector<absl::string_view>(keep.begin(), keep.end())).ok());
    const std::string bytes = restore_byte_pieces(sp.serialized_model_proto());
    const Tokenizer ours = Tokenizer::from_bytes(bytes, model.name + " (restricted)");
    int unused = 0;
    for (int id = 0; id < sp.GetPieceSize(); ++id) unused += sp.IsUnused(id) ? 1 : 0;
    ASSERT_GT(unused, 20) << model.name;
    sentencepiece::SentencePieceProcessor restricted;
    ASSERT_TRUE(restricted.LoadFromSerializedProto(bytes).ok());
    expect_parity(model.name + " restricted", restricted, ours);
  }
}

// A model that needs NFKC (SentencePiece's default rule) is refused with a clear error.
TEST_F(ParityTest, PrecompiledNormalisationIsRejected) {
  train_sentencepiece({"Route: [0, 1, 2], Objective: 3.00", "ｆｕｌｌ ｗｉｄｔｈ"},
                      {{"model_prefix", (*dir_ / "nfkc").string()}, {"vocab_size", "300"}, {"model_type", "bpe"},
                       {"hard_vocab_limit", "false"}, {"minloglevel", "2"}});
  const std::string path = (*dir_ / "nfkc.model").string();
  try {
    Tokenizer::load(path);
    FAIL() << "expected falcon::Error";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find("nmt_nfkc"), std::string::npos) << message;
  }
}

// numbers: whole — every integer 0..999 is one piece wherever it stands, so node 12 is the same id
// in the prompt's "12:(" and in the solution's ", 12"; longer numbers split into such pieces.
TEST_F(ParityTest, WholeNumbersAreOnePieceEverywhere) {
  const auto it = std::find_if(models_->begin(), models_->end(), [](const Model& m) { return m.name == "whole_2000"; });
  ASSERT_NE(it, models_->end());
  const Tokenizer tok = Tokenizer::load(it->path.string());
  for (int v : {0, 7, 12, 99, 500, 873, 999}) {
    const std::string number = std::to_string(v);
    const std::vector<int> alone = tok.encode(number);
    ASSERT_EQ(alone.size(), 1u) << number;
    for (const std::string& text : {"TSP n=20: " + number + ":(" + number + "," + number + ")",
                                    "Route: [" + number + ", " + number + "], Objective: " + number + ".5"}) {
      const std::vector<int> ids = tok.encode(text);
      EXPECT_EQ(std::count(ids.begin(), ids.end(), alone[0]), 3) << text;
    }
  }
  EXPECT_EQ(tok.encode("1234").size(), 2u);  // "123" "4"
  EXPECT_EQ(tok.decode(tok.encode("Route: [0, 873, 12]")), "Route: [0, 873, 12]");
}

// numbers: whole_ids — IDs "#k" are pieces of their own, never the number k's piece, in the prompt's
// clauses and candidate lists and in the solution alike.
TEST_F(ParityTest, CompactIdsAreOnePieceApartFromNumbers) {
  const auto it = std::find_if(models_->begin(), models_->end(), [](const Model& m) { return m.name == "whole_ids_2400"; });
  ASSERT_NE(it, models_->end());
  const Tokenizer tok = Tokenizer::load(it->path.string());
  for (int v : {0, 7, 12, 99, 999}) {
    const std::string number = std::to_string(v), id = "#" + number;
    const std::vector<int> id_piece = tok.encode(id), number_piece = tok.encode(number);
    ASSERT_EQ(id_piece.size(), 1u) << id;
    ASSERT_EQ(number_piece.size(), 1u) << number;
    EXPECT_NE(id_piece[0], number_piece[0]);
    const std::string prompt = "TSP:" + id + " " + number + " " + number + ":" + id + "#1" + id + ";";
    const std::string solution = "Route: [" + id + ", #1, " + id + "], Objective: " + number + ".5";
    for (const auto& [text, ids_in_text, numbers_in_text] : {std::tuple{prompt, 3, 2}, std::tuple{solution, 2, 1}}) {
      const std::vector<int> ids = tok.encode(text);
      EXPECT_EQ(std::count(ids.begin(), ids.end(), id_piece[0]), ids_in_text) << text;
      EXPECT_EQ(std::count(ids.begin(), ids.end(), number_piece[0]), numbers_in_text) << text;
      EXPECT_EQ(tok.decode(ids), text);
    }
  }
}

}  // namespace
}  // namespace falcon::text
