// The plain-C++ SentencePiece reader and encoder without libsentencepiece: a committed model
// (tests/fixtures/tokenizer/tiny_bpe.model, made by falcon_tokenizer), hand-made models whose
// segmentation is worked out by hand, and malformed / truncated / mutated model files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/text/normalizer.h"
#include "falcon/text/tokenizer.h"
#include "tests/text/spm_model_writer.h"

namespace falcon::text {
namespace {

using testing::put_bytes;
using testing::put_tag;
using testing::put_uint;
using testing::put_varint;
using testing::serialize_spm_model;
using testing::small_model;

const std::string kFixture = std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model";

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> pieces_of(const Tokenizer& tok, const std::string& text) {
  std::vector<std::string> out;
  for (int id : tok.encode(text)) out.push_back(tok.piece(id));
  return out;
}

Tokenizer make(const SpmModel& model) { return Tokenizer::from_bytes(serialize_spm_model(model), "hand-made"); }

// Expects one falcon::Error whose message names `origin` and contains `what`.
void expect_error(const std::string& bytes, const std::string& what) {
  try {
    Tokenizer::from_bytes(bytes, "bad.model");
    ADD_FAILURE() << "expected falcon::Error containing '" << what << "'";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'bad.model'"), std::string::npos) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
  }
}

TEST(SpmFixture, EncodesAsSentencePieceDid) {
  const Tokenizer tok = Tokenizer::load(kFixture);
  EXPECT_EQ(tok.vocab_size(), 400);
  EXPECT_EQ(tok.pad_id(), 0);
  EXPECT_EQ(tok.unk_id(), 1);
  EXPECT_EQ(tok.bos_id(), 2);
  EXPECT_EQ(tok.eos_id(), 3);
  // Ids printed by libsentencepiece 0.1.97 for the same model and texts.
  EXPECT_EQ(tok.encode("Route: [0, 3, 1, 2], Objective: 4.12"),
            (std::vector<int>{348, 339, 355, 274, 275, 284, 305, 300, 273, 299, 355, 282, 377, 354, 356}));
  EXPECT_EQ(tok.encode("caf\xC3\xA9 \xFF\n12"),
            (std::vector<int>{373, 394, 106, 199, 173, 351, 243, 195, 193, 376, 354, 356}));
  EXPECT_EQ(pieces_of(tok, "Route: [0, 3"), (std::vector<std::string>{"Rou", "te", ":", "\xE2\x96\x81[", "0,", "\xE2\x96\x81" "3"}));
  EXPECT_EQ(tok.decode(tok.encode("caf\xC3\xA9 \xFF\n12")), "caf\xC3\xA9 \xEF\xBF\xBD\n12");  // bad byte -> U+FFFD
  EXPECT_TRUE(tok.encode("").empty());
  EXPECT_EQ(tok.decode({}), "");
}

TEST(SpmFixture, CopiesShareTheModelAndMovesKeepIt) {
  Tokenizer a = Tokenizer::load(kFixture);
  const Tokenizer b = a;
  Tokenizer c = std::move(a);
  EXPECT_EQ(b.encode("Set: [1, 2]"), c.encode("Set: [1, 2]"));
  EXPECT_EQ(c.path(), kFixture);
}

TEST(SpmBpe, HighestScoreMergesFirstAndTiesGoLeft) {
  // "abc": ab and bc tie, the left one merges; "abc" itself is not a piece.
  EXPECT_EQ(pieces_of(make(small_model(ModelType::kBpe, {{"a", -5}, {"b", -5}, {"c", -5}, {"ab", -1}, {"bc", -1}})), "abc"),
            (std::vector<std::string>{"ab", "c"}));
  // A higher score wins wherever it is.
  EXPECT_EQ(pieces_of(make(small_model(ModelType::kBpe, {{"a", -5}, {"b", -5}, {"c", -5}, {"ab", -2}, {"bc", -1}})), "abc"),
            (std::vector<std::string>{"a", "bc"}));
  // Merges continue through longer pieces.
  EXPECT_EQ(pieces_of(make(small_model(ModelType::kBpe, {{"a", -5}, {"b", -5}, {"c", -5}, {"ab", -1}, {"abc", -3}})), "abcab"),
            (std::vector<std::string>{"abc", "ab"}));
}

TEST(SpmBpe, UnknownRunsAreOneUnkWithoutByteFallbackAndBytesWithIt) {
  SpmModel model = small_model(ModelType::kBpe, {{"a", -1}});
  const Tokenizer no_fallback = make(model);
  EXPECT_EQ(no_fallback.encode("axyza\xC3\xA9"), (std::vector<int>{4, 1, 4, 1}));
  EXPECT_EQ(no_fallback.decode({4, 1, 4}), "a \xE2\x81\x87 a");  // SentencePiece's unk surface
  model.byte_fallback = true;
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    model.pieces.push_back({name, 0, PieceType::kByte});
  }
  const Tokenizer fallback = make(model);
  const int x = fallback.id("<0x78>"), c3 = fallback.id("<0xC3>"), a9 = fallback.id("<0xA9>");
  EXPECT_EQ(fallback.encode("ax\xC3\xA9"), (std::vector<int>{4, x, c3, a9}));
  EXPECT_EQ(fallback.decode({4, x, c3, a9}), "ax\xC3\xA9");
  EXPECT_EQ(fallback.token_bytes(c3), "\xC3");
}

TEST(SpmBpe, UserDefinedSymbolsAreNeverSplitOrMerged) {
  SpmModel model = small_model(ModelType::kBpe, {{"a", -1}, {"b", -1}, {"ab", 0}, {"ba", 0}});
  model.pieces.push_back({"bab", 0, PieceType::kUserDefined});
  const Tokenizer tok = make(model);
  EXPECT_EQ(pieces_of(tok, "ababab"), (std::vector<std::string>{"a", "bab", "ab"}));
  EXPECT_EQ(pieces_of(tok, "aabab"), (std::vector<std::string>{"a", "a", "bab"}));
}

TEST(SpmBpe, UnusedPiecesAreSplitBackIntoTheirParts) {
  SpmModel model = small_model(ModelType::kBpe, {{"a", -3}, {"b", -3}, {"ab", -1}, {"abb", -2}});
  model.pieces[6].type = PieceType::kUnused;  // "ab": merged on the way to "abb", never emitted
  const Tokenizer tok = make(model);
  EXPECT_EQ(pieces_of(tok, "abb"), (std::vector<std::string>{"abb"}));
  EXPECT_EQ(pieces_of(tok, "ab"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(tok.token_bytes(6), "");  // unused: no bytes, as before
}

TEST(SpmUnigram, ViterbiMaximisesTheSumOfScores) {
  // "abc": a+bc = -1-1 = -2 beats ab+c = -1.5-1 = -2.5 and a+b+c = -3 and abc absent.
  const Tokenizer tok = make(small_model(ModelType::kUnigram, {{"a", -1}, {"b", -1}, {"c", -1}, {"ab", -1.5f}, {"bc", -1}}));
  EXPECT_EQ(pieces_of(tok, "abc"), (std::vector<std::string>{"a", "bc"}));
  EXPECT_EQ(tok.encode("axb"), (std::vector<int>{4, 1, 5}));  // x is unknown
}

TEST(SpmNormalizer, FlagsBehaveLikeSentencePiece) {
  const PrefixMatcher none;
  auto norm = [&](NormalizerOptions options, std::string_view text) { return Normalizer(options, &none).normalize(text); };
  const std::string s = "\xE2\x96\x81";
  NormalizerOptions identity;  // ours: no prefix, whitespace kept
  EXPECT_EQ(norm(identity, "  a  b "), s + s + "a" + s + s + "b" + s);
  NormalizerOptions llama;
  llama.add_dummy_prefix = true;
  EXPECT_EQ(norm(llama, " a"), s + s + "a");
  EXPECT_EQ(norm(llama, ""), "");
  NormalizerOptions collapse = llama;
  collapse.remove_extra_whitespaces = true;
  EXPECT_EQ(norm(collapse, "  a   b  "), s + "a" + s + "b");
  EXPECT_EQ(norm(collapse, "   "), "");
  EXPECT_EQ(norm(collapse, "a\t b"), s + "a\t" + s + "b");  // only ' ' counts as whitespace
  NormalizerOptions suffix = llama;
  suffix.treat_whitespace_as_suffix = true;
  EXPECT_EQ(norm(suffix, "a b"), "a" + s + "b" + s);
  NormalizerOptions raw;
  raw.escape_whitespaces = false;
  EXPECT_EQ(norm(raw, "a b"), "a b");
  // Malformed UTF-8: each bad byte becomes U+FFFD; a valid U+FFFD stays as it is.
  EXPECT_EQ(norm(identity, "\xFF\xC3(\xED\xA0\x80\xEF\xBF\xBD"),
            "\xEF\xBF\xBD\xEF\xBF\xBD(\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(SpmDecode, DummyPrefixIsStrippedOnce) {
  SpmModel model = small_model(ModelType::kBpe, {{"\xE2\x96\x81", -1}, {"a", -1}, {"\xE2\x96\x81" "a", 0}});
  model.add_dummy_prefix = true;
  const Tokenizer tok = make(model);
  for (const std::string text : {"a", " a", "  a a", "a "}) EXPECT_EQ(tok.decode(tok.encode(text)), text);
  EXPECT_EQ(tok.decode({tok.bos_id(), 6, 6}), "a a");  // control tokens produce nothing
}

TEST(SpmMalformed, EachDefectIsOneErrorNamingTheFile) {
  expect_error("", "empty");
  expect_error("this is not a protobuf \xFF\xFF", "");
  std::string truncated_varint;
  put_tag(truncated_varint, 1, 2);
  truncated_varint += '\x80';
  expect_error(truncated_varint, "truncated length");
  std::string past_end;
  put_tag(past_end, 1, 2);
  put_varint(past_end, 1000);
  past_end += "abc";
  expect_error(past_end, "runs past the end");
  std::string group;
  put_tag(group, 7, 3);
  expect_error(group, "unsupported wire type 3");
  std::string ten_bytes(11, '\xFF');
  expect_error("\x08" + ten_bytes, "longer than 10 bytes");
  auto piece_with = [](std::uint32_t number, std::uint64_t value) {  // one piece "a" + a varint field
    std::string piece, model;
    put_bytes(piece, 1, "a");
    put_uint(piece, number, value);
    put_bytes(model, 1, piece);
    return model;
  };
  expect_error(piece_with(2, 5), "pieces[0].score");  // a score must be fixed32
  expect_error(piece_with(3, 9), "pieces[0].type is 9");

  const SpmModel good = small_model(ModelType::kBpe, {{"a", -1}});
  SpmModel m = good;
  m.model_type = ModelType::kWord;
  expect_error(serialize_spm_model(m), "model type word is not supported");
  m = good;
  m.pieces[1].type = PieceType::kNormal;
  expect_error(serialize_spm_model(m), "no unknown piece");
  auto with_piece = [&](const SpmPiece& extra, const std::string& what) {
    SpmModel bad = good;
    bad.pieces.push_back(extra);
    expect_error(serialize_spm_model(bad), what);
  };
  with_piece({"<unk2>", 0, PieceType::kUnknown}, "second unknown piece");
  with_piece({"a", 0, PieceType::kNormal}, "'a' is already defined as piece 4");
  with_piece({"", 0, PieceType::kNormal}, "piece 5 is empty");
  with_piece({"<0x41>", 0, PieceType::kByte}, "byte_fallback is off");
  m = good;
  m.pieces.push_back({"<0x41>", 0, PieceType::kByte});
  m.byte_fallback = true;
  expect_error(serialize_spm_model(m), "byte piece 0 is missing");
  m.pieces.back().piece = "<0x4g>";
  expect_error(serialize_spm_model(m), "not spelled <0xNN>");
  m = good;
  m.normalizer_name = "nmt_nfkc";
  m.precompiled_charsmap_size = 100;
  expect_error(serialize_spm_model(m), "precompiled normalisation rule 'nmt_nfkc'");
  m = good;
  m.denormalizer_charsmap_size = 10;
  expect_error(serialize_spm_model(m), "denormalisation");
}

// Whatever the bytes, load() either gives a working tokenizer or one falcon::Error naming the
// file; it never crashes or reads out of bounds (tools/sanitize.sh runs this under ASan).
void load_or_error(const std::string& bytes, int& loaded, int& rejected) {
  try {
    const Tokenizer tok = Tokenizer::from_bytes(bytes, "fuzzed.model");
    for (const std::string text : {"", "Route: [0, 3, 1, 2]", "  x\n\xFF\xE2\x96\x81"}) {
      const auto ids = tok.encode(text);
      (void)tok.decode(ids);
      for (int id : ids) (void)tok.token_bytes(id);
    }
    ++loaded;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'fuzzed.model'"), std::string::npos) << e.what();
    ++rejected;
  }
}

TEST(SpmMalformed, TruncatedAndMutatedFilesNeverCrash) {
  const std::string good = read_bytes(kFixture);
  ASSERT_GT(good.size(), 1000u);
  int loaded = 0, rejected = 0;
  for (std::size_t length = 0; length < good.size(); length += 3) load_or_error(good.substr(0, length), loaded, rejected);
  EXPECT_GT(rejected, 1000);
  std::mt19937 rng(11);
  for (int k = 0; k < 3000; ++k) {
    std::string bytes = good;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    load_or_error(bytes, loaded, rejected);
  }
  for (int k = 0; k < 500; ++k) {
    std::string bytes(rng() % 64, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    load_or_error(bytes, loaded, rejected);
  }
  EXPECT_GT(loaded, 100);  // many single-byte edits only change a piece's text or score
}

}  // namespace
}  // namespace falcon::text
