#pragma once
// Grammar + index range -> byte NFA with epsilon moves (Thompson construction). Internal to
// byte_dfa.cpp; a header of its own so the regularity check can be tested apart.
#include <vector>

#include "falcon/decoding/byte_dfa.h"
#include "falcon/decoding/grammar.h"

namespace falcon::decoding {

struct Nfa {
  struct Edge {
    ByteSet bytes;
    int to = 0;
  };
  std::vector<std::vector<int>> eps;
  std::vector<std::vector<Edge>> edges;
  int start = 0;
  int accept = 0;

  int add_state() {
    eps.emplace_back();
    edges.emplace_back();
    return static_cast<int>(eps.size()) - 1;
  }
  int size() const { return static_cast<int>(eps.size()); }
};

// How the recursion of each rule's strongly connected component is shaped.
enum class Recursion { kNone, kRight, kLeft };

// Per rule; throws falcon::Error "SOURCE:LINE: ..." at the first recursive reference that is
// neither at the very end nor at the very start of its rule (a non-regular grammar).
std::vector<Recursion> classify_recursion(const Grammar& grammar);

Nfa build_nfa(const Grammar& grammar, IndexRange range, const CompileLimits& limits);

}  // namespace falcon::decoding
