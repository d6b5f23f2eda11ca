#include "falcon/model/cached_attention.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "falcon/core/error.h"

// The kernel's inner loops are compiled for AVX-512, AVX2 and the baseline, chosen at load time.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__linux__)
#define FALCON_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define FALCON_VECTOR_CLONES
#endif

namespace falcon::model {
namespace {

struct Dims {
  std::int64_t rows, t, heads, d, prompts, kv_heads, p, total, n, groups;
};

Dims dims_of(const CachedAttentionInputs& in) {
  Dims s{};
  s.rows = in.q.size(0), s.t = in.q.size(1), s.heads = in.q.size(2), s.d = in.q.size(3);
  s.prompts = in.prefix_k.size(0), s.kv_heads = in.prefix_k.size(1), s.p = in.prefix_k.size(2);
  s.total = in.sample_k.size(2), s.n = in.samples;
  s.groups = s.kv_heads > 0 ? s.heads / s.kv_heads : 0;
  if (in.q.dim() != 4 || in.prefix_k.dim() != 4 || in.sample_k.dim() != 4 || s.kv_heads == 0 ||
      s.heads % s.kv_heads != 0 || s.rows != s.prompts * s.n || s.total < s.t || in.sample_k.size(0) != s.rows ||
      in.sample_k.size(1) != s.kv_heads || in.prefix_k.size(3) != s.d || in.sample_k.size(3) != s.d ||
      in.prefix_bias.dim() != 2 || in.prefix_bias.size(0) != s.prompts || in.prefix_bias.size(1) != s.p ||
      (in.sample_visible.defined() &&
       (in.sample_visible.dim() != 2 || in.sample_visible.size(0) != s.rows || in.sample_visible.size(1) != s.t ||
        in.sample_visible.scalar_type() != torch::kInt64 || !in.sample_visible.device().is_cpu())))
    throw Error("cached_attention: inconsistent shapes (q (R, T, H, D), prefix (B, Hkv, P, D), sample (R, Hkv, L, D), "
                "prefix_bias (B, P), sample_visible (R, T) int64 on the CPU, R = B * samples, L >= T)");
  if (in.sample_tokens.defined() &&
      (in.sample_tokens.dim() != 1 || in.sample_tokens.size(0) != s.rows ||
       in.sample_tokens.scalar_type() != torch::kInt64 || !in.sample_tokens.device().is_cpu() ||
       (s.rows > 0 && (in.sample_tokens.min().item<std::int64_t>() < 0 ||
                       in.sample_tokens.max().item<std::int64_t>() > s.t))))
    throw Error("cached_attention: sample_tokens must be (R,) int64 on the CPU, each 0 .. " + std::to_string(s.t) +
                " (the new tokens given)");
  if (in.sample_visible.defined()) {
    const auto low = in.sample_visible.min().item<std::int64_t>(), high = in.sample_visible.max().item<std::int64_t>();
    if (low < 0 || high > s.total)
      throw Error("cached_attention: sample_visible must lie in 0 .. " + std::to_string(s.total) + " (the sample keys given)");
  }
  return s;
}

// Each new token's number of visible sample keys, (R, T) int64 on the CPU: sample_visible, or the
// causal rule for rows of equal length.
torch::Tensor visible_sample_keys(const Dims& s, const CachedAttentionInputs& in) {
  if (in.sample_visible.defined()) return in.sample_visible.contiguous();
  return (torch::arange(s.t, torch::kInt64) + (s.total - s.t + 1)).unsqueeze(0).expand({s.rows, s.t}).contiguous();
}

// Each row's number of real new tokens, (R,) int64 on the CPU: sample_tokens, or all T.
torch::Tensor real_sample_tokens(const Dims& s, const CachedAttentionInputs& in) {
  if (in.sample_tokens.defined()) return in.sample_tokens.contiguous();
  return torch::full({s.rows}, s.t, torch::kInt64);
}

// ---- batched matmuls --------------------------------------------------------------------------

bool is_reduced_float(torch::ScalarType type) { return type == torch::kHalf || type == torch::kBFloat16; }

}  // namespace

torch::Tensor cached_attention_ops(const CachedAttentionInputs& in) {
  const auto s = dims_of(in);
  const auto tg = s.t * s.groups;
  const double scale = 1.0 / std::sqrt(static_cast<double>(s.d));
  // Query rows grouped by the kv head they read, as (token, group) pairs like explicit_attention.
  // For the prompt keys the N samples stack too, so one (N*T*G, D) x (D, P) product per (prompt,
  // kv head) reads the shared keys without copying them.
  auto q6 = (in.q * scale).view({s.prompts, s.n, s.t, s.kv_heads, s.groups, s.d});                // (B, N, T, Hkv, G, D)
  auto q_prefix = q6.permute({0, 3, 1, 2, 4, 5}).reshape({s.prompts * s.kv_heads, s.n * tg, s.d});  // (B*Hkv, N*T*G, D)
  auto q_own = q6.permute({0, 1, 3, 2, 4, 5}).reshape({s.rows * s.kv_heads, tg, s.d});             // (R*Hkv, T*G, D)
  auto prefix_k = in.prefix_k.reshape({s.prompts * s.kv_heads, s.p, s.d});                       // (B*Hkv, P, D)
  auto prefix_v = in.prefix_v.reshape({s.prompts * s.kv_heads, s.p, s.d});
  auto own_k = in.sample_k.reshape({s.rows * s.kv_heads, s.total, s.d});  // (R*Hkv, L, D), a view of the cache
  auto own_v = in.sample_v.reshape({s.rows * s.kv_heads, s.total, s.d});

  auto bias = in.prefix_bias.to(in.q.scalar_type())
                  .view({s.prompts, 1, 1, s.p})
                  .expand({s.prompts, s.kv_heads, 1, s.p})
                  .reshape({s.prompts * s.kv_heads, 1, s.p});                            // (B*Hkv, 1, P)
  auto prefix_scores = torch::baddbmm(bias, q_prefix, prefix_k.transpose(1, 2));        // (B*Hkv, N*T*G, P)
  auto own_scores = torch::bmm(q_own, own_k.transpose(1, 2));                           // (R*Hkv, T*G, L)
  if (in.sample_visible.defined()) {  // new token i of row r sees its sample's keys 0 .. visible[r][i] - 1
    auto hidden = torch::arange(s.total, torch::kInt64).view({1, 1, s.total}) >=
                  in.sample_visible.unsqueeze(-1);                                       // (R, T, L)
    auto bias = torch::zeros(hidden.sizes(), in.q.options().device(torch::kCPU))
                    .masked_fill_(hidden, -std::numeric_limits<double>::infinity())
                    .to(in.q.device())
                    .view({s.rows, 1, s.t, 1, s.total})
                    .expand({s.rows, s.kv_heads, s.t, s.groups, s.total})
                    .reshape({s.rows * s.kv_heads, tg, s.total});                        // (R*Hkv, T*G, L)
    own_scores = own_scores + bias;
  } else if (s.t > 1) {  // new token i sees its sample's keys 0 .. L - T + i
    own_scores.add_(torch_shim::causal_bias(s.groups, s.t, s.total, in.q.options()));
  }
  auto scores = torch::cat({prefix_scores.view({s.prompts, s.kv_heads, s.n, tg, s.p}).transpose(1, 2),
                            own_scores.view({s.prompts, s.n, s.kv_heads, tg, s.total})},
                           -1);  // (B, N, Hkv, T*G, P+L)
  auto probs = is_reduced_float(in.q.scalar_type())
                   ? torch::softmax(scores, -1, torch::kFloat).to(in.q.scalar_type())
                   : torch::softmax(scores, -1);  // (B, N, Hkv, T*G, P+L)
  auto probs_prefix =
      probs.narrow(-1, 0, s.p).transpose(1, 2).reshape({s.prompts * s.kv_heads, s.n * tg, s.p});  // (B*Hkv, N*T*G, P)
  auto probs_own = probs.narrow(-1, s.p, s.total).reshape({s.rows * s.kv_heads, tg, s.total});    // (R*Hkv, T*G, L)
  auto out = torch::bmm(probs_prefix, prefix_v)
                 .view({s.prompts, s.kv_heads, s.n, s.t, s.groups, s.d})
                 .permute({0, 2, 3, 1, 4, 5}) +                        // (B, N, T, Hkv, G, D)
             torch::bmm(probs_own, own_v)
                 .view({s.prompts, s.n, s.kv_heads, s.t, s.groups, s.d})
                 .permute({0, 1, 3, 2, 4, 5});                         // (B, N, T, Hkv, G, D)
  return out.reshape({s.rows, s.t, s.heads, s.d}).contiguous();        // (R, T, H, D)
}

// ---- CPU kernel ---------------------------------------------------------------------------------
//
// Three passes: scores of every new query against its prompt's and its sample's keys (loops, one
// task per (prompt, kv head), so the prompt's keys stay in cache for its N samples and G query
// heads), ATen's softmax over them, and the probability-weighted sum of values (loops again). A
// padding token (sample_tokens) costs neither loop: jump-forward calls pad every row to the longest
// forced run, and about 45% of best-of-8 MVC's new tokens were padding.

namespace {

template <typename T>
__attribute__((always_inline)) inline T dot(const T* a, const T* b, std::int64_t n) {
  T acc[8] = {};  // eight independent sums, so the compiler can keep them in one vector register
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) acc[k] += a[i + k] * b[i + k];
  T sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

template <typename T>
__attribute__((always_inline)) inline void axpy(T w, const T* x, T* y, std::int64_t n) {
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) y[i + k] += w * x[i + k];
  for (; i < n; ++i) y[i] += w * x[i];
}

// scores[j] = scale * q . keys[j] + bias[j] for `count` keys `stride` apart; bias may be null;
// keys at or after `visible` get -inf (not yet generated for this query).
template <typename T>
__attribute__((always_inline)) inline void score_row(const T* q, const T* keys, std::int64_t stride,
                                                     std::int64_t count, std::int64_t visible, const T* bias, T scale,
                                                     std::int64_t d, T* scores) {
  constexpr T kMinusInf = -std::numeric_limits<T>::infinity();
  for (std::int64_t j = 0; j < count; ++j) {
    if (j >= visible || (bias != nullptr && bias[j] == kMinusInf)) {
      scores[j] = kMinusInf;
    } else {
      scores[j] = dot(q, keys + j * stride, d) * scale + (bias != nullptr ? bias[j] : T(0));
    }
  }
}

// Many queries against the same keys (a prompt's keys for its N samples, a jump-forward chunk's
// tokens against their row's keys): raw[q][j] = scale * queries[q] . keys[j] + bias[j] (bias may
// be null) for j < count. The products run along a block of kBlock keys in one vector register,
// with no horizontal sum per (query, key): the block is (head size x kBlock), read in place where
// the keys are stored position-major (a KvCache's), else copied transposed.
constexpr std::int64_t kMaxTiledHead = 256;  // a copied block lives on the stack

// One block's scores of a query: raw[k] = scale * a[k] + bias[k] (-inf where bias is -inf, whatever
// a holds), for `width` keys. Both sides are computed before the select, so that the loop
// vectorizes (a floating-point operation under a condition is not speculated).
template <typename T, std::int64_t kBlock>
__attribute__((always_inline)) inline void store_block(const T* a, T scale, const T* bias, std::int64_t width,
                                                       T* raw) {
  constexpr T kMinusInf = -std::numeric_limits<T>::infinity();
  if (width == kBlock) {
    if (bias == nullptr) {
      for (std::int64_t k = 0; k < kBlock; ++k) raw[k] = a[k] * scale;
    } else {
      for (std::int64_t k = 0; k < kBlock; ++k) {
        const T score = a[k] * scale + bias[k];
        raw[k] = bias[k] == kMinusInf ? kMinusInf : score;
      }
    }
    return;
  }
  for (std::int64_t k = 0; k < width; ++k)
    raw[k] = bias == nullptr ? a[k] * scale : (bias[k] == kMinusInf ? kMinusInf : a[k] * scale + bias[k]);
}

// kQueries queries' products with one block (row c of the block at block + c * block_stride), each
// query's sums in its own register, so that as many independent chains of FMAs are in flight (two
// left the FMA units waiting on each chain's last result). Each query's sum runs over the head's
// columns in order, whatever kQueries is.
template <typename T, std::int64_t kBlock, int kQueries>
__attribute__((always_inline)) inline void score_block(const T* const* queries, const T* block,
                                                       std::int64_t block_stride, std::int64_t d, const T* bias,
                                                       T scale, std::int64_t width, T* const* raw, std::int64_t j0) {
  T a[kQueries][kBlock] = {};
  for (std::int64_t c = 0; c < d; ++c) {
    const T* keys_c = block + c * block_stride;
#pragma GCC unroll 8
    for (int q = 0; q < kQueries; ++q)
      for (std::int64_t k = 0; k < kBlock; ++k) a[q][k] += queries[q][c] * keys_c[k];
  }
  for (int q = 0; q < kQueries; ++q) store_block<T, kBlock>(a[q], scale, bias, width, raw[q] + j0);
}

// Key j's column c is keys[j * pos + c * col].
template <typename T>
__attribute__((always_inline)) inline void score_tiled(const T* const* queries, std::int64_t m, const T* keys,
                                                       std::int64_t pos, std::int64_t col, std::int64_t count,
                                                       std::int64_t d, const T* bias, T scale, T* const* raw) {
  constexpr std::int64_t kBlock = 64 / sizeof(T);  // one 512-bit register of keys
  alignas(64) T copied[kMaxTiledHead * kBlock];    // (D, kBlock)
  for (std::int64_t j0 = 0; j0 < count; j0 += kBlock) {
    const auto width = std::min(kBlock, count - j0);
    const T* block = copied;
    std::int64_t block_stride = kBlock;
    if (pos == 1 && width == kBlock) {  // in place: the last block would read past the stored keys
      block = keys + j0;
      block_stride = col;
    } else {
      for (std::int64_t k = 0; k < kBlock; ++k)
        for (std::int64_t c = 0; c < d; ++c) copied[c * kBlock + k] = k < width ? keys[(j0 + k) * pos + c * col] : T(0);
    }
    const T* block_bias = bias != nullptr ? bias + j0 : nullptr;
    std::int64_t i = 0;
    for (; i + 4 <= m; i += 4)
      score_block<T, kBlock, 4>(queries + i, block, block_stride, d, block_bias, scale, width, raw + i, j0);
    if (i + 2 <= m) {
      score_block<T, kBlock, 2>(queries + i, block, block_stride, d, block_bias, scale, width, raw + i, j0);
      i += 2;
    }
    if (i < m) score_block<T, kBlock, 1>(queries + i, block, block_stride, d, block_bias, scale, width, raw + i, j0);
  }
}

// out += sum_j probs[j] * values[j], skipping zero weights (padding, future keys: whatever their
// values hold). The sums stay in registers, one vector of columns at a time with two keys in
// flight: adding each key straight into `out` made every key wait for the store of the one before.
template <typename T>
__attribute__((always_inline)) inline void weigh_row(const T* probs, const T* values, std::int64_t stride,
                                                     std::int64_t count, std::int64_t d, T* out) {
  constexpr std::int64_t kLanes = 64 / sizeof(T);  // one 512-bit register (two 256-bit ones)
  std::int64_t c = 0;
  for (; c + kLanes <= d; c += kLanes) {
    T even[kLanes] = {}, odd[kLanes] = {};
    std::int64_t j = 0;
    for (; j + 2 <= count; j += 2) {
      const T* v = values + j * stride + c;
      if (probs[j] != T(0))
        for (std::int64_t k = 0; k < kLanes; ++k) even[k] += probs[j] * v[k];
      if (probs[j + 1] != T(0))
        for (std::int64_t k = 0; k < kLanes; ++k) odd[k] += probs[j + 1] * v[stride + k];
    }
    if (j < count && probs[j] != T(0))
      for (std::int64_t k = 0; k < kLanes; ++k) even[k] += probs[j] * values[j * stride + c + k];
    for (std::int64_t k = 0; k < kLanes; ++k) out[c + k] += even[k] + odd[k];
  }
  if (c < d)  // the last d % kLanes columns
    for (std::int64_t j = 0; j < count; ++j)
      if (probs[j] != T(0)) axpy(probs[j], values + j * stride + c, out + c, d - c);
}

// weigh_row for kWeighQueries queries that read the same values: each value vector is loaded once
// for all of them (from L2 for the longer rows: a sample's 1,000 keys of 32 floats outgrow L1), and
// the queries' sums make more independent chains of FMAs. Each query keeps weigh_row's two sums,
// order and zero-weight skips, so its output is weigh_row's bit for bit.
constexpr int kWeighQueries = 4;

template <typename T, std::int64_t kLanes>
__attribute__((always_inline)) inline void weigh_key(const T* const* probs, std::int64_t j, const T* v,
                                                     T (&sums)[kWeighQueries][kLanes]) {
  T value[kLanes];
  for (std::int64_t k = 0; k < kLanes; ++k) value[k] = v[k];
#pragma GCC unroll 8
  for (int q = 0; q < kWeighQueries; ++q) {
    const T w = probs[q][j];
    if (w != T(0))
      for (std::int64_t k = 0; k < kLanes; ++k) sums[q][k] += w * value[k];
  }
}

template <typename T>
__attribute__((always_inline)) inline void weigh_rows(const T* const* probs, const T* values, std::int64_t stride,
                                                      std::int64_t count, std::int64_t d, T* const* outs) {
  constexpr std::int64_t kLanes = 64 / sizeof(T);
  std::int64_t c = 0;
  for (; c + kLanes <= d; c += kLanes) {
    T even[kWeighQueries][kLanes] = {}, odd[kWeighQueries][kLanes] = {};
    std::int64_t j = 0;
    for (; j + 2 <= count; j += 2) {
      weigh_key<T, kLanes>(probs, j, values + j * stride + c, even);
      weigh_key<T, kLanes>(probs, j + 1, values + (j + 1) * stride + c, odd);
    }
    if (j < count) weigh_key<T, kLanes>(probs, j, values + j * stride + c, even);
    for (int q = 0; q < kWeighQueries; ++q)
      for (std::int64_t k = 0; k < kLanes; ++k) outs[q][c + k] += even[q][k] + odd[q][k];
  }
  if (c < d)  // the last d % kLanes columns
    for (int q = 0; q < kWeighQueries; ++q)
      for (std::int64_t j = 0; j < count; ++j)
        if (probs[q][j] != T(0)) axpy(probs[q][j], values + j * stride + c, outs[q] + c, d - c);
}

// Many queries against the same values: kWeighQueries at a time, the rest one by one.
template <typename T>
__attribute__((always_inline)) inline void weigh_tiled(const T* const* probs, std::int64_t m, const T* values,
                                                       std::int64_t stride, std::int64_t count, std::int64_t d,
                                                       T* const* outs) {
  std::int64_t i = 0;
  for (; i + kWeighQueries <= m; i += kWeighQueries) weigh_rows(probs + i, values, stride, count, d, outs + i);
  for (; i < m; ++i) weigh_row(probs[i], values, stride, count, d, outs[i]);
}

// Element strides of a (B or R, Hkv, positions, D) tensor of keys or values.
struct MatrixStrides {
  std::int64_t outer, head, pos, col;
};

MatrixStrides strides_of(const torch::Tensor& t) { return {t.stride(0), t.stride(1), t.stride(2), t.stride(3)}; }

// What both passes read and write; `scores` holds the raw scores in the first pass and the
// probabilities in the second. q and out are (R, T, H, D) contiguous.
template <typename T>
struct KernelArgs {
  Dims s;
  std::int64_t q_row, q_token;
  MatrixStrides prefix_k, prefix_v, sample_k, sample_v;  // values: col 1
  const T *q, *prefix_k_data, *prefix_v_data, *sample_k_data, *sample_v_data;
  const T* bias;                       // (B, P)
  const std::int64_t *visible, *real;  // (R, T) and (R,)
  T scale;
  T *scores, *out;

  const T* prompt_keys(std::int64_t b, std::int64_t hk) const {
    return prefix_k_data + b * prefix_k.outer + hk * prefix_k.head;
  }
  const T* prompt_values(std::int64_t b, std::int64_t hk) const {
    return prefix_v_data + b * prefix_v.outer + hk * prefix_v.head;
  }
  const T* own_keys(std::int64_t r, std::int64_t hk) const {
    return sample_k_data + r * sample_k.outer + hk * sample_k.head;
  }
  const T* own_values(std::int64_t r, std::int64_t hk) const {
    return sample_v_data + r * sample_v.outer + hk * sample_v.head;
  }
};

// Below this many queries per set of keys, copying a transposed block costs more than it saves
// (keys stored position-major need no copy, and are tiled for any number). Counted with the
// padding, so that a query's arithmetic does not depend on how many others are real.
constexpr std::int64_t kTiledQueries = 4;

bool tiles(const Dims& s, const MatrixStrides& keys, std::int64_t queries) {
  return s.d <= kMaxTiledHead && (keys.pos == 1 || queries >= kTiledQueries);
}

// Offset of the scores row of new token i, query group g, sample n of task `item`: scores are
// (B, Hkv, N, G, T, P + L).
std::int64_t scores_row(const Dims& s, std::int64_t item, std::int64_t n, std::int64_t g, std::int64_t i) {
  return (((item * s.n + n) * s.groups + g) * s.t + i) * (s.p + s.total);
}

// One task's new tokens, (prompt b, kv head hk), padding (i >= real[r]) left out, in the scores'
// order (n, g, i): each one's offset in q and out (they share a layout) and of its scores row;
// `first[n]` is sample n's first entry, `first[N]` the count; `seen[n]` the most own keys any of
// sample n's real tokens sees (keys past it have zero weight for all of them).
struct TaskQueries {
  std::vector<std::int64_t> heads, rows, seen;
  std::vector<std::size_t> first;
};

template <typename T>
TaskQueries task_queries(const KernelArgs<T>& a, std::int64_t item) {
  const auto& s = a.s;
  const auto b = item / s.kv_heads, hk = item % s.kv_heads;
  TaskQueries task;
  task.first.reserve(s.n + 1);
  for (std::int64_t n = 0; n < s.n; ++n) {
    const auto r = b * s.n + n;
    const std::int64_t* row_visible = a.visible + r * s.t;
    task.first.push_back(task.heads.size());
    task.seen.push_back(a.real[r] > 0 ? *std::max_element(row_visible, row_visible + a.real[r]) : 0);
    for (std::int64_t g = 0; g < s.groups; ++g)
      for (std::int64_t i = 0; i < a.real[r]; ++i) {
        task.heads.push_back(r * a.q_row + i * a.q_token + (hk * s.groups + g) * s.d);
        task.rows.push_back(scores_row(s, item, n, g, i));
      }
  }
  task.first.push_back(task.heads.size());
  return task;
}

template <typename P, typename T>
std::vector<P> offset_pointers(T* base, const std::vector<std::int64_t>& offsets) {
  std::vector<P> pointers;
  pointers.reserve(offsets.size());
  for (const auto offset : offsets) pointers.push_back(base + offset);
  return pointers;
}

// Both tasks are inlined into the entry points below, whose target clones vectorize them (a
// template compiled on its own gets the baseline's 128-bit instructions only).
template <typename T>
__attribute__((always_inline)) inline void score_task(const KernelArgs<T>& a, std::int64_t item) {
  constexpr T kMinusInf = -std::numeric_limits<T>::infinity();
  const auto& s = a.s;
  const auto b = item / s.kv_heads, hk = item % s.kv_heads, width = s.p + s.total;
  const auto task = task_queries(a, item);
  const auto queries = offset_pointers<const T*>(a.q, task.heads);
  auto rows = offset_pointers<T*>(a.scores, task.rows);
  // A padding token's scores row is zeros: the softmax reads every row, the values pass skips it.
  for (std::int64_t n = 0; n < s.n; ++n)
    for (std::int64_t g = 0; g < s.groups; ++g)
      for (std::int64_t i = a.real[b * s.n + n]; i < s.t; ++i) {
        T* row = a.scores + scores_row(s, item, n, g, i);
        std::fill(row, row + width, T(0));
      }
  // The prompt's keys: every query of its N samples at once.
  const T* keys = a.prompt_keys(b, hk);  // (P, D)
  const T* prompt_bias = a.bias + b * s.p;
  const auto count = static_cast<std::int64_t>(queries.size());
  if (tiles(s, a.prefix_k, s.n * s.groups * s.t)) {
    score_tiled(queries.data(), count, keys, a.prefix_k.pos, a.prefix_k.col, s.p, s.d, prompt_bias, a.scale,
                rows.data());
  } else {
    for (std::int64_t k = 0; k < count; ++k)
      score_row(queries[k], keys, a.prefix_k.pos, s.p, s.p, prompt_bias, a.scale, s.d, rows[k]);
  }
  // Each sample's own keys: its G * T queries, up to the most any of them sees.
  const bool tiled = tiles(s, a.sample_k, s.groups * s.t);
  std::vector<T*> own_rows;
  for (std::int64_t n = 0; n < s.n; ++n) {
    const auto r = b * s.n + n, real = a.real[r];
    const T* own = a.own_keys(r, hk);  // (L, D)
    const std::int64_t* row_visible = a.visible + r * s.t;
    const auto begin = task.first[n], end = task.first[n + 1];
    if (begin == end) continue;  // a finished row: padding only
    if (tiled) {
      own_rows.clear();
      for (auto k = begin; k < end; ++k) own_rows.push_back(rows[k] + s.p);
      score_tiled(queries.data() + begin, static_cast<std::int64_t>(end - begin), own, a.sample_k.pos, a.sample_k.col,
                  task.seen[n], s.d, static_cast<const T*>(nullptr), a.scale, own_rows.data());
      for (std::int64_t g = 0; g < s.groups; ++g)
        for (std::int64_t i = 0; i < real; ++i) {
          T* row = rows[begin + g * real + i] + s.p;
          std::fill(row + row_visible[i], row + s.total, kMinusInf);  // keys not yet generated for it
        }
    } else {
      for (std::int64_t g = 0; g < s.groups; ++g)
        for (std::int64_t i = 0; i < real; ++i)
          score_row(queries[begin + g * real + i], own, a.sample_k.pos, s.total, row_visible[i],
                    static_cast<const T*>(nullptr), a.scale, s.d, rows[begin + g * real + i] + s.p);
    }
  }
}

template <typename T>
__attribute__((always_inline)) inline void weigh_task(const KernelArgs<T>& a, std::int64_t item) {
  const auto& s = a.s;
  const auto b = item / s.kv_heads, hk = item % s.kv_heads;
  const auto task = task_queries(a, item);
  const auto rows = offset_pointers<const T*>(a.scores, task.rows);  // the probabilities
  auto outs = offset_pointers<T*>(a.out, task.heads);
  weigh_tiled(rows.data(), static_cast<std::int64_t>(rows.size()), a.prompt_values(b, hk), a.prefix_v.pos, s.p, s.d,
              outs.data());
  std::vector<const T*> own_probs;
  for (std::int64_t n = 0; n < s.n; ++n) {
    const auto r = b * s.n + n;
    const auto begin = task.first[n], end = task.first[n + 1];
    if (begin == end) continue;
    own_probs.clear();
    for (auto k = begin; k < end; ++k) own_probs.push_back(rows[k] + s.p);
    weigh_tiled(own_probs.data(), static_cast<std::int64_t>(end - begin), a.own_values(r, hk), a.sample_v.pos,
                task.seen[n], s.d, outs.data() + begin);
  }
}

// Non-template entry points, so that each gets its target clones.
FALCON_VECTOR_CLONES void score_tasks_float(const KernelArgs<float>& a, std::int64_t begin, std::int64_t end) {
  for (auto item = begin; item < end; ++item) score_task(a, item);
}
FALCON_VECTOR_CLONES void score_tasks_double(const KernelArgs<double>& a, std::int64_t begin, std::int64_t end) {
  for (auto item = begin; item < end; ++item) score_task(a, item);
}
FALCON_VECTOR_CLONES void weigh_tasks_float(const KernelArgs<float>& a, std::int64_t begin, std::int64_t end) {
  for (auto item = begin; item < end; ++item) weigh_task(a, item);
}
FALCON_VECTOR_CLONES void weigh_tasks_double(const KernelArgs<double>& a, std::int64_t begin, std::int64_t end) {
  for (auto item = begin; item < end; ++item) weigh_task(a, item);
}

void score_tasks(const KernelArgs<float>& a, std::int64_t begin, std::int64_t end) {
  score_tasks_float(a, begin, end);
}
void score_tasks(const KernelArgs<double>& a, std::int64_t begin, std::int64_t end) {
  score_tasks_double(a, begin, end);
}
void weigh_tasks(const KernelArgs<float>& a, std::int64_t begin, std::int64_t end) {
  weigh_tasks_float(a, begin, end);
}
void weigh_tasks(const KernelArgs<double>& a, std::int64_t begin, std::int64_t end) {
  weigh_tasks_double(a, begin, end);
}

// Keys as the loops read them: columns contiguous, or positions contiguous (a KvCache's layout,
// read in place by the tiled scores); anything else is copied.
torch::Tensor readable_keys(const Dims& s, const torch::Tensor& keys) {
  if (keys.stride(3) == 1 || (keys.stride(2) == 1 && s.d <= kMaxTiledHead)) return keys;
  return keys.contiguous();
}
torch::Tensor readable_values(const torch::Tensor& values) {
  return values.stride(3) == 1 ? values : values.contiguous();
}

template <typename T>
torch::Tensor run_kernel(const Dims& s, const CachedAttentionInputs& in) {
  const auto q = in.q.contiguous();
  const auto prefix_k = readable_keys(s, in.prefix_k), prefix_v = readable_values(in.prefix_v);
  const auto sample_k = readable_keys(s, in.sample_k), sample_v = readable_values(in.sample_v);
  const auto bias = in.prefix_bias.to(q.scalar_type()).contiguous();  // (B, P)
  const auto visible = visible_sample_keys(s, in);                     // (R, T) int64
  const auto real = real_sample_tokens(s, in);                         // (R,) int64
  const auto width = s.p + s.total;
  auto scores = torch::empty({s.prompts, s.kv_heads, s.n, s.groups, s.t, width}, q.options());  // (B, Hkv, N, G, T, S)
  auto out = torch::zeros_like(q);                                                              // (R, T, H, D)
  KernelArgs<T> args{s,
                     q.stride(0),
                     q.stride(1),
                     strides_of(prefix_k),
                     strides_of(prefix_v),
                     strides_of(sample_k),
                     strides_of(sample_v),
                     q.data_ptr<T>(),
                     prefix_k.data_ptr<T>(),
                     prefix_v.data_ptr<T>(),
                     sample_k.data_ptr<T>(),
                     sample_v.data_ptr<T>(),
                     bias.data_ptr<T>(),
                     visible.data_ptr<std::int64_t>(),
                     real.data_ptr<std::int64_t>(),
                     static_cast<T>(1.0 / std::sqrt(static_cast<double>(s.d))),
                     scores.data_ptr<T>(),
                     out.data_ptr<T>()};
  const auto items = s.prompts * s.kv_heads;
  at::parallel_for(0, items, 1, [&](std::int64_t begin, std::int64_t end) { score_tasks(args, begin, end); });
  const auto probs = torch::softmax(scores, -1);  // rows of -inf cannot occur: every query sees its own key
  args.scores = probs.data_ptr<T>();
  at::parallel_for(0, items, 1, [&](std::int64_t begin, std::int64_t end) { weigh_tasks(args, begin, end); });
  return out;
}

}  // namespace

bool cached_attention_kernel_applies(const CachedAttentionInputs& in) {
  const auto type = in.q.scalar_type();
  const bool wants_grad = torch::GradMode::is_enabled() &&
                          (in.q.requires_grad() || in.prefix_k.requires_grad() || in.prefix_v.requires_grad() ||
                           in.sample_k.requires_grad() || in.sample_v.requires_grad());
  bool same_type = true;
  for (const auto* tensor : {&in.prefix_k, &in.prefix_v, &in.sample_k, &in.sample_v})
    same_type = same_type && tensor->scalar_type() == type && tensor->device().is_cpu();
  return in.q.device().is_cpu() && (type == torch::kFloat || type == torch::kDouble) && !wants_grad && same_type;
}

torch::Tensor cached_attention_kernel(const CachedAttentionInputs& in) {
  RECORD_FUNCTION("falcon::cached_attention_kernel", std::vector<c10::IValue>());  // named in profiles
  const auto s = dims_of(in);
  if (!cached_attention_kernel_applies(in))
    throw Error("cached_attention_kernel: needs CPU float or double tensors without gradients; use "
                "cached_attention_ops");
  return in.q.scalar_type() == torch::kFloat ? run_kernel<float>(s, in) : run_kernel<double>(s, in);
}

torch::Tensor cached_attention(const CachedAttentionInputs& in) {
  return cached_attention_kernel_applies(in) ? cached_attention_kernel(in) : cached_attention_ops(in);
}

}  // namespace falcon::model
