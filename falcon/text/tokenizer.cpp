#include "falcon/text/tokenizer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/text/chat_template.h"
#include "falcon/text/tokenizer_impl.h"

namespace falcon::text {
namespace {

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("tokenizer: cannot open '" + path + "'");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw Error("tokenizer: cannot read '" + path + "'");
  return bytes.str();
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string tokenizer_file(const std::string& model_dir) {
  const std::string spm = model_dir + "/tokenizer.model";
  const std::string hf = model_dir + "/tokenizer.json";
  return !std::filesystem::exists(spm) && std::filesystem::exists(hf) ? hf : spm;
}

void copy_tokenizer(const std::string& tokenizer_path, const std::string& model_dir) {
  namespace fs = std::filesystem;
  constexpr auto overwrite = fs::copy_options::overwrite_existing;
  if (!ends_with(tokenizer_path, ".json")) {
    fs::copy_file(tokenizer_path, model_dir + "/tokenizer.model", overwrite);
    return;
  }
  fs::copy_file(tokenizer_path, model_dir + "/tokenizer.json", overwrite);
  const fs::path config = fs::path(tokenizer_path).parent_path() / "tokenizer_config.json";
  if (fs::exists(config)) fs::copy_file(config, model_dir + "/tokenizer_config.json", overwrite);
}

Tokenizer::Tokenizer(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&&) noexcept = default;
Tokenizer::~Tokenizer() = default;

Tokenizer Tokenizer::load(const std::string& path) {
  const std::string bytes = read_whole(path);
  if (!ends_with(path, ".json")) return from_bytes(bytes, path);
  const std::string config = std::filesystem::path(path).parent_path() / "tokenizer_config.json";
  return Tokenizer(make_hf_tokenizer(bytes, std::filesystem::exists(config) ? read_whole(config) : "", path));
}

Tokenizer Tokenizer::from_bytes(std::string_view bytes, const std::string& origin) {
  const auto first = bytes.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && bytes[first] == '{') return Tokenizer(make_hf_tokenizer(bytes, "", origin));
  return Tokenizer(make_spm_tokenizer(bytes, origin));
}

std::vector<int> Tokenizer::encode(std::string_view text) const { return impl_->encode(text); }

std::string Tokenizer::decode(const std::vector<int>& ids) const {
  for (const int id : ids) check_id(id);
  return impl_->decode(ids);
}

int Tokenizer::vocab_size() const { return impl_->vocab_size(); }
const std::string& Tokenizer::piece(int id) const {
  check_id(id);
  return impl_->piece(id);
}
int Tokenizer::id(std::string_view piece) const { return impl_->id(piece); }
const std::string& Tokenizer::token_bytes(int id) const {
  check_id(id);
  return impl_->token_bytes(id);
}
bool Tokenizer::is_special(int id) const {
  check_id(id);
  return impl_->is_special(id);
}
int Tokenizer::pad_id() const { return impl_->pad; }
int Tokenizer::bos_id() const { return impl_->bos; }
int Tokenizer::eos_id() const { return chat_end_ >= 0 ? chat_end_ : impl_->eos; }
int Tokenizer::unk_id() const { return impl_->unk; }
const std::string& Tokenizer::path() const { return impl_->path; }

Tokenizer Tokenizer::with_chat_template(std::string_view name) const {
  const ChatTemplate& chat = text::chat_template(name, "tokenizer '" + path() + "'");
  Tokenizer out = *this;
  out.chat_ = &chat;
  out.chat_end_ = -1;
  if (chat.end_token.empty()) return out;
  for (const std::string& text : {chat.before, chat.after, chat.end_token}) {
    const auto ids = encode(text);
    if (std::none_of(ids.begin(), ids.end(), [&](int id) { return is_special(id); }))
      throw Error("tokenizer '" + path() + "': chat template " + chat.name + " needs its special tokens (" +
                  chat.end_token + ", ...), which this tokenizer does not have; use the model family's own tokenizer.json");
  }
  out.chat_end_ = id(chat.end_token);
  return out;
}

const ChatTemplate& Tokenizer::chat_template() const {
  return chat_ ? *chat_ : text::chat_template("none", "tokenizer");
}

void Tokenizer::check_id(int id) const {
  if (id < 0 || id >= impl_->vocab_size())
    throw Error("tokenizer: id " + std::to_string(id) + " out of range [0, " + std::to_string(impl_->vocab_size()) + ")");
}

}  // namespace falcon::text
