// Hugging Face `tokenizer.json` (byte-level BPE) behind text::Tokenizer: reads the file's
// components, refuses the ones hf_bpe.h does not reproduce, and names bos / eos / pad / unk from
// tokenizer_config.json.
#include <nlohmann/json.hpp>

#include "falcon/core/error.h"
#include "falcon/text/hf_bpe.h"
#include "falcon/text/tokenizer_impl.h"

namespace falcon::text {
namespace {

using nlohmann::json;

// GPT-2's split, which ByteLevel applies when its use_regex is on.
constexpr std::string_view kGpt2Split = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

class Reader {
 public:
  explicit Reader(const std::string& origin) : prefix_("tokenizer: '" + origin + "': ") {}
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error(prefix_ + where + " " + what);
  }
  const json& member(const json& object, const char* key, const std::string& where) const {
    if (!object.is_object() || !object.contains(key)) fail(where, std::string("has no '") + key + "'");
    return object.at(key);
  }
  std::string type_of(const json& component, const std::string& where) const {
    const json& type = member(component, "type", where);
    if (!type.is_string()) fail(where + ".type", "is not a string");
    return type.get<std::string>();
  }
  bool flag(const json& object, const char* key, bool fallback, const std::string& where) const {
    if (!object.contains(key) || object.at(key).is_null()) return fallback;
    if (!object.at(key).is_boolean()) fail(where + "." + key, "is not true or false");
    return object.at(key).get<bool>();
  }

 private:
  std::string prefix_;
};

void read_model(const Reader& r, const json& model, HfBpeSpec& spec) {
  const std::string type = model.contains("type") ? r.type_of(model, "model") : "BPE";
  if (type != "BPE")
    r.fail("model", "is " + type + "; falcon reads byte-level BPE tokenizer.json files (Qwen2, Llama-3, GPT-2); "
                    "for a SentencePiece model use its tokenizer.model");
  if (r.flag(model, "byte_fallback", false, "model"))
    r.fail("model", "uses byte_fallback (SentencePiece-style BPE); use the model's tokenizer.model instead");
  if (model.contains("dropout") && !model.at("dropout").is_null() && model.at("dropout") != 0)
    r.fail("model.dropout", "is set: BPE dropout is for training, not for a reference encoding");
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"})
    if (model.contains(key) && model.at(key).is_string() && !model.at(key).get<std::string>().empty())
      r.fail(std::string("model.") + key, "is not empty, which byte-level BPE never uses");
  spec.ignore_merges = r.flag(model, "ignore_merges", false, "model");
  const json& vocab = r.member(model, "vocab", "model");
  if (!vocab.is_object()) r.fail("model.vocab", "is not an object of token -> id");
  spec.vocab.reserve(vocab.size());
  for (const auto& [token, id] : vocab.items()) {
    if (!id.is_number_integer()) r.fail("model.vocab['" + token + "']", "is not an integer id");
    spec.vocab.emplace_back(token, id.get<int>());
  }
  const json& merges = r.member(model, "merges", "model");
  if (!merges.is_array()) r.fail("model.merges", "is not an array");
  spec.merges.reserve(merges.size());
  for (std::size_t k = 0; k < merges.size(); ++k) {
    const json& m = merges[k];
    const std::string where = "model.merges[" + std::to_string(k) + "]";
    if (m.is_string()) {  // "left right"
      const std::string text = m.get<std::string>();
      const auto space = text.find(' ');
      if (space == std::string::npos || space == 0 || space + 1 == text.size()) r.fail(where, "is not 'left right'");
      spec.merges.emplace_back(text.substr(0, space), text.substr(space + 1));
    } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {  // ["left", "right"]
      spec.merges.emplace_back(m[0].get<std::string>(), m[1].get<std::string>());
    } else {
      r.fail(where, "is neither 'left right' nor [left, right]");
    }
  }
}

void read_normalizer(const Reader& r, const json& normalizer, const std::string& where, HfBpeSpec& spec) {
  if (normalizer.is_null()) return;
  const std::string type = r.type_of(normalizer, where);
  if (type == "NFC") {
    spec.nfc = true;
  } else if (type == "Sequence") {
    const json& items = r.member(normalizer, "normalizers", where);
    for (std::size_t k = 0; k < items.size(); ++k)
      read_normalizer(r, items[k], where + ".normalizers[" + std::to_string(k) + "]", spec);
  } else {
    r.fail(where, "is " + type + "; falcon implements the NFC normalizer only");
  }
}

void read_byte_level(const Reader& r, const json& byte_level, const std::string& where, bool split_before,
                     HfBpeSpec& spec) {
  if (r.flag(byte_level, "add_prefix_space", true, where))
    r.fail(where + ".add_prefix_space", "is true, which falcon does not implement (Qwen and Llama-3 set it false)");
  if (r.flag(byte_level, "use_regex", true, where)) {
    if (split_before) r.fail(where + ".use_regex", "is true after a Split, which falcon does not implement");
    spec.split_regex = kGpt2Split;
  }
}

void read_pre_tokenizer(const Reader& r, const json& pre, HfBpeSpec& spec) {
  const std::string where = "pre_tokenizer";
  const std::string type = r.type_of(pre, where);
  if (type == "ByteLevel") return read_byte_level(r, pre, where, false, spec);
  if (type != "Sequence") r.fail(where, "is " + type + "; falcon implements ByteLevel, or Split then ByteLevel");
  const json& items = r.member(pre, "pretokenizers", where);
  const auto item = [&](std::size_t k) { return where + ".pretokenizers[" + std::to_string(k) + "]"; };
  if (!items.is_array() || items.size() != 2 || r.type_of(items[0], item(0)) != "Split" ||
      r.type_of(items[1], item(1)) != "ByteLevel")
    r.fail(where, "is a Sequence other than [Split, ByteLevel], which falcon does not implement");
  const json& split = items[0];
  const json& pattern = r.member(split, "pattern", item(0));
  if (!pattern.is_object() || !pattern.contains("Regex") || !pattern.at("Regex").is_string())
    r.fail(item(0) + ".pattern", "is not {\"Regex\": ...}");
  if (split.value("behavior", std::string()) != "Isolated" || r.flag(split, "invert", false, item(0)))
    r.fail(item(0), "is not behavior: Isolated without invert, which falcon does not implement");
  spec.split_regex = pattern.at("Regex").get<std::string>();
  read_byte_level(r, items[1], item(1), true, spec);
}

void read_added(const Reader& r, const json& added, HfBpeSpec& spec) {
  if (added.is_null()) return;
  if (!added.is_array()) r.fail("added_tokens", "is not an array");
  for (std::size_t k = 0; k < added.size(); ++k) {
    const std::string where = "added_tokens[" + std::to_string(k) + "]";
    const json& a = added[k];
    const json& id = r.member(a, "id", where);
    const json& content = r.member(a, "content", where);
    if (!id.is_number_integer() || !content.is_string()) r.fail(where, "needs an integer id and a string content");
    if (r.flag(a, "single_word", false, where)) r.fail(where + ".single_word", "is true, which falcon does not implement");
    spec.added.push_back({id.get<int>(), content.get<std::string>(), r.flag(a, "special", false, where),
                          r.flag(a, "lstrip", false, where), r.flag(a, "rstrip", false, where)});
  }
}

// tokenizer_config.json names its special tokens as a string, {"content": ...} or null.
std::string config_token(const Reader& r, const json& config, const char* key) {
  if (!config.contains(key) || config.at(key).is_null()) return "";
  const json& v = config.at(key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("content") && v.at("content").is_string()) return v.at("content").get<std::string>();
  r.fail(std::string("tokenizer_config.json's ") + key, "is neither a string nor {\"content\": ...}");
}

class HfTokenizer final : public Tokenizer::Impl {
 public:
  HfTokenizer(const HfBpeSpec& spec, const std::string& origin) : bpe_(spec, origin) { path = origin; }

  std::vector<int> encode(std::string_view text) const override { return bpe_.encode(text); }
  std::string decode(const std::vector<int>& ids) const override {
    std::string text;
    for (const int id : ids) text += bpe_.bytes(id);
    return text;
  }
  int vocab_size() const override { return bpe_.size(); }
  const std::string& piece(int id) const override { return bpe_.spelling(id); }
  int id(std::string_view piece) const override {
    const int found = bpe_.find(piece);
    return found < 0 ? unk : found;
  }
  const std::string& token_bytes(int id) const override { return bpe_.bytes(id); }
  bool is_special(int id) const override { return bpe_.special(id); }

  void name_specials(const Reader& r, const json& config) {
    auto lookup = [&](const char* key) {
      const std::string token = config_token(r, config, key);
      if (token.empty()) return -1;
      const int found = bpe_.find(token);
      if (found < 0) r.fail(std::string("tokenizer_config.json's ") + key, "'" + token + "' is not a token of tokenizer.json");
      return found;
    };
    bos = lookup("bos_token");
    eos = lookup("eos_token");
    pad = lookup("pad_token");
    unk = lookup("unk_token");
  }

 private:
  ByteLevelBpe bpe_;
};

json parse(const Reader& r, std::string_view text, const std::string& what) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    r.fail(what, std::string("is not valid JSON: ") + e.what());
  }
}

std::shared_ptr<const Tokenizer::Impl> read_tokenizer(const Reader& r, std::string_view tokenizer_json,
                                                      std::string_view config_json, const std::string& origin) {
  const json file = parse(r, tokenizer_json, "the file");
  if (!file.is_object()) r.fail("the file", "is not a JSON object (a tokenizer.json)");
  HfBpeSpec spec;
  read_model(r, r.member(file, "model", "the file"), spec);
  read_normalizer(r, file.value("normalizer", json()), "normalizer", spec);
  read_pre_tokenizer(r, r.member(file, "pre_tokenizer", "the file"), spec);
  read_added(r, file.value("added_tokens", json()), spec);
  auto tokenizer = std::make_shared<HfTokenizer>(spec, origin);
  if (!config_json.empty()) {
    const json config = parse(r, config_json, "tokenizer_config.json");
    if (!config.is_object()) r.fail("tokenizer_config.json", "is not a JSON object");
    tokenizer->name_specials(r, config);
  }
  return tokenizer;
}

}  // namespace

std::shared_ptr<const Tokenizer::Impl> make_hf_tokenizer(std::string_view tokenizer_json, std::string_view config_json,
                                                         const std::string& origin) {
  const Reader r(origin);
  try {
    return read_tokenizer(r, tokenizer_json, config_json, origin);
  } catch (const json::exception& e) {  // a member of the wrong JSON type somewhere
    r.fail("the file", std::string("is malformed: ") + e.what());
  }
}

}  // namespace falcon::text
