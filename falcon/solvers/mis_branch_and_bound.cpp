#include "falcon/solvers/mis_branch_and_bound.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace falcon::solvers {
namespace {

using problems::Graph;
using Word = std::uint64_t;

// Re-colouring checks (one class against one vertex) allowed per candidate in one colouring.
// Unbounded, re-colouring costs O(kmin^2) per vertex: 50 us a node on a BA graph with n = 500
// (kmin ~ 220, colour classes of 2-3 vertices); 8 keeps nearly all of its node savings on the
// dense DIMACS graphs (MANN_a27: 13.6k nodes instead of 8.8k unbounded and 37.8k without).
constexpr long long kRecolourChecksPerCandidate = 8;

// Maximum clique of the complement H of g. Vertices are renumbered so that bit i is the i-th
// vertex of a minimum-width (degeneracy) order of H: the greedy colouring then follows that
// order, which is what makes the bound tight (MCQ/BBMC).
class CliqueSearch {
 public:
  CliqueSearch(const Graph& g, const std::vector<int>& incumbent, const MisBranchAndBoundOptions& options)
      : n_(g.n), words_((g.n + 63) / 64), options_(options) {
    order_ = degeneracy_order(g);
    std::vector<int> position(static_cast<std::size_t>(n_));
    for (int i = 0; i < n_; ++i) position[order_[i]] = i;
    // H-adjacency: every other vertex, minus the G-neighbours.
    hadj_.assign(static_cast<std::size_t>(n_) * words_, 0);
    for (int i = 0; i < n_; ++i) {
      Word* row = row_of(i);
      for (int j = 0; j < n_; ++j) {
        if (j != i) row[j >> 6] |= Word{1} << (j & 63);
      }
      for (int u : g.neighbors(order_[i])) row[position[u] >> 6] &= ~(Word{1} << (position[u] & 63));
    }
    candidates_.assign(static_cast<std::size_t>(n_ + 1) * words_, 0);
    classes_.assign(static_cast<std::size_t>(n_ + 1) * words_, 0);
    scratch_u_.assign(words_, 0);
    scratch_q_.assign(words_, 0);
    listed_.resize(static_cast<std::size_t>(n_ + 1));
    clique_.resize(static_cast<std::size_t>(n_ + 1));
    best_ = incumbent;
  }

  MisBranchAndBoundResult run() {
    Word* root = candidates_.data();
    for (int i = 0; i < n_; ++i) root[i >> 6] |= Word{1} << (i & 63);
    if (n_ > 0 && static_cast<int>(best_.size()) < n_) expand(0);
    MisBranchAndBoundResult result;
    std::sort(best_.begin(), best_.end());
    result.set = std::move(best_);
    result.proven_optimal = !aborted_;
    result.nodes = nodes_;
    result.work = work_;
    return result;
  }

 private:
  // Repeatedly remove a vertex of minimum H-degree; the vertex removed last comes first.
  // O(n^2): H is dense where this search is used.
  static std::vector<int> degeneracy_order(const Graph& g) {
    const int n = g.n;
    std::vector<int> hdeg(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) hdeg[v] = n - 1 - g.degree(v);
    std::vector<char> removed(static_cast<std::size_t>(n), 0), is_g_neighbour(static_cast<std::size_t>(n), 0);
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int k = n - 1; k >= 0; --k) {
      int v = -1;
      for (int u = 0; u < n; ++u) {
        if (!removed[u] && (v < 0 || hdeg[u] < hdeg[v])) v = u;
      }
      removed[v] = 1;
      order[k] = v;
      for (int u : g.neighbors(v)) is_g_neighbour[u] = 1;
      for (int u = 0; u < n; ++u) {
        if (!removed[u] && !is_g_neighbour[u]) --hdeg[u];
      }
      for (int u : g.neighbors(v)) is_g_neighbour[u] = 0;
    }
    return order;
  }

  Word* row_of(int i) { return hadj_.data() + static_cast<std::size_t>(i) * words_; }
  Word* candidates_at(int depth) { return candidates_.data() + static_cast<std::size_t>(depth) * words_; }
  Word* class_at(int c) { return classes_.data() + static_cast<std::size_t>(c) * words_; }

  bool empty(const Word* a) const {
    for (int w = 0; w < words_; ++w) {
      if (a[w]) return false;
    }
    return true;
  }
  static void set(Word* a, int i) { a[i >> 6] |= Word{1} << (i & 63); }
  static void reset(Word* a, int i) { a[i >> 6] &= ~(Word{1} << (i & 63)); }
  int first(const Word* a) const {
    for (int w = 0; w < words_; ++w) {
      if (a[w]) return w * 64 + __builtin_ctzll(a[w]);
    }
    return -1;
  }
  // The only member of a AND b when there is exactly one; -1 when none; -2 when several.
  int single_common(const Word* a, const Word* b) const {
    int found = -1;
    for (int w = 0; w < words_; ++w) {
      const Word x = a[w] & b[w];
      if (!x) continue;
      if (found >= 0 || (x & (x - 1))) return -2;
      found = w * 64 + __builtin_ctzll(x);
    }
    return found;
  }
  bool disjoint(const Word* a, const Word* b) const {
    for (int w = 0; w < words_; ++w) {
      if (a[w] & b[w]) return false;
    }
    return true;
  }

  // MCS Re-NUMBER: v would open colour >= kmin (no pruning power). Put it into a lower class
  // it does not conflict with, or into class j where it conflicts with exactly one w that can
  // move to another lower class.
  bool recolour(int v, int kmin) {
    const Word* nv = row_of(v);
    for (int j = 1; j < kmin && recolour_checks_ > 0; ++j) {
      --recolour_checks_;
      work_ += words_;
      Word* cj = class_at(j);
      const int w = single_common(cj, nv);
      if (w == -1) {
        set(cj, v);
        return true;
      }
      if (w < 0) continue;
      const Word* nw = row_of(w);
      for (int l = 1; l < kmin; ++l) {
        --recolour_checks_;
        work_ += words_;
        if (l == j || !disjoint(class_at(l), nw)) continue;
        reset(cj, w);
        set(class_at(l), w);
        set(cj, v);
        return true;
      }
    }
    return false;
  }

  // Colours P = candidates_at(depth); lists the vertices of colour >= kmin with their colour,
  // in colour order. Vertices below kmin cannot lead past the incumbent and are never branched on.
  void colour(int depth, int kmin) {
    auto& listed = listed_[depth];
    listed.clear();
    Word* u = scratch_u_.data();
    Word* q = scratch_q_.data();
    std::copy_n(candidates_at(depth), words_, u);
    long long candidates = 0;
    for (int w = 0; w < words_; ++w) candidates += __builtin_popcountll(u[w]);
    recolour_checks_ = kRecolourChecksPerCandidate * candidates;
    work_ += 2 * candidates * words_;  // each candidate clears bits in a word row, class by class
    for (int k = 1; !empty(u); ++k) {
      std::copy_n(u, words_, q);
      Word* ck = k < kmin ? class_at(k) : nullptr;
      if (ck) std::fill_n(ck, words_, 0);
      for (int v = first(q); v >= 0; v = first(q)) {
        reset(u, v);
        reset(q, v);
        if (ck) {
          set(ck, v);
        } else if (recolour_checks_ > 0 && recolour(v, kmin)) {
          continue;
        } else {
          listed.emplace_back(v, k);
        }
        const Word* nv = row_of(v);
        for (int w = 0; w < words_; ++w) q[w] &= ~nv[w];
      }
    }
  }

  void expand(int depth) {
    ++nodes_;
    if ((options_.max_work > 0 && work_ > options_.max_work) ||
        ((nodes_ & 1023) == 0 && std::chrono::steady_clock::now() >= options_.deadline)) {
      aborted_ = true;
      return;
    }
    const int best = static_cast<int>(best_.size());
    colour(depth, std::max(1, best - depth + 1));
    Word* p = candidates_at(depth);
    Word* next = candidates_at(depth + 1);
    // listed_[depth] is not touched by deeper levels (they use their own depth's list).
    for (std::size_t i = listed_[depth].size(); i-- > 0;) {
      const auto [v, c] = listed_[depth][i];
      if (depth + c <= static_cast<int>(best_.size())) return;
      clique_[depth] = v;
      const Word* nv = row_of(v);
      bool any = false;
      for (int w = 0; w < words_; ++w) any |= (next[w] = p[w] & nv[w]) != 0;
      if (any) {
        expand(depth + 1);
        if (aborted_) return;
      } else if (depth + 1 > static_cast<int>(best_.size())) {
        best_.clear();
        for (int d = 0; d <= depth; ++d) best_.push_back(order_[clique_[d]]);
      }
      reset(p, v);
    }
  }

  int n_, words_;
  MisBranchAndBoundOptions options_;
  std::vector<int> order_;       // bit i <-> vertex order_[i] of g
  std::vector<Word> hadj_;       // n_ rows of complement adjacency
  std::vector<Word> candidates_; // one row per depth
  std::vector<Word> classes_;    // colour classes below kmin, scratch of colour()
  std::vector<Word> scratch_u_, scratch_q_;
  std::vector<std::vector<std::pair<int, int>>> listed_;  // per depth: (vertex bit, colour)
  std::vector<int> clique_;      // bits of the current clique, by depth
  std::vector<int> best_;        // vertices of g
  long long nodes_ = 0;
  long long work_ = 0;
  long long recolour_checks_ = 0;  // left in the current colouring
  bool aborted_ = false;
};

}  // namespace

MisBranchAndBoundResult mis_branch_and_bound(const Graph& g, const std::vector<int>& incumbent,
                                             const MisBranchAndBoundOptions& options) {
  return CliqueSearch(g, incumbent, options).run();
}

}  // namespace falcon::solvers
