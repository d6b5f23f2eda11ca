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
// heads), ATen's softmax over them, and the probability-weighted sum of values (loops again).

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
// be null) for j < count. A block of kBlock keys at a time is copied transposed (head size x
// kBlock), so that each product runs along the keys in one vector register with no horizontal sum
// per (query, key); two queries at a time keep two independent chains of FMAs in flight.
constexpr std::int64_t kMaxTiledHead = 256;  // the transposed block lives on the stack

// One block's scores of a query: raw[k] = scale * a[k] + bias[k] (-inf where bias is -inf, whatever
// a holds), for `width` keys; whole blocks in one vector pass.
template <typename T, std::int64_t kBlock>
__attribute__((always_inline)) inline void store_block(const T* a, T scale, const T* bias, std::int64_t width,
                                                       T* raw) {
  constexpr T kMinusInf = -std::numeric_limits<T>::infinity();
  if (width == kBlock) {
    if (bias == nullptr) {
      for (std::int64_t k = 0; k < kBlock; ++k) raw[k] = a[k] * scale;
    } else {
      for (std::int64_t k = 0; k < kBlock; ++k) raw[k] = bias[k] == kMinusInf ? kMinusInf : a[k] * scale + bias[k];
    }
    return;
  }
  for (std::int64_t k = 0; k < width; ++k)
    raw[k] = bias == nullptr ? a[k] * scale : (bias[k] == kMinusInf ? kMinusInf : a[k] * scale + bias[k]);
}

template <typename T>
__attribute__((always_inline)) inline void score_tiled(const T* const* queries, std::int64_t m, const T* keys,
                                                       std::int64_t stride, std::int64_t count, std::int64_t d,
                                                       const T* bias, T scale, T* const* raw) {
  constexpr std::int64_t kBlock = 64 / sizeof(T);  // one 512-bit register of keys
  alignas(64) T block[kMaxTiledHead * kBlock];     // (D, kBlock)
  for (std::int64_t j0 = 0; j0 < count; j0 += kBlock) {
    const auto width = std::min(kBlock, count - j0);
    if (width == kBlock) {
      for (std::int64_t k = 0; k < kBlock; ++k)
        for (std::int64_t c = 0; c < d; ++c) block[c * kBlock + k] = keys[(j0 + k) * stride + c];
    } else {
      for (std::int64_t k = 0; k < kBlock; ++k)
        for (std::int64_t c = 0; c < d; ++c) block[c * kBlock + k] = k < width ? keys[(j0 + k) * stride + c] : T(0);
    }
    const T* block_bias = bias != nullptr ? bias + j0 : nullptr;
    std::int64_t i = 0;
    for (; i + 2 <= m; i += 2) {
      const T *q0 = queries[i], *q1 = queries[i + 1];
      T a0[kBlock] = {}, a1[kBlock] = {};
      for (std::int64_t c = 0; c < d; ++c) {
        const T* keys_c = block + c * kBlock;
        for (std::int64_t k = 0; k < kBlock; ++k) {
          a0[k] += q0[c] * keys_c[k];
          a1[k] += q1[c] * keys_c[k];
        }
      }
      store_block<T, kBlock>(a0, scale, block_bias, width, raw[i] + j0);
      store_block<T, kBlock>(a1, scale, block_bias, width, raw[i + 1] + j0);
    }
    if (i < m) {
      const T* q0 = queries[i];
      T a0[kBlock] = {};
      for (std::int64_t c = 0; c < d; ++c)
        for (std::int64_t k = 0; k < kBlock; ++k) a0[k] += q0[c] * block[c * kBlock + k];
      store_block<T, kBlock>(a0, scale, block_bias, width, raw[i] + j0);
    }
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

// Strides in elements of the tensors one task touches.
struct Layout {
  std::int64_t q_row, q_token;                // q (R, T, H, D): row, token strides (head stride D)
  std::int64_t sample_row, sample_head, sample_pos;  // sample_k / sample_v (same strides)
  std::int64_t scores_token;                  // scores (B, Hkv, N, G, T, S): S = P + L
};

// Below this many queries per set of keys the transposed block costs more than it saves.
constexpr std::int64_t kTiledQueries = 4;

// Both tasks are inlined into the entry points below, whose target clones vectorize them (a
// template compiled on its own gets the baseline's 128-bit instructions only).
template <typename T>
__attribute__((always_inline)) inline void score_task(const Dims& s, const Layout& l, std::int64_t item, const T* q,
                                                      const T* prefix_k, const T* sample_k, const T* bias,
                                                      const std::int64_t* visible, T scale, T* scores) {
  constexpr T kMinusInf = -std::numeric_limits<T>::infinity();
  const auto b = item / s.kv_heads, hk = item % s.kv_heads, width = s.p + s.total;
  const T* keys = prefix_k + item * s.p * s.d;  // (P, D) of prompt b, kv head hk
  const T* prompt_bias = bias + b * s.p;
  T* task_scores = scores + item * s.n * s.groups * s.t * width;
  const bool tiled = s.d <= kMaxTiledHead;
  // Score rows in the scores' order (n, g, i), each with its query.
  auto query_of = [&](std::int64_t n, std::int64_t g, std::int64_t i) {
    return q + (b * s.n + n) * l.q_row + i * l.q_token + (hk * s.groups + g) * s.d;
  };
  auto scores_of = [&](std::int64_t n, std::int64_t g, std::int64_t i) {
    return task_scores + ((n * s.groups + g) * s.t + i) * width;
  };
  // The prompt's keys: every query of its N samples at once.
  const auto prompt_queries = s.n * s.groups * s.t;
  if (tiled && prompt_queries >= kTiledQueries) {
    std::vector<const T*> queries;
    std::vector<T*> rows;
    queries.reserve(prompt_queries);
    rows.reserve(prompt_queries);
    for (std::int64_t n = 0; n < s.n; ++n)
      for (std::int64_t g = 0; g < s.groups; ++g)
        for (std::int64_t i = 0; i < s.t; ++i) {
          queries.push_back(query_of(n, g, i));
          rows.push_back(scores_of(n, g, i));
        }
    score_tiled(queries.data(), prompt_queries, keys, s.d, s.p, s.d, prompt_bias, scale, rows.data());
  } else {
    for (std::int64_t n = 0; n < s.n; ++n)
      for (std::int64_t g = 0; g < s.groups; ++g)
        for (std::int64_t i = 0; i < s.t; ++i)
          score_row(query_of(n, g, i), keys, s.d, s.p, s.p, prompt_bias, scale, s.d, scores_of(n, g, i));
  }
  // Each sample's own keys: its G * T queries, up to the most any of them sees.
  const auto own_queries = s.groups * s.t;
  for (std::int64_t n = 0; n < s.n; ++n) {
    const auto r = b * s.n + n;
    const T* own = sample_k + r * l.sample_row + hk * l.sample_head;
    const std::int64_t* row_visible = visible + r * s.t;
    if (tiled && own_queries >= kTiledQueries) {
      std::vector<const T*> queries;
      std::vector<T*> rows;
      for (std::int64_t g = 0; g < s.groups; ++g)
        for (std::int64_t i = 0; i < s.t; ++i) {
          queries.push_back(query_of(n, g, i));
          rows.push_back(scores_of(n, g, i) + s.p);
        }
      const auto seen = *std::max_element(row_visible, row_visible + s.t);
      score_tiled(queries.data(), own_queries, own, l.sample_pos, seen, s.d, static_cast<const T*>(nullptr), scale,
                  rows.data());
      for (std::int64_t g = 0; g < s.groups; ++g)
        for (std::int64_t i = 0; i < s.t; ++i) {
          T* row = scores_of(n, g, i) + s.p;
          std::fill(row + row_visible[i], row + s.total, kMinusInf);  // keys not yet generated for it
        }
    } else {
      for (std::int64_t g = 0; g < s.groups; ++g)
        for (std::int64_t i = 0; i < s.t; ++i)
          score_row(query_of(n, g, i), own, l.sample_pos, s.total, row_visible[i], static_cast<const T*>(nullptr),
                    scale, s.d, scores_of(n, g, i) + s.p);
    }
  }
}

template <typename T>
__attribute__((always_inline)) inline void weigh_task(const Dims& s, const Layout& l, std::int64_t item,
                                                      const T* probs, const T* prefix_v, const T* sample_v, T* out) {
  const auto b = item / s.kv_heads, hk = item % s.kv_heads, width = s.p + s.total;
  const T* values = prefix_v + item * s.p * s.d;
  const T* row_probs = probs + item * s.n * s.groups * s.t * width;
  for (std::int64_t n = 0; n < s.n; ++n) {
    const auto r = b * s.n + n;
    const T* own = sample_v + r * l.sample_row + hk * l.sample_head;
    for (std::int64_t g = 0; g < s.groups; ++g)
      for (std::int64_t i = 0; i < s.t; ++i, row_probs += width) {
        T* o = out + r * l.q_row + i * l.q_token + (hk * s.groups + g) * s.d;  // out has q's layout
        weigh_row(row_probs, values, s.d, s.p, s.d, o);
        weigh_row(row_probs + s.p, own, l.sample_pos, s.total, s.d, o);
      }
  }
}

// Non-template entry points, so that each gets its target clones.
FALCON_VECTOR_CLONES void score_tasks_float(const Dims& s, const Layout& l, std::int64_t begin, std::int64_t end,
                                            const float* q, const float* pk, const float* sk, const float* bias,
                                            const std::int64_t* visible, float scale, float* scores) {
  for (auto item = begin; item < end; ++item) score_task(s, l, item, q, pk, sk, bias, visible, scale, scores);
}
FALCON_VECTOR_CLONES void score_tasks_double(const Dims& s, const Layout& l, std::int64_t begin, std::int64_t end,
                                             const double* q, const double* pk, const double* sk, const double* bias,
                                             const std::int64_t* visible, double scale, double* scores) {
  for (auto item = begin; item < end; ++item) score_task(s, l, item, q, pk, sk, bias, visible, scale, scores);
}
FALCON_VECTOR_CLONES void weigh_tasks_float(const Dims& s, const Layout& l, std::int64_t begin, std::int64_t end,
                                            const float* probs, const float* pv, const float* sv, float* out) {
  for (auto item = begin; item < end; ++item) weigh_task(s, l, item, probs, pv, sv, out);
}
FALCON_VECTOR_CLONES void weigh_tasks_double(const Dims& s, const Layout& l, std::int64_t begin, std::int64_t end,
                                             const double* probs, const double* pv, const double* sv, double* out) {
  for (auto item = begin; item < end; ++item) weigh_task(s, l, item, probs, pv, sv, out);
}

void score_tasks(const Dims& s, const Layout& l, std::int64_t begin, std::int64_t end, const float* q,
                 const float* pk, const float* sk, const float* bias, const std::int64_t* visible, float scale,
                 float* scores) {
  score_tasks_float(s, l, begin, end, q, pk, sk, bias, visible, scale, scores);
}
void score_tasks(const Dims& s, const Layout& l, std::int64_t begin, std::int64_t end, const double* q,
                 const double* pk, const double* sk, const double* bias, const std::int64_t* visible, double scale,
                 double* scores) {
  score_tasks_double(s, l, begin, end, q, pk, sk, bias, visible, scale, scores);
}
void weigh_tasks(const Dims& s, const Layout& l, std::int64_t begin, std::int64_t end, const float* probs,
                 const float* pv, const float* sv, float* out) {
  weigh_tasks_float(s, l, begin, end, probs, pv, sv, out);
}
void weigh_tasks(const Dims& s, const Layout& l, std::int64_t begin, std::int64_t end, const double* probs,
                 const double* pv, const double* sv, double* out) {
  weigh_tasks_double(s, l, begin, end, probs, pv, sv, out);
}

template <typename T>
torch::Tensor run_kernel(const Dims& s, const CachedAttentionInputs& in) {
  const auto q = in.q.contiguous();
  const auto prefix_k = in.prefix_k.contiguous(), prefix_v = in.prefix_v.contiguous();
  const auto bias = in.prefix_bias.to(q.scalar_type()).contiguous();  // (B, P)
  const auto visible = visible_sample_keys(s, in);                     // (R, T) int64
  auto sample_k = in.sample_k, sample_v = in.sample_v;
  if (sample_k.stride(3) != 1 || sample_v.strides() != sample_k.strides()) {
    sample_k = sample_k.contiguous();
    sample_v = sample_v.contiguous();
  }
  const Layout layout{q.stride(0), q.stride(1), sample_k.stride(0), sample_k.stride(1), sample_k.stride(2), 0};
  const auto items = s.prompts * s.kv_heads;
  const auto width = s.p + s.total;
  auto scores = torch::empty({s.prompts, s.kv_heads, s.n, s.groups, s.t, width}, q.options());  // (B, Hkv, N, G, T, S)
  const T scale = static_cast<T>(1.0 / std::sqrt(static_cast<double>(s.d)));
  at::parallel_for(0, items, 1, [&](std::int64_t begin, std::int64_t end) {
    score_tasks(s, layout, begin, end, q.data_ptr<T>(), prefix_k.data_ptr<T>(), sample_k.data_ptr<T>(),
                bias.data_ptr<T>(), visible.data_ptr<std::int64_t>(), scale, scores.data_ptr<T>());
  });
  const auto probs = torch::softmax(scores, -1);  // rows of -inf cannot occur: every query sees its own key
  auto out = torch::zeros_like(q);                // (R, T, H, D)
  at::parallel_for(0, items, 1, [&](std::int64_t begin, std::int64_t end) {
    weigh_tasks(s, layout, begin, end, probs.data_ptr<T>(), prefix_v.data_ptr<T>(), sample_v.data_ptr<T>(),
                out.data_ptr<T>());
  });
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
