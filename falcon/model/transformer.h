#pragma once
// A Llama-family decoder-only Transformer (RMSNorm, rotary embeddings in Hugging Face's
// rotate-half convention, SwiGLU, grouped-query attention, optional tied embeddings and q/k/v
// bias). Submodules carry Hugging Face's names, so named_parameters() are a HF checkpoint's keys:
//
//   model.embed_tokens.weight                       (V, H)
//   model.layers.{i}.input_layernorm.weight         (H,)
//   model.layers.{i}.self_attn.{q,k,v,o}_proj.weight  (+ .bias on q/k/v with attention_bias)
//   model.layers.{i}.post_attention_layernorm.weight
//   model.layers.{i}.mlp.{gate,up,down}_proj.weight
//   model.norm.weight
//   lm_head.weight                                  (V, H), absent when tie_word_embeddings
//
// plus, after add_lora(), "...q_proj.lora_A.weight" / "...lora_B.weight" (PEFT's names).
#include <cstdint>
#include <functional>
#include <vector>

#include "falcon/core/torch/shim.h"
#include "falcon/model/kv_cache.h"
#include "falcon/model/lora.h"
#include "falcon/model/config/model_config.h"

namespace falcon::model {

class RmsNormImpl : public torch::nn::Module {
 public:
  RmsNormImpl(std::int64_t dim, double eps, const torch::TensorOptions& options = {});
  torch::Tensor forward(const torch::Tensor& x);  // (..., H) -> (..., H), computed in fp32
  torch::Tensor weight;

 private:
  double eps_;
};
TORCH_MODULE(RmsNorm);

// Rotary tables for one forward pass, computed once and shared by every layer: (B, T, 1, D)
// each, broadcasting over the heads of (B, T, H, D) activations. `signed_sin` carries
// rotate_half's sign (its first half negated), so the rotation is a swap of halves.
struct RotaryTables {
  torch::Tensor cos, signed_sin;
};

// cos/sin tables of rotary embeddings for given positions, HF layout (halves duplicated).
class RotaryEmbedding {
 public:
  RotaryEmbedding(std::int64_t head_dim, double theta);
  // positions (B, T) int64 -> {cos, sin}, each (B, 1, T, D) in `dtype` on the positions' device.
  std::pair<torch::Tensor, torch::Tensor> tables(const torch::Tensor& positions, torch::ScalarType dtype) const;
  // The same values for (B, T, H, D) activations: see RotaryTables.
  RotaryTables head_tables(const torch::Tensor& positions, torch::ScalarType dtype) const;

 private:
  torch::Tensor inv_freq_;  // (D/2,) float64 on the CPU
};

// HF's rotation x * cos + rotate_half(x) * sin, rotate_half(x) = cat(-x[..., D/2:], x[..., :D/2]),
// of x (B, T, H, D) with head_tables(): x * cos + swap_halves(x) * signed_sin.
torch::Tensor apply_rotary(const torch::Tensor& x, const RotaryTables& tables);

// What one decode() call appends to each row of a KvCache, worked out once for all layers.
struct CachedRows {
  bool uniform = true;              // every row holds `past` tokens and takes all T new ones
  std::vector<std::int64_t> past;   // (R) tokens each row held before this call
  std::vector<std::int64_t> tokens; // (R) new tokens each row takes, 0 .. T
  std::int64_t width = 0;           // T: new token slots per row, padding included
  std::int64_t keys = 0;            // L: sample keys the longest row holds after this call
  torch::Tensor visible;            // (R, T) int64 keys each new token sees; undefined when uniform
  torch::Tensor real_tokens;        // (R) int64 `tokens` as a tensor; undefined when uniform
  // (M) int64 slots r * T + i of the M real new tokens, when there is padding (else undefined): the
  // per-token work (embeddings, projections, MLPs, lm_head) then runs on the M packed tokens alone.
  torch::Tensor packed;
  std::int64_t samples = 1;         // N: row r is sample r % N of prompt r / N
  torch::Tensor prefix_bias;        // (B, P) additive
};

class AttentionImpl : public torch::nn::Module {
 public:
  AttentionImpl(const ModelConfig& config, const torch::TensorOptions& options);
  // Without a cache: x (B, T, H), the rotary tables of its positions (computed once per model
  // forward), additive mask (B, 1, T, T) or undefined for plain causal. Returns (B, T, H). With
  // `store_prefix` the keys/values are stored as a KV cache's prefix.
  torch::Tensor forward(const torch::Tensor& x, const RotaryTables& rotary, const torch::Tensor& mask,
                        LayerKv* store_prefix = nullptr);
  // One decoding step over a KvCache: x (B*N, T, H), or (M, H) when rows.packed is defined; returns
  // the same shape. Appends the keys and values of row r's first rows.tokens[r] new tokens after the
  // rows.past[r] it holds (see CachedRows).
  torch::Tensor forward_cached(const torch::Tensor& x, const RotaryTables& rotary, const CachedRows& rows,
                               LayerKv& layer_kv);

  LoraLinear q_proj{nullptr}, k_proj{nullptr}, v_proj{nullptr}, o_proj{nullptr};

 private:
  std::int64_t heads_, kv_heads_, head_dim_;
};
TORCH_MODULE(Attention);

class MlpImpl : public torch::nn::Module {
 public:
  MlpImpl(const ModelConfig& config, const torch::TensorOptions& options);
  torch::Tensor forward(const torch::Tensor& x);  // down(silu(gate(x)) * up(x)), (B, T, H)
  LoraLinear gate_proj{nullptr}, up_proj{nullptr}, down_proj{nullptr};
};
TORCH_MODULE(Mlp);

class DecoderLayerImpl : public torch::nn::Module {
 public:
  DecoderLayerImpl(const ModelConfig& config, const torch::TensorOptions& options);
  // The pre-norm residual block, h (B, T, H) -> (B, T, H): h + attend(norm(h)), then + mlp(norm).
  // `attend` is this pass's attention of self_attn on the normed input (full, into a cache's
  // prefix, or one cached decoding step), so every path runs the same block.
  using Attend = std::function<torch::Tensor(AttentionImpl& attention, const torch::Tensor& normed)>;
  torch::Tensor forward(const torch::Tensor& h, const Attend& attend);
  Attention self_attn{nullptr};
  Mlp mlp{nullptr};
  RmsNorm input_layernorm{nullptr}, post_attention_layernorm{nullptr};
};
TORCH_MODULE(DecoderLayer);

// "model": embeddings, layers, final norm.
class DecoderImpl : public torch::nn::Module {
 public:
  DecoderImpl(const ModelConfig& config, const torch::TensorOptions& options);
  torch::nn::Embedding embed_tokens{nullptr};
  torch::nn::ModuleList layers{nullptr};
  RmsNorm norm{nullptr};
};
TORCH_MODULE(Decoder);

class CausalLmImpl : public torch::nn::Module {
 public:
  // Weights are initialised like HF's Llama (normal, std 0.02; norms 1). `options` sets dtype
  // and device of the parameters.
  explicit CausalLmImpl(const ModelConfig& config, const torch::TensorOptions& options = {});

  // Training / scoring: token ids (B, T) -> logits (B, T, V); position t of every row attends to
  // 0..t, so right padding never changes the logits of real tokens.
  torch::Tensor forward(const torch::Tensor& input_ids);
  // Final hidden states (B, T, H) before lm_head, for callers that project only some positions.
  torch::Tensor hidden_states(const torch::Tensor& input_ids);
  torch::Tensor project(const torch::Tensor& hidden);  // (..., H) -> (..., V)

  // Incremental decoding. prefill: prompts (B, P) LEFT-padded, real lengths (B,) int64; resets
  // `cache` to hold their keys/values and returns the logits of each prompt's last token (B, V).
  // Call cache.fork(N, capacity) next, then decode() with (B*N, T) new tokens -> (B*N, T, V).
  torch::Tensor prefill(const torch::Tensor& prompt_ids, const torch::Tensor& prompt_lengths, KvCache& cache);
  torch::Tensor decode(const torch::Tensor& tokens, KvCache& cache);
  // Rows that take different numbers of tokens: row r takes the first row_tokens[r] (0 .. T) of its
  // T, the rest is padding that the cache does not keep and the model does not compute; the logits
  // (R, T, V) at a row's padding are zeros and mean nothing. Lets a sampler feed each row in one
  // call the tokens a grammar forces on it.
  torch::Tensor decode(const torch::Tensor& tokens, const std::vector<std::int64_t>& row_tokens, KvCache& cache);

  // LoRA on the configured target projections of every layer (after loading base weights).
  void add_lora(const LoraConfig& config);
  const LoraConfig& lora_config() const { return lora_; }
  std::vector<LoraLinear> adapted_layers() const;  // layers that carry an adapter
  void set_adapters_enabled(bool enabled);
  void merge_adapters();
  void unmerge_adapters();
  // requires_grad = false on every base parameter, true on the adapters (the paper's BOPO setup).
  void freeze_base();
  // Adapter parameters by their full name (".lora_A.weight" / ".lora_B.weight").
  std::vector<std::pair<std::string, torch::Tensor>> named_lora_parameters() const;

  // Mixed precision of the teacher-forced passes (forward, hidden_states, project): kBFloat16 runs
  // their matmuls under autocast from the fp32 weights (torch_shim::AutocastGuard); kFloat, the
  // default, does not. Incremental decoding (prefill, decode) is never autocast.
  void set_autocast(torch::ScalarType dtype) { autocast_ = dtype; }
  torch::ScalarType autocast() const { return autocast_; }

  const ModelConfig& config() const { return config_; }
  torch::Tensor lm_head_weight() const;  // (V, H): lm_head.weight, or the embedding when tied

  Decoder model{nullptr};
  torch::nn::Linear lm_head{nullptr};  // null when tied

 private:
  ModelConfig config_;
  LoraConfig lora_;
  RotaryEmbedding rope_;
  torch::ScalarType autocast_ = torch::kFloat;
};
TORCH_MODULE(CausalLm);

// Scoped reference policy: adapters off inside the scope, restored on exit (DPO/BOPO reference).
class AdaptersDisabled {
 public:
  explicit AdaptersDisabled(CausalLm model) : model_(std::move(model)) { model_->set_adapters_enabled(false); }
  ~AdaptersDisabled() { model_->set_adapters_enabled(true); }
  AdaptersDisabled(const AdaptersDisabled&) = delete;
  AdaptersDisabled& operator=(const AdaptersDisabled&) = delete;

 private:
  CausalLm model_;
};

}  // namespace falcon::model
