#pragma once
// The instruct formats a prompt can be wrapped in, so an instruct model reads what it was tuned
// on (the Hugging Face chat_template of each family, one user turn, then the assistant's header):
//
//   chatml (Qwen2 / Qwen2.5 / Qwen3): <|im_start|>user\n{prompt}<|im_end|>\n<|im_start|>assistant\n
//                                    {solution}<|im_end|>
//   llama3 (Llama-3 Instruct):        <|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n
//                                    {prompt}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n
//                                    {solution}<|eot_id|>
//   none:                             [BOS] {prompt}\n {solution} [EOS]   (our own models)
//
// The turn's end token ends the solution in training and stops decoding (Tokenizer's eos_id()
// once the template is set: Tokenizer::with_chat_template).
#include <string>
#include <string_view>
#include <vector>

namespace falcon::text {

struct ChatTemplate {
  std::string name;
  std::string before;     // the text before the prompt
  std::string after;      // the text between the prompt and the solution
  std::string end_token;  // ends the solution; "" = the tokenizer's EOS
  bool bos = true;        // the tokenizer's BOS (when it has one) starts the sequence
};

// Throws falcon::Error naming `where` and the known names when `name` is none of them.
const ChatTemplate& chat_template(std::string_view name, const std::string& where);
std::vector<std::string> chat_template_names();

}  // namespace falcon::text
