#include "falcon/decoding/byte_dfa.h"

#include <algorithm>
#include <map>
#include <string>

#include "falcon/core/error.h"
#include "falcon/decoding/dfa_minimise.h"
#include "falcon/decoding/grammar_nfa.h"
#include "falcon/decoding/reachability.h"

namespace falcon::decoding {
namespace {

// Bytes that no edge label tells apart share a class, so the subset construction works
// over a handful of classes instead of 256 bytes.
struct ByteClasses {
  std::vector<int> of;              // byte -> class
  std::vector<unsigned char> rep;   // class -> one of its bytes
};

ByteClasses byte_classes(const Nfa& nfa) {
  std::vector<ByteSet> labels;
  for (const auto& edges : nfa.edges)
    for (const auto& e : edges)
      if (std::find(labels.begin(), labels.end(), e.bytes) == labels.end()) labels.push_back(e.bytes);
  // Refined label by label: two bytes stay together while every label so far holds both or
  // neither. Numbering each round by first byte keeps classes in the order of their first byte.
  ByteClasses c;
  c.of.assign(256, 0);
  int count = 1;
  std::vector<int> renumber;
  for (const ByteSet& label : labels) {
    renumber.assign(2 * static_cast<std::size_t>(count), -1);
    int next = 0;
    for (int b = 0; b < 256; ++b) {
      int& to = renumber[2 * c.of[b] + (label.test(b) ? 1 : 0)];
      if (to < 0) to = next++;
      c.of[b] = to;
    }
    count = next;
  }
  c.rep.assign(count, 0);
  for (int b = 255; b >= 0; --b) c.rep[c.of[b]] = static_cast<unsigned char>(b);
  return c;
}

class Determinizer {
 public:
  Determinizer(const Nfa& nfa, const ByteClasses& classes, const CompileLimits& limits, const std::string& source)
      : nfa_(nfa), classes_(classes), limits_(limits), source_(source), stamp_(nfa.size(), 0) {}

  // Subset construction: states as sorted sets of NFA states closed under epsilon moves.
  void run() {
    const int k = static_cast<int>(classes_.rep.size());
    std::vector<int> start{nfa_.start};
    close(start);
    intern(std::move(start));
    for (std::size_t s = 0; s < sets_.size(); ++s) {
      std::vector<std::vector<int>> targets(k);
      for (int q : sets_[s])
        for (const auto& e : nfa_.edges[q])
          for (int c = 0; c < k; ++c)
            if (e.bytes.test(classes_.rep[c])) targets[c].push_back(e.to);
      for (int c = 0; c < k; ++c) {
        std::int32_t to = ByteDfa::kReject;
        if (!targets[c].empty()) {
          close(targets[c]);
          to = intern(std::move(targets[c]));
        }
        trans_[s * k + c] = to;
      }
    }
  }

  std::vector<std::int32_t> trans_;  // states x classes
  std::vector<std::uint8_t> accepting_;

 private:
  void close(std::vector<int>& set) {
    ++epoch_;
    std::vector<int> stack = set;
    set.clear();
    while (!stack.empty()) {
      const int q = stack.back();
      stack.pop_back();
      if (stamp_[q] == epoch_) continue;
      stamp_[q] = epoch_;
      set.push_back(q);
      for (int r : nfa_.eps[q])
        if (stamp_[r] != epoch_) stack.push_back(r);
    }
    std::sort(set.begin(), set.end());
  }

  std::int32_t intern(std::vector<int> set) {
    auto it = index_.find(set);
    if (it != index_.end()) return it->second;
    if (static_cast<int>(sets_.size()) >= limits_.max_dfa_states)
      throw Error(source_ + ": the automaton exceeds " + std::to_string(limits_.max_dfa_states) +
                  " DFA states; simplify the grammar or raise CompileLimits::max_dfa_states");
    const auto id = static_cast<std::int32_t>(sets_.size());
    accepting_.push_back(std::binary_search(set.begin(), set.end(), nfa_.accept) ? 1 : 0);
    index_.emplace(set, id);
    sets_.push_back(std::move(set));
    trans_.resize(sets_.size() * classes_.rep.size(), ByteDfa::kReject);
    return id;
  }

  const Nfa& nfa_;
  const ByteClasses& classes_;
  const CompileLimits& limits_;
  const std::string& source_;
  std::vector<std::vector<int>> sets_;
  std::map<std::vector<int>, std::int32_t> index_;
  std::vector<unsigned> stamp_;
  unsigned epoch_ = 0;
};

// Keeps the states that can still reach acceptance (all are reachable by construction);
// returns the old -> new numbering (-1 = removed).
std::vector<std::int32_t> live_states(const std::vector<std::int32_t>& trans, const std::vector<std::uint8_t>& accepting, int k) {
  const int n = static_cast<int>(accepting.size());
  std::vector<std::vector<int>> reverse(n);
  for (int s = 0; s < n; ++s)
    for (int c = 0; c < k; ++c)
      if (trans[s * k + c] >= 0) reverse[trans[s * k + c]].push_back(s);
  const std::vector<bool> live = reaches(reverse, std::vector<bool>(accepting.begin(), accepting.end()));
  std::vector<std::int32_t> renumber(n, -1);
  std::int32_t next = 0;
  for (int s = 0; s < n; ++s)
    if (live[s]) renumber[s] = next++;
  return renumber;
}

}  // namespace

ByteDfa ByteDfa::compile(const Grammar& grammar, IndexRange range, const CompileLimits& limits) {
  const Nfa nfa = build_nfa(grammar, range, limits);
  const ByteClasses classes = byte_classes(nfa);
  const int k = static_cast<int>(classes.rep.size());
  Determinizer det(nfa, classes, limits, grammar.source());
  det.run();

  // Trim dead states, then merge equivalent ones.
  const std::vector<std::int32_t> renumber = live_states(det.trans_, det.accepting_, k);
  if (renumber[0] < 0)
    throw Error(grammar.source() + ": the grammar accepts no string for index range [" + std::to_string(range.first) +
                ", " + std::to_string(range.last) + "]");
  const int live = static_cast<int>(*std::max_element(renumber.begin(), renumber.end())) + 1;
  std::vector<std::int32_t> trans(static_cast<std::size_t>(live) * k, kReject);
  std::vector<std::uint8_t> accepting(live);
  for (std::size_t s = 0; s < renumber.size(); ++s) {
    if (renumber[s] < 0) continue;
    accepting[renumber[s]] = det.accepting_[s];
    for (int c = 0; c < k; ++c) {
      const std::int32_t t = det.trans_[s * k + c];
      trans[renumber[s] * k + c] = t < 0 ? kReject : renumber[t];
    }
  }
  const std::vector<std::int32_t> block = minimise_dfa(trans, accepting, k);

  // Number the blocks in breadth-first order from the start so state ids are stable.
  const int n = static_cast<int>(accepting.size());
  std::vector<int> member(n, -1);  // block -> a representative state
  for (int s = n - 1; s >= 0; --s) member[block[s]] = s;
  std::vector<std::int32_t> order(n, -1);
  std::vector<int> queue{block[0]};
  order[block[0]] = 0;
  std::int32_t count = 1;
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (int c = 0; c < k; ++c) {
      const std::int32_t t = trans[member[queue[i]] * k + c];
      if (t >= 0 && order[block[t]] < 0) {
        order[block[t]] = count++;
        queue.push_back(block[t]);
      }
    }

  ByteDfa dfa;
  dfa.start_ = 0;
  dfa.accepting_.assign(count, 0);
  dfa.next_.assign(static_cast<std::size_t>(count) * 256, kReject);
  for (int b : queue) {
    const int s = member[b];
    const std::int32_t id = order[b];
    dfa.accepting_[id] = accepting[s];
    for (int byte = 0; byte < 256; ++byte) {
      const std::int32_t t = trans[s * k + classes.of[byte]];
      dfa.next_[static_cast<std::size_t>(id) * 256 + byte] = t < 0 ? kReject : order[block[t]];
    }
  }
  return dfa;
}

std::int32_t ByteDfa::walk(int state, std::string_view bytes) const {
  std::int32_t s = state;
  for (unsigned char b : bytes) {
    s = step(s, b);
    if (s < 0) return kReject;
  }
  return s;
}

bool ByteDfa::accepts(std::string_view text) const {
  const std::int32_t s = walk(start_, text);
  return s >= 0 && accepting(s);
}

}  // namespace falcon::decoding
