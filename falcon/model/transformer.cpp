#include "falcon/model/transformer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "falcon/core/error.h"
#include "falcon/model/cached_attention.h"
#include "falcon/model/linear.h"

namespace falcon::model {
namespace {

// Additive mask from a keep-mask: 0 where kept, -inf elsewhere. Every caller keeps at least one
// key per query row, so softmax never sees a row of -inf (which would give NaN).
torch::Tensor additive_mask(const torch::Tensor& keep, torch::ScalarType dtype) {
  return torch::zeros(keep.sizes(), keep.options().dtype(dtype))
      .masked_fill(keep.logical_not(), -std::numeric_limits<float>::infinity());
}

// Packed rows (M, C) of a call's real tokens back to their slots (R, T, C), zeros at the padding.
torch::Tensor unpack_rows(const torch::Tensor& packed, const CachedRows& rows) {
  const auto r_count = static_cast<std::int64_t>(rows.past.size()), columns = packed.size(-1);
  return torch::zeros({r_count * rows.width, columns}, packed.options())
      .index_copy(0, rows.packed, packed)       // (R*T, C)
      .view({r_count, rows.width, columns});    // (R, T, C)
}

}  // namespace

// ---- RMSNorm ------------------------------------------------------------------------------------

RmsNormImpl::RmsNormImpl(std::int64_t dim, double eps, const torch::TensorOptions& options) : eps_(eps) {
  weight = register_parameter("weight", torch::ones({dim}, options));  // (H,)
}

torch::Tensor RmsNormImpl::forward(const torch::Tensor& x) {
  // Like HF: normalise in fp32 (or the input's precision when higher), scale in the input dtype.
  const auto type = x.scalar_type();
  if (type == torch::kFloat || type == torch::kDouble) {  // no conversions; in place on the (..., 1) statistics
    auto inv_rms = x.pow(2).mean(-1, /*keepdim=*/true).add_(eps_).rsqrt_();  // (..., 1)
    return weight * (x * inv_rms);                                            // (..., H)
  }
  auto h = x.to(torch::kFloat);                                               // (..., H)
  h = h * torch::rsqrt(h.pow(2).mean(-1, /*keepdim=*/true) + eps_);           // (..., H)
  return weight * h.to(type);                                                 // (..., H)
}

// ---- Rotary embeddings --------------------------------------------------------------------------

RotaryEmbedding::RotaryEmbedding(std::int64_t head_dim, double theta) {
  // inv_freq_i = theta^(-2i/D), in fp32 as HF computes it.
  auto exponents = torch::arange(0, head_dim, 2, torch::kInt64).to(torch::kFloat) / static_cast<double>(head_dim);
  inv_freq_ = 1.0 / torch::pow(torch::tensor(theta, torch::kFloat), exponents);  // (D/2,)
}

std::pair<torch::Tensor, torch::Tensor> RotaryEmbedding::tables(const torch::Tensor& positions,
                                                                torch::ScalarType dtype) const {
  const auto inv = inv_freq_.to(positions.device());                        // (D/2,)
  auto freqs = positions.to(torch::kFloat).unsqueeze(-1) * inv;             // (B, T, D/2)
  auto emb = torch::cat({freqs, freqs}, -1);                                // (B, T, D)
  return {emb.cos().to(dtype).unsqueeze(1), emb.sin().to(dtype).unsqueeze(1)};  // (B, 1, T, D) each
}

RotaryTables RotaryEmbedding::head_tables(const torch::Tensor& positions, torch::ScalarType dtype) const {
  const auto inv = inv_freq_.to(positions.device());             // (D/2,)
  auto freqs = positions.to(torch::kFloat).unsqueeze(-1) * inv;  // (B, T, D/2)
  auto cos = freqs.cos(), sin = freqs.sin();                     // (B, T, D/2)
  return {torch::cat({cos, cos}, -1).to(dtype).unsqueeze(2),     // (B, T, 1, D)
          torch::cat({-sin, sin}, -1).to(dtype).unsqueeze(2)};   // (B, T, 1, D)
}

torch::Tensor apply_rotary(const torch::Tensor& x, const RotaryTables& tables) {
  // rotate_half(x) * sin == swap_halves(x) * signed_sin exactly (negation is exact). One flip
  // swaps the halves; its backward is one flip too (narrow + cat would zero-fill twice).
  auto halves = x.sizes().vec();
  halves.back() = 2;
  halves.push_back(x.size(-1) / 2);
  auto swapped = x.reshape(halves).flip({-2}).reshape(x.sizes());  // (B, T, H, D)
  return torch::addcmul(x * tables.cos, swapped, tables.signed_sin);  // (B, T, H, D)
}

// ---- Attention ----------------------------------------------------------------------------------

AttentionImpl::AttentionImpl(const ModelConfig& config, const torch::TensorOptions& options)
    : heads_(config.num_attention_heads), kv_heads_(config.num_key_value_heads), head_dim_(config.head_dim()) {
  const auto h = config.hidden_size;
  q_proj = register_module("q_proj", LoraLinear(h, heads_ * head_dim_, config.attention_bias, options));
  k_proj = register_module("k_proj", LoraLinear(h, kv_heads_ * head_dim_, config.attention_bias, options));
  v_proj = register_module("v_proj", LoraLinear(h, kv_heads_ * head_dim_, config.attention_bias, options));
  o_proj = register_module("o_proj", LoraLinear(heads_ * head_dim_, h, /*bias=*/false, options));
}

torch::Tensor AttentionImpl::forward(const torch::Tensor& x, const RotaryTables& rotary, const torch::Tensor& mask,
                                     LayerKv* store_prefix) {
  const auto b = x.size(0), t = x.size(1);
  // Rotary on the (B, T, heads, D) layout the projections produce; heads move forward after.
  auto q = apply_rotary(q_proj(x).view({b, t, heads_, head_dim_}), rotary).transpose(1, 2);     // (B, H, T, D)
  auto k = apply_rotary(k_proj(x).view({b, t, kv_heads_, head_dim_}), rotary).transpose(1, 2);  // (B, Hkv, T, D)
  auto v = v_proj(x).view({b, t, kv_heads_, head_dim_}).transpose(1, 2);                        // (B, Hkv, T, D)
  if (store_prefix != nullptr) {
    k = k.contiguous();
    v = v.contiguous();
    store_prefix->prefix_k = position_major(k);
    store_prefix->prefix_v = v;
  }
  // Grouped-query attention without repeating k / v (see torch_shim::scaled_dot_product_attention).
  auto out = torch_shim::scaled_dot_product_attention(q, k, v, mask, /*causal=*/true);  // (B, H, T, D)
  return o_proj(out.transpose(1, 2).reshape({b, t, heads_ * head_dim_}));  // (B, T, H*D) -> (B, T, hidden)
}

torch::Tensor AttentionImpl::forward_cached(const torch::Tensor& x, const RotaryTables& rotary, const CachedRows& rows,
                                            LayerKv& kv) {
  const auto r_count = static_cast<std::int64_t>(rows.past.size()), t = rows.width;
  // Packed tokens' projections go back to their slots: the cache and the kernel index by (row, slot).
  auto slots = [&](const torch::Tensor& y) { return rows.packed.defined() ? unpack_rows(y, rows) : y; };  // (R, T, C)
  auto q = apply_rotary(slots(q_proj(x)).view({r_count, t, heads_, head_dim_}), rotary);     // (R, T, H, D)
  auto k = apply_rotary(slots(k_proj(x)).view({r_count, t, kv_heads_, head_dim_}), rotary);  // (R, T, Hkv, D)
  auto v = slots(v_proj(x)).view({r_count, t, kv_heads_, head_dim_});                        // (R, T, Hkv, D)
  if (rows.uniform) {
    kv.sample_k.narrow(2, rows.past[0], t).copy_(k.transpose(1, 2));  // (R, Hkv, T, D) slots of the cache
    kv.sample_v.narrow(2, rows.past[0], t).copy_(v.transpose(1, 2));
  } else {
    for (std::int64_t r = 0; r < r_count; ++r) {  // each row's own tokens after its own past
      const auto taken = rows.tokens[r];
      if (taken == 0) continue;
      kv.sample_k[r].narrow(1, rows.past[r], taken).copy_(k[r].narrow(0, 0, taken).transpose(0, 1));  // (Hkv, n, D)
      kv.sample_v[r].narrow(1, rows.past[r], taken).copy_(v[r].narrow(0, 0, taken).transpose(0, 1));
    }
  }
  CachedAttentionInputs in;
  in.q = q;
  in.prefix_k = kv.prefix_k;
  in.prefix_v = kv.prefix_v;
  in.prefix_bias = rows.prefix_bias;
  in.sample_k = kv.sample_k.narrow(2, 0, rows.keys);  // (R, Hkv, L, D)
  in.sample_v = kv.sample_v.narrow(2, 0, rows.keys);
  in.samples = rows.samples;
  in.sample_visible = rows.visible;
  in.sample_tokens = rows.real_tokens;
  auto out = cached_attention(in).view({r_count, t, heads_ * head_dim_});  // (R, T, H*D)
  if (rows.packed.defined())
    out = out.view({r_count * t, heads_ * head_dim_}).index_select(0, rows.packed);  // (M, H*D)
  return o_proj(out);  // (R, T, hidden) or (M, hidden)
}

// ---- MLP and decoder layer ----------------------------------------------------------------------

MlpImpl::MlpImpl(const ModelConfig& config, const torch::TensorOptions& options) {
  const auto h = config.hidden_size, f = config.intermediate_size;
  gate_proj = register_module("gate_proj", LoraLinear(h, f, /*bias=*/false, options));
  up_proj = register_module("up_proj", LoraLinear(h, f, /*bias=*/false, options));
  down_proj = register_module("down_proj", LoraLinear(f, h, /*bias=*/false, options));
}

torch::Tensor MlpImpl::forward(const torch::Tensor& x) {
  auto gate = gate_proj(x);  // (B, T, F)
  // LibTorch's CPU silu and its backward are scalar loops in bf16 (under autocast the projections
  // come out in bf16): 50 of a 520 ms training step at 4 x 128, against a few ms in fp32 plus casts.
  if (gate.is_cpu() && gate.scalar_type() == torch::kBFloat16) gate = gate.to(torch::kFloat);
  return down_proj(torch::silu(gate) * up_proj(x));  // (B, T, F) -> (B, T, H)
}

DecoderLayerImpl::DecoderLayerImpl(const ModelConfig& config, const torch::TensorOptions& options) {
  self_attn = register_module("self_attn", Attention(config, options));
  mlp = register_module("mlp", Mlp(config, options));
  input_layernorm = register_module("input_layernorm", RmsNorm(config.hidden_size, config.rms_norm_eps, options));
  post_attention_layernorm =
      register_module("post_attention_layernorm", RmsNorm(config.hidden_size, config.rms_norm_eps, options));
}

torch::Tensor DecoderLayerImpl::forward(const torch::Tensor& h, const Attend& attend) {
  auto x = h + attend(*self_attn, input_layernorm(h));  // (B, T, H)
  return x + mlp(post_attention_layernorm(x));
}

DecoderImpl::DecoderImpl(const ModelConfig& config, const torch::TensorOptions& options) {
  embed_tokens = register_module(
      "embed_tokens", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocab_size, config.hidden_size)));
  embed_tokens->to(options.dtype().toScalarType());
  embed_tokens->to(options.device());
  layers = register_module("layers", torch::nn::ModuleList());
  for (std::int64_t i = 0; i < config.num_hidden_layers; ++i) layers->push_back(DecoderLayer(config, options));
  norm = register_module("norm", RmsNorm(config.hidden_size, config.rms_norm_eps, options));
}

// ---- Causal LM ----------------------------------------------------------------------------------

CausalLmImpl::CausalLmImpl(const ModelConfig& config, const torch::TensorOptions& options)
    : config_(config), rope_(config.head_dim(), config.rope_theta) {
  config_.validate("model config");
  model = register_module("model", Decoder(config_, options));
  if (!config_.tie_word_embeddings) {
    lm_head = register_module(
        "lm_head", torch::nn::Linear(torch::nn::LinearOptions(config_.hidden_size, config_.vocab_size).bias(false)));
    lm_head->to(options.dtype().toScalarType());
    lm_head->to(options.device());
  }
  // HF's LlamaPreTrainedModel._init_weights: normal(0, 0.02) for linear and embedding weights,
  // zero biases, norms at one.
  torch::NoGradGuard no_grad;
  for (auto& item : named_parameters()) {
    const auto& name = item.key();
    auto& p = item.value();
    if (name.find("norm") != std::string::npos) continue;
    if (name.size() >= 5 && name.compare(name.size() - 5, 5, ".bias") == 0) {
      p.zero_();
    } else {
      p.normal_(0.0, 0.02);
    }
  }
}

torch::Tensor CausalLmImpl::hidden_states(const torch::Tensor& input_ids) {
  torch_shim::AutocastGuard autocast(input_ids.device().type(), autocast_);
  const auto b = input_ids.size(0), t = input_ids.size(1);
  auto positions = torch::arange(t, input_ids.options().dtype(torch::kInt64)).unsqueeze(0).expand({b, t});  // (B, T)
  auto h = model->embed_tokens(input_ids);  // (B, T, H)
  // Under autocast the tables take its dtype, as HF's RoPE takes q's: q and k stay bf16 and attention
  // runs its batched matmuls in bf16 too (oneDNN; softmax statistics in fp32), where fp32 tables
  // would turn q and k, and so all of attention, back to fp32 (a third of a 4 x 128 model's step).
  const auto rotary = rope_.head_tables(positions, autocast_ != torch::kFloat ? autocast_ : h.scalar_type());  // (B, T, 1, D)
  for (const auto& module : *model->layers) {
    h = module->as<DecoderLayerImpl>()->forward(
        h, [&](AttentionImpl& attention, const torch::Tensor& x) { return attention.forward(x, rotary, torch::Tensor()); });
  }
  return model->norm(h);  // (B, T, H)
}

torch::Tensor CausalLmImpl::lm_head_weight() const {
  return config_.tie_word_embeddings ? model->embed_tokens->weight : lm_head->weight;  // (V, H)
}

torch::Tensor CausalLmImpl::project(const torch::Tensor& hidden) {
  torch_shim::AutocastGuard autocast(hidden.device().type(), autocast_);
  return model::linear(hidden, lm_head_weight());  // (..., H) -> (..., V)
}

torch::Tensor CausalLmImpl::forward(const torch::Tensor& input_ids) { return project(hidden_states(input_ids)); }

torch::Tensor CausalLmImpl::prefill(const torch::Tensor& prompt_ids, const torch::Tensor& prompt_lengths,
                                    KvCache& cache) {
  const auto b = prompt_ids.size(0), p = prompt_ids.size(1);
  if (prompt_lengths.dim() != 1 || prompt_lengths.size(0) != b)
    throw Error("prefill: prompt_lengths must be (B,) for prompts of shape (B, P)");
  const auto lengths = prompt_lengths.to(prompt_ids.device(), torch::kInt64);         // (B,)
  if (lengths.min().item<std::int64_t>() < 1 || lengths.max().item<std::int64_t>() > p)
    throw Error("prefill: every prompt needs between 1 and P tokens");
  auto index = torch::arange(p, lengths.options());                                   // (P,)
  auto start = (p - lengths).unsqueeze(1);                                            // (B, 1)
  auto positions = (index.unsqueeze(0) - start).clamp_min(0);                         // (B, P)
  auto real_key = index.unsqueeze(0) >= start;                                        // (B, P)
  // Query i keeps real keys j <= i; a padding query keeps itself, so no row is all -inf.
  auto causal = torch::ones({p, p}, real_key.options()).tril();                       // (P, P)
  auto diagonal = torch::eye(p, real_key.options());                                  // (P, P)
  auto keep = causal.unsqueeze(0) & (real_key.unsqueeze(1) | diagonal.unsqueeze(0));  // (B, P, P)
  const auto dtype = model->norm->weight.scalar_type();
  auto mask = additive_mask(keep, dtype).unsqueeze(1);                                // (B, 1, P, P)

  std::vector<LayerKv> kv(model->layers->size());
  auto h = model->embed_tokens(prompt_ids);  // (B, P, H)
  const auto rotary = rope_.head_tables(positions, h.scalar_type());  // (B, P, 1, D)
  for (std::size_t i = 0; i < kv.size(); ++i) {
    h = model->layers[i]->as<DecoderLayerImpl>()->forward(
        h, [&](AttentionImpl& attention, const torch::Tensor& x) { return attention.forward(x, rotary, mask, &kv[i]); });
  }
  cache.set_prefix(std::move(kv), additive_mask(real_key, torch::kFloat), lengths);
  return project(model->norm(h.select(1, p - 1)));  // (B, H) -> (B, V); left padding puts every prompt's end at P-1
}

torch::Tensor CausalLmImpl::decode(const torch::Tensor& tokens, KvCache& cache) {
  return decode(tokens, std::vector<std::int64_t>(static_cast<std::size_t>(tokens.size(0)), tokens.size(1)), cache);
}

torch::Tensor CausalLmImpl::decode(const torch::Tensor& tokens, const std::vector<std::int64_t>& row_tokens,
                                   KvCache& cache) {
  if (cache.empty() || cache.capacity() == 0) throw Error("decode: call prefill() and cache.fork() first");
  const auto r_count = tokens.size(0), t = tokens.size(1);
  if (r_count != cache.rows())
    throw Error("decode: " + std::to_string(r_count) + " token rows for a cache of " + std::to_string(cache.rows()) +
                " rows (prompts x samples)");
  if (static_cast<std::int64_t>(row_tokens.size()) != r_count)
    throw Error("decode: " + std::to_string(row_tokens.size()) + " token counts for " + std::to_string(r_count) +
                " rows");
  CachedRows rows;
  rows.past = cache.sample_lengths();
  rows.tokens = row_tokens;
  rows.width = t;
  rows.samples = cache.samples_per_prompt();
  rows.prefix_bias = cache.prefix_key_mask();
  std::int64_t longest_count = 0;
  for (std::int64_t r = 0; r < r_count; ++r) {
    if (row_tokens[r] < 0 || row_tokens[r] > t)
      throw Error("decode: row " + std::to_string(r) + " takes " + std::to_string(row_tokens[r]) + " of " +
                  std::to_string(t) + " tokens");
    if (rows.past[r] + row_tokens[r] > cache.capacity())
      throw Error("decode: the KV cache holds " + std::to_string(cache.capacity()) +
                  " generated tokens; fork it with a larger capacity");
    rows.uniform = rows.uniform && row_tokens[r] == t && rows.past[r] == rows.past[0];
    rows.keys = std::max(rows.keys, rows.past[r] + row_tokens[r]);
    longest_count = std::max(longest_count, row_tokens[r]);
  }
  if (longest_count != t) throw Error("decode: no row takes all " + std::to_string(t) + " tokens (pad to the longest)");
  if (!rows.uniform) {
    auto visible = torch::empty({r_count, t}, torch::kInt64);  // (R, T)
    auto* v = visible.data_ptr<std::int64_t>();
    for (std::int64_t r = 0; r < r_count; ++r)  // padding sees what the row's last real token sees
      for (std::int64_t i = 0; i < t; ++i) v[r * t + i] = rows.past[r] + std::min(i + 1, row_tokens[r]);
    rows.visible = visible;
    rows.real_tokens = torch::tensor(rows.tokens, torch::kInt64);  // (R,)
    std::vector<std::int64_t> packed;
    for (std::int64_t r = 0; r < r_count; ++r)
      for (std::int64_t i = 0; i < row_tokens[r]; ++i) packed.push_back(r * t + i);
    if (static_cast<std::int64_t>(packed.size()) < r_count * t)
      rows.packed = torch::tensor(packed, torch::kInt64).to(tokens.device());  // (M,)
  }
  // Position of a new token: its prompt's real length + tokens its row generated before it.
  auto past = torch::tensor(rows.past, torch::kInt64).to(tokens.device());                                      // (R,)
  auto base = cache.prefix_positions().repeat_interleave(cache.samples_per_prompt()) + past;                    // (R,)
  auto positions = base.unsqueeze(1) + torch::arange(t, base.options()).unsqueeze(0);                           // (R, T)
  const auto fed = rows.packed.defined() ? tokens.reshape({-1}).index_select(0, rows.packed) : tokens;  // (M) or (R, T)
  auto h = model->embed_tokens(fed);  // (M, H) or (R, T, H)
  const auto rotary = rope_.head_tables(positions, h.scalar_type());  // (R, T, 1, D)
  for (std::size_t i = 0; i < model->layers->size(); ++i) {
    h = model->layers[i]->as<DecoderLayerImpl>()->forward(h, [&](AttentionImpl& attention, const torch::Tensor& x) {
      return attention.forward_cached(x, rotary, rows, cache.layers()[i]);
    });
  }
  cache.advance(row_tokens);
  auto logits = project(model->norm(h));  // (M, V) or (R, T, V)
  return rows.packed.defined() ? unpack_rows(logits, rows) : logits;  // (R, T, V)
}

// ---- LoRA ---------------------------------------------------------------------------------------

void CausalLmImpl::add_lora(const LoraConfig& config) {
  if (lora_.rank > 0) throw Error("add_lora: the model already has adapters");
  static const std::vector<std::string> kTargets = {"q_proj", "k_proj", "v_proj", "o_proj",
                                                    "gate_proj", "up_proj", "down_proj"};
  for (const auto& target : config.target_modules)
    if (std::find(kTargets.begin(), kTargets.end(), target) == kTargets.end())
      throw Error("lora.target_modules: unknown module '" + target +
                  "' (known: q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj)");
  for (const auto& module : *model->layers) {
    auto layer = module->as<DecoderLayerImpl>();
    const std::vector<std::pair<std::string, LoraLinear>> projections = {
        {"q_proj", layer->self_attn->q_proj},   {"k_proj", layer->self_attn->k_proj},
        {"v_proj", layer->self_attn->v_proj},   {"o_proj", layer->self_attn->o_proj},
        {"gate_proj", layer->mlp->gate_proj},   {"up_proj", layer->mlp->up_proj},
        {"down_proj", layer->mlp->down_proj}};
    for (auto [name, projection] : projections)
      if (std::find(config.target_modules.begin(), config.target_modules.end(), name) != config.target_modules.end())
        projection->add_adapter(config);
  }
  lora_ = config;
}

std::vector<LoraLinear> CausalLmImpl::adapted_layers() const {
  std::vector<LoraLinear> out;
  for (const auto& module : modules(/*include_self=*/false))
    if (auto linear = std::dynamic_pointer_cast<LoraLinearImpl>(module); linear && linear->has_adapter())
      out.emplace_back(linear);
  return out;
}

void CausalLmImpl::set_adapters_enabled(bool enabled) {
  for (auto& layer : adapted_layers()) layer->set_adapter_enabled(enabled);
}

void CausalLmImpl::merge_adapters() {
  for (auto& layer : adapted_layers()) layer->merge();
}

void CausalLmImpl::unmerge_adapters() {
  for (auto& layer : adapted_layers()) layer->unmerge();
}

namespace {
bool is_lora_name(const std::string& name) {
  return name.find(".lora_A.") != std::string::npos || name.find(".lora_B.") != std::string::npos;
}
}  // namespace

void CausalLmImpl::freeze_base() {
  for (auto& item : named_parameters()) item.value().requires_grad_(is_lora_name(item.key()));
}

std::vector<std::pair<std::string, torch::Tensor>> CausalLmImpl::named_lora_parameters() const {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (const auto& item : named_parameters())
    if (is_lora_name(item.key())) out.emplace_back(item.key(), item.value());
  return out;
}

}  // namespace falcon::model
