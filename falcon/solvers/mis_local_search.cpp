#include "falcon/solvers/mis_local_search.h"

#include <algorithm>

namespace falcon::solvers {
namespace {

// Covers up to this size are scanned for the vertex to remove (NuMVC); larger ones sample
// kSamples vertices (FastVC's BMS, Cai 2017). The benchmark graphs (n <= 450) always scan.
constexpr int kFullScanLimit = 512;
constexpr int kSamples = 50;

}  // namespace

NuMvc::NuMvc(const problems::Graph& g, const std::vector<int>& start_set, const NuMvcOptions& options)
    : n_(g.n), m_(g.m()), rho_(options.rho), rng_(options.seed) {
  const auto nn = static_cast<std::size_t>(n_);
  const auto mm = static_cast<std::size_t>(m_);
  eu_.resize(mm);
  ev_.resize(mm);
  offsets_.assign(nn + 1, 0);
  for (int e = 0; e < m_; ++e) {
    eu_[e] = g.edges[e].first;
    ev_[e] = g.edges[e].second;
    ++offsets_[eu_[e] + 1];
    ++offsets_[ev_[e] + 1];
  }
  for (int v = 0; v < n_; ++v) offsets_[v + 1] += offsets_[v];
  nbr_.resize(2 * mm);
  inc_.resize(2 * mm);
  std::vector<int> cursor(offsets_.begin(), offsets_.end() - 1);
  for (int e = 0; e < m_; ++e) {
    nbr_[cursor[eu_[e]]] = ev_[e];
    inc_[cursor[eu_[e]]++] = e;
    nbr_[cursor[ev_[e]]] = eu_[e];
    inc_[cursor[ev_[e]]++] = e;
  }
  weight_.assign(mm, 1);
  total_weight_ = m_;
  // Configuration checking's gamma = n/2 (the paper's setting); at least 2 so that tiny graphs
  // do not scale every step.
  forget_threshold_ = std::max(2LL, static_cast<long long>(options.gamma_per_vertex * n_));
  dscore_.assign(nn, 0);
  conf_change_.assign(nn, 1);
  age_.assign(nn, 0);
  uncovered_pos_.assign(mm, -1);
  cover_pos_.assign(nn, -1);
  in_cover_.assign(nn, 1);
  for (int v : start_set) in_cover_[v] = 0;
  for (int v = 0; v < n_; ++v) {
    if (in_cover_[v]) {
      cover_pos_[v] = static_cast<int>(cover_.size());
      cover_.push_back(v);
    }
  }
  for (int e = 0; e < m_; ++e) {
    const bool a = in_cover_[eu_[e]], b = in_cover_[ev_[e]];
    if (!a && !b) {  // only if start_set was not independent; kept correct regardless
      dscore_[eu_[e]] += 1;
      dscore_[ev_[e]] += 1;
      uncovered_pos_[e] = static_cast<int>(uncovered_.size());
      uncovered_.push_back(e);
    } else if (a != b) {
      dscore_[a ? eu_[e] : ev_[e]] -= 1;  // removing that end would uncover e
    }
  }
  best_in_cover_ = in_cover_;
  best_cover_size_ = uncovered_.empty() ? static_cast<int>(cover_.size()) : n_;
  if (!uncovered_.empty()) std::fill(best_in_cover_.begin(), best_in_cover_.end(), 1);
}

void NuMvc::add(int v) {
  in_cover_[v] = 1;
  dscore_[v] = -dscore_[v];
  cover_pos_[v] = static_cast<int>(cover_.size());
  cover_.push_back(v);
  for (int s = offsets_[v]; s < offsets_[v + 1]; ++s) {
    const int u = nbr_[s], e = inc_[s];
    if (!in_cover_[u]) {
      dscore_[u] -= weight_[e];
      conf_change_[u] = 1;
      const int last = uncovered_.back(), pos = uncovered_pos_[e];
      uncovered_[pos] = last;
      uncovered_pos_[last] = pos;
      uncovered_.pop_back();
      uncovered_pos_[e] = -1;
    } else {
      dscore_[u] += weight_[e];
    }
  }
}

void NuMvc::remove(int v) {
  in_cover_[v] = 0;
  dscore_[v] = -dscore_[v];
  conf_change_[v] = 0;
  const int last = cover_.back(), pos = cover_pos_[v];
  cover_[pos] = last;
  cover_pos_[last] = pos;
  cover_.pop_back();
  cover_pos_[v] = -1;
  for (int s = offsets_[v]; s < offsets_[v + 1]; ++s) {
    const int u = nbr_[s], e = inc_[s];
    if (!in_cover_[u]) {
      dscore_[u] += weight_[e];
      conf_change_[u] = 1;
      uncovered_pos_[e] = static_cast<int>(uncovered_.size());
      uncovered_.push_back(e);
    } else {
      dscore_[u] -= weight_[e];
    }
  }
}

int NuMvc::highest_dscore_in_cover(bool skip_tabu) {
  int best = -1;
  auto consider = [&](int v) {
    if (skip_tabu && v == tabu_) return;
    if (best < 0 || dscore_[v] > dscore_[best] || (dscore_[v] == dscore_[best] && age_[v] < age_[best])) best = v;
  };
  if (static_cast<int>(cover_.size()) <= kFullScanLimit) {
    for (int v : cover_) consider(v);
  } else {
    // FastVC's best-from-multiple-selection: the scan would make a step O(n) on large graphs.
    for (int i = 0; i < kSamples; ++i) consider(cover_[rng_.uniform_int(0, static_cast<int>(cover_.size()) - 1)]);
  }
  return best < 0 ? tabu_ : best;
}

void NuMvc::bump_weights() {
  for (int e : uncovered_) {
    ++weight_[e];
    ++dscore_[eu_[e]];
    ++dscore_[ev_[e]];
  }
  total_weight_ += static_cast<long long>(uncovered_.size());
  if (total_weight_ >= forget_threshold_ * m_) forget_weights();
}

void NuMvc::forget_weights() {
  std::fill(dscore_.begin(), dscore_.end(), 0);
  total_weight_ = 0;
  for (int e = 0; e < m_; ++e) {
    weight_[e] = static_cast<int>(weight_[e] * rho_);  // rounded down as in NuMVC
    total_weight_ += weight_[e];
    const bool a = in_cover_[eu_[e]], b = in_cover_[ev_[e]];
    if (!a && !b) {
      dscore_[eu_[e]] += weight_[e];
      dscore_[ev_[e]] += weight_[e];
    } else if (a != b) {
      dscore_[a ? eu_[e] : ev_[e]] -= weight_[e];
    }
  }
}

void NuMvc::record_best() {
  best_cover_size_ = static_cast<int>(cover_.size());
  best_in_cover_ = in_cover_;
}

long long NuMvc::run(long long steps, int target, std::chrono::steady_clock::time_point deadline) {
  long long done = 0;
  while (true) {
    if (uncovered_.empty()) {
      // A cover of size k: keep it, then look for one of size k - 1.
      if (static_cast<int>(cover_.size()) < best_cover_size_) record_best();
      if (n_ - best_cover_size_ >= target || cover_.empty()) break;
      remove(highest_dscore_in_cover(/*skip_tabu=*/false));
      continue;
    }
    if (done >= steps) break;
    if ((done & 1023) == 0 && deadline != std::chrono::steady_clock::time_point::max() &&
        std::chrono::steady_clock::now() >= deadline) {
      break;
    }
    // The cover is empty only after the cover-found branch removed its last vertex (a star).
    const int out = cover_.empty() ? -1 : highest_dscore_in_cover(/*skip_tabu=*/true);
    if (out >= 0) remove(out);
    const int e = uncovered_[rng_.uniform_int(0, static_cast<int>(uncovered_.size()) - 1)];
    const int a = eu_[e], b = ev_[e];
    int in;
    if (!conf_change_[a]) {
      in = b;
    } else if (!conf_change_[b]) {
      in = a;
    } else {
      in = dscore_[a] > dscore_[b] || (dscore_[a] == dscore_[b] && age_[a] <= age_[b]) ? a : b;
    }
    add(in);
    ++step_;
    if (out >= 0) age_[out] = step_;
    age_[in] = step_;
    tabu_ = in;
    bump_weights();
    ++done;
  }
  return done;
}

bool NuMvc::consistent() const {
  std::vector<long long> dscore(static_cast<std::size_t>(n_), 0);
  int uncovered = 0;
  for (int e = 0; e < m_; ++e) {
    const bool a = in_cover_[eu_[e]], b = in_cover_[ev_[e]];
    if (!a && !b) {
      dscore[eu_[e]] += weight_[e];
      dscore[ev_[e]] += weight_[e];
      if (uncovered_pos_[e] < 0 || uncovered_[uncovered_pos_[e]] != e) return false;
      ++uncovered;
    } else if (a != b) {
      dscore[a ? eu_[e] : ev_[e]] -= weight_[e];
    }
  }
  int in_cover = 0;
  for (int v = 0; v < n_; ++v) {
    if (in_cover_[v] && (cover_pos_[v] < 0 || cover_[cover_pos_[v]] != v)) return false;
    in_cover += in_cover_[v];
  }
  return dscore == dscore_ && uncovered == static_cast<int>(uncovered_.size()) &&
         in_cover == static_cast<int>(cover_.size());
}

std::vector<int> NuMvc::best_independent_set() const {
  std::vector<int> set;
  for (int v = 0; v < n_; ++v) {
    if (!best_in_cover_[v]) set.push_back(v);
  }
  return set;
}

}  // namespace falcon::solvers
