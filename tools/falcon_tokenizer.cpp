// falcon_tokenizer: train a SentencePiece tokenizer on the text the model will read, or show how
// a model tokenizes a text. Links libsentencepiece (training), so it must never link LibTorch:
// the trainer runs this program to make its tokenizer.
//
//   falcon_tokenizer train --dataset data/tsp.h5 --dataset data/cvrp.h5 --out runs/tok/tokenizer
//   falcon_tokenizer train --generate count=64,seed=1 --problem tsp,cvrp --out tok --vocab 2000
//   falcon_tokenizer encode tok.model "Route: [0, 3, 1, 2], Objective: 4.12"
//
// train prints one JSON line: model, vocab_size, texts, bytes, tokens, bytes_per_token, seconds.
// encode prints one JSON line: tokens, ids, pieces. Errors: one line on stderr, exit code 1.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "falcon/core/error.h"
#include "falcon/core/key_values.h"
#include "falcon/text/tokenizer.h"
#include "falcon/tokenizer_training/corpus.h"
#include "falcon/tokenizer_training/train.h"

namespace {

using falcon::Error;
using json = nlohmann::ordered_json;

struct TrainArgs {
  std::vector<std::string> datasets;
  std::string split = "train";
  std::int64_t limit = 0;
  std::string generate;
  std::vector<std::string> problems;
  std::string out;
  int vocab = 2000;
  std::string numbers = "plain";
  std::string model_type = "bpe";
  int threads = 1;
  std::string text_style = "paper";
  int candidates = 0;
  std::vector<std::string> problem_styles;  // PROBLEM=STYLE[:CANDIDATES]: a problem written otherwise
};

// The text the corpus is written in: --text-style / --candidates, and each --problem-style.
falcon::formats::TextStyle text_style_of(const TrainArgs& args) {
  auto style = falcon::formats::make_text_style(args.text_style, args.candidates, "--text-style");
  for (const auto& spec : args.problem_styles) {
    const std::string where = "--problem-style " + spec;
    const auto equals = spec.find('=');
    if (equals == std::string::npos || equals == 0)
      throw Error(where + ": give PROBLEM=STYLE or PROBLEM=STYLE:CANDIDATES (e.g. op=compact_ranked:4)");
    const auto colon = spec.find(':', equals);
    const std::string name = spec.substr(equals + 1, colon == std::string::npos ? std::string::npos : colon - equals - 1);
    int candidates = args.candidates;
    if (colon != std::string::npos) {
      const std::string digits = spec.substr(colon + 1);
      if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos)
        throw Error(where + ": '" + digits + "' is not a candidate count");
      candidates = std::stoi(digits);
    }
    falcon::formats::set_problem_text_style(style, spec.substr(0, equals), name, candidates, where);
  }
  return style;
}

// `--generate count=8,n=20,seed=1`: keys of falcon::text::CorpusOptions.
falcon::text::CorpusOptions generate_options(const TrainArgs& args) {
  falcon::text::CorpusOptions options;
  options.problems = args.problems;
  options.style = text_style_of(args);
  for (const auto& [key, value] : falcon::parse_key_values(args.generate, "--generate")) {
    char* end = nullptr;
    const long long number = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || number < 0)
      throw Error("--generate: " + key + "=" + value + " is not a non-negative integer");
    if (key == "count")
      options.instances_per_problem = static_cast<int>(number);
    else if (key == "n")
      options.n = static_cast<int>(number);
    else if (key == "seed")
      options.seed = static_cast<std::uint64_t>(number);
    else
      throw Error("--generate: unknown key '" + key + "' (count, n, seed)");
  }
  return options;
}

int run_train(const TrainArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  if (args.datasets.empty() == args.generate.empty())
    throw Error("train: give --dataset FILE.h5 (one or more) or --generate count=..,n=..,seed=.., not both");
  if (args.out.empty()) throw Error("train: --out PREFIX is required (writes PREFIX.model and PREFIX.vocab)");
  std::vector<falcon::text::CorpusText> corpus;
  if (args.generate.empty()) {
    if (!args.problems.empty()) throw Error("train: --problem applies to --generate only");
    falcon::text::DatasetCorpusOptions options;
    options.split = args.split;
    options.limit = args.limit;
    options.style = text_style_of(args);
    for (const auto& path : args.datasets)
      for (auto& c : falcon::text::dataset_corpus(path, options)) corpus.push_back(std::move(c));
  } else {
    corpus = falcon::text::generate_corpus(generate_options(args));
  }
  const std::vector<std::string> texts = falcon::text::corpus_texts(corpus);
  if (texts.empty()) throw Error("train: the corpus is empty (no records in the split, or count=0)");

  falcon::text::TrainOptions options;
  options.vocab_size = args.vocab;
  options.numbers = falcon::text::number_handling_from_string(args.numbers);
  options.model_type = args.model_type;
  options.num_threads = args.threads;
  const auto parent = std::filesystem::path(args.out).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  falcon::text::train_tokenizer(texts, args.out, options);

  // Load it the way the trainer will (no libsentencepiece) and check it keeps every text exact.
  const auto tokenizer = falcon::text::Tokenizer::load(args.out + ".model");
  std::size_t bytes = 0, tokens = 0;
  for (const auto& text : texts) {
    const auto ids = tokenizer.encode(text);
    if (tokenizer.decode(ids) != text)
      throw Error("train: '" + args.out + ".model' does not reproduce the training text: " + text.substr(0, 80));
    bytes += text.size();
    tokens += ids.size();
  }
  json j;
  j["model"] = args.out + ".model";
  j["vocab_size"] = tokenizer.vocab_size();
  j["texts"] = texts.size();
  j["bytes"] = bytes;
  j["tokens"] = tokens;
  j["bytes_per_token"] = tokens ? static_cast<double>(bytes) / static_cast<double>(tokens) : 0.0;
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << j.dump() << "\n";
  return 0;
}

int run_encode(const std::string& model, const std::string& text) {
  const auto tokenizer = falcon::text::Tokenizer::load(model);
  const auto ids = tokenizer.encode(text);
  json pieces = json::array();
  for (int id : ids) pieces.push_back(tokenizer.piece(id));
  json j;
  j["tokens"] = ids.size();
  j["ids"] = ids;
  j["pieces"] = pieces;
  std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"falcon_tokenizer: train a SentencePiece tokenizer on prompts + solutions, or encode a text"};
  app.require_subcommand(1);
  TrainArgs train;
  auto* train_cmd = app.add_subcommand("train", "train PREFIX.model from datasets or generated instances");
  train_cmd->add_option("--dataset", train.datasets, "dataset file (falcon_datagen); repeat for several");
  train_cmd->add_option("--split", train.split, "split of the datasets to read (default train)");
  train_cmd->add_option("--limit", train.limit, "first N records of each dataset (default all)");
  train_cmd->add_option("--generate", train.generate, "generate instances instead: count=8,n=20,seed=1");
  train_cmd->add_option("--problem", train.problems, "with --generate: problems (default all)")->delimiter(',');
  train_cmd->add_option("--out", train.out, "output prefix: writes PREFIX.model and PREFIX.vocab");
  train_cmd->add_option("--vocab", train.vocab, "vocabulary size, an upper bound (default 2000)");
  train_cmd->add_option("--numbers", train.numbers,
                        "plain (default), split_digits, whole (each integer 0..999 one piece), or whole_ids "
                        "(whole, and each ID #0..#999 one piece: the compact text style's)");
  train_cmd->add_option("--text-style", train.text_style, "paper (default), compact, compact_echo, compact_state, compact_ranked or compact_insert: the text the model reads and writes");
  train_cmd->add_option("--candidates", train.candidates, "compact style: nearest-neighbour IDs per node clause (default 0)");
  train_cmd->add_option("--problem-style", train.problem_styles,
                        "PROBLEM=STYLE[:CANDIDATES]: that problem's text, for a model of several problems (repeat)");
  train_cmd->add_option("--model-type", train.model_type, "bpe (default) or unigram");
  train_cmd->add_option("--threads", train.threads, "training threads (default 1)");
  std::string model, text;
  auto* encode_cmd = app.add_subcommand("encode", "print the ids and pieces of TEXT");
  encode_cmd->add_option("model", model, "tokenizer.model")->required();
  encode_cmd->add_option("text", text, "text to encode")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (train_cmd->parsed()) return run_train(train);
    return run_encode(model, text);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "falcon_tokenizer: %s\n", e.what());
    return 1;
  }
}
