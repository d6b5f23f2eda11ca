// The tokenizer inside a LibTorch program. libsentencepiece exports its own protobuf, and a
// process that loads it next to libtorch_cpu (which uses the system libprotobuf) crashes before
// main; falcon_text reads models without it, so this binary must start, load and encode.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <fstream>
#include <string>

#include "falcon/text/tokenizer.h"

namespace falcon::text {
namespace {

const std::string kFixture = std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model";

bool process_maps(const std::string& library) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(library) != std::string::npos) return true;
  return false;
}

TEST(TokenizerWithTorch, LibTorchIsLoadedAndLibSentencePieceIsNot) {
  EXPECT_TRUE(process_maps("libtorch_cpu")) << "this test is only meaningful in a LibTorch process";
  EXPECT_FALSE(process_maps("libsentencepiece")) << "a LibTorch program must not link falcon_tokenizer_training";
}

TEST(TokenizerWithTorch, EncodesIntoATensorAndDecodesBack) {
  const Tokenizer tok = Tokenizer::load(kFixture);
  const std::string prompt = "Route: [0, 3, 1, 2], Objective: 4.12\n";
  const std::vector<int> ids = tok.encode(prompt);
  // The ids libsentencepiece gives for the same model (tests/text/spm_model_test.cpp).
  EXPECT_EQ(std::vector<int>(ids.begin(), ids.begin() + 4), (std::vector<int>{348, 339, 355, 274}));
  std::vector<std::int64_t> ids64(ids.begin(), ids.end());
  const torch::Tensor tokens = torch::tensor(ids64, torch::kLong).unsqueeze(0);  // (1, T)
  ASSERT_EQ(tokens.size(1), static_cast<std::int64_t>(ids.size()));
  std::vector<int> back;
  for (std::int64_t t = 0; t < tokens.size(1); ++t) back.push_back(static_cast<int>(tokens[0][t].item<std::int64_t>()));
  EXPECT_EQ(tok.decode(back), prompt);
}

}  // namespace
}  // namespace falcon::text
