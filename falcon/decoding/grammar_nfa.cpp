#include "falcon/decoding/grammar_nfa.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <tuple>

#include "falcon/core/error.h"

namespace falcon::decoding {
namespace {

void collect_refs(const Expr& e, std::vector<int>& out) {
  if (e.kind == Expr::Kind::kRef) out.push_back(e.rule);
  for (const auto& c : e.children) collect_refs(c, out);
}

// Tarjan's strongly connected components over "rule refers to rule".
struct Components {
  std::vector<int> of;         // rule -> component
  std::vector<bool> recursive;  // component has a cycle (size > 1 or a self reference)
};

Components components(const Grammar& g) {
  const int n = static_cast<int>(g.rules().size());
  std::vector<std::vector<int>> refs(n);
  for (int r = 0; r < n; ++r) collect_refs(g.rules()[r].body, refs[r]);
  Components c;
  c.of.assign(n, -1);
  std::vector<int> index(n, -1), low(n, 0), stack;
  std::vector<bool> on_stack(n, false);
  int counter = 0;
  std::function<void(int)> visit = [&](int v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = true;
    for (int w : refs[v]) {
      if (index[w] < 0) {
        visit(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on_stack[w]) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] == index[v]) {
      const int id = static_cast<int>(c.recursive.size());
      int size = 0;
      for (;;) {
        const int w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        c.of[w] = id;
        ++size;
        if (w == v) break;
      }
      bool self = std::find(refs[v].begin(), refs[v].end(), v) != refs[v].end();
      c.recursive.push_back(size > 1 || self);
    }
  };
  for (int r = 0; r < n; ++r)
    if (index[r] < 0) visit(r);
  return c;
}

struct RecursiveRef {
  const Expr* ref;
  bool tail;
  bool head;
};

// References to rules of component `scc` inside `e`, with whether each is the very last
// (tail) or very first (head) thing its rule can produce. `?` keeps both; `*`, `+` lose both.
void positioned_refs(const Expr& e, const Components& c, int scc, bool tail, bool head, std::vector<RecursiveRef>& out) {
  switch (e.kind) {
    case Expr::Kind::kRef:
      if (c.of[e.rule] == scc) out.push_back({&e, tail, head});
      return;
    case Expr::Kind::kSeq:
      for (std::size_t i = 0; i < e.children.size(); ++i)
        positioned_refs(e.children[i], c, scc, tail && i + 1 == e.children.size(), head && i == 0, out);
      return;
    case Expr::Kind::kAlt:
      for (const auto& ch : e.children) positioned_refs(ch, c, scc, tail, head, out);
      return;
    case Expr::Kind::kRepeat: {
      const bool once = e.max == 1;
      positioned_refs(e.children[0], c, scc, tail && once, head && once, out);
      return;
    }
    default:
      return;
  }
}

// Decimal strings of [first, last] with no leading zeros, as an NFA fragment from -> to.
void add_index(Nfa& nfa, int from, int to, IndexRange range) {
  if (range.first < 0 || range.last < range.first) return;  // matches nothing
  const std::string last = std::to_string(range.last);
  long long power = 1;  // 10^(L-1)
  for (std::size_t len = 1; len <= last.size(); ++len, power *= 10) {
    const long long lo_v = std::max<long long>(range.first, len == 1 ? 0 : power);
    const long long hi_v = std::min<long long>(range.last, power * 10 - 1);
    if (lo_v > hi_v) continue;
    const std::string lo = std::to_string(lo_v), hi = std::to_string(hi_v);  // both `len` digits
    // State (i, tight_lo, tight_hi): i digits read, still equal to lo's / hi's prefix.
    std::map<int, int> states;
    auto state = [&](std::size_t i, bool tl, bool th) {
      const int key = static_cast<int>(i) * 4 + tl * 2 + th;
      auto it = states.find(key);
      if (it != states.end()) return it->second;
      const int s = i == len ? to : nfa.add_state();
      states[key] = s;
      return s;
    };
    std::vector<std::tuple<std::size_t, bool, bool>> work{{0, true, true}};
    const int first = state(0, true, true);  // may grow nfa.eps: not inside the push_back
    nfa.eps[from].push_back(first);
    std::map<int, bool> done;
    while (!work.empty()) {
      auto [i, tl, th] = work.back();
      work.pop_back();
      const int key = static_cast<int>(i) * 4 + tl * 2 + th;
      if (i == len || done[key]) continue;
      done[key] = true;
      const int s = state(i, tl, th);
      for (char d = '0'; d <= '9'; ++d) {
        if ((tl && d < lo[i]) || (th && d > hi[i])) continue;
        const bool ntl = tl && d == lo[i], nth = th && d == hi[i];
        Nfa::Edge edge;
        edge.bytes.set(static_cast<unsigned char>(d));
        edge.to = state(i + 1, ntl, nth);
        nfa.edges[s].push_back(edge);
        work.emplace_back(i + 1, ntl, nth);
      }
    }
  }
}

class NfaBuilder {
 public:
  NfaBuilder(const Grammar& g, IndexRange range, const CompileLimits& limits)
      : g_(g), range_(range), limits_(limits), comps_(components(g)), shape_(classify_recursion(g)) {}

  Nfa run() {
    nfa_.start = add_state();
    nfa_.accept = add_state();
    instantiate(g_.start(), nfa_.start, nfa_.accept);
    return std::move(nfa_);
  }

 private:
  // One expansion of a recursive component: the entry state of each member (right
  // recursion) or the state after each member (left recursion), made when first needed.
  struct Frame {
    int scc = -1;
    bool left = false;
    int entry = -1;  // left: where every member's non-recursive alternatives start
    int exit = -1;   // right: where every member's non-recursive alternatives end
    std::map<int, int> member;
    std::vector<int> pending;
  };

  int add_state() {
    if (nfa_.size() >= limits_.max_nfa_states)
      throw Error(g_.source() + ": the automaton for index range [" + std::to_string(range_.first) + ", " +
                  std::to_string(range_.last) + "] exceeds " + std::to_string(limits_.max_nfa_states) +
                  " NFA states; simplify the grammar or raise CompileLimits::max_nfa_states");
    return nfa_.add_state();
  }

  int member_state(Frame& f, int rule) {
    auto it = f.member.find(rule);
    if (it != f.member.end()) return it->second;
    const int s = add_state();
    f.member[rule] = s;
    f.pending.push_back(rule);
    return s;
  }

  void instantiate(int rule, int from, int to) {
    const int scc = comps_.of[rule];
    if (!comps_.recursive[scc]) {
      build(g_.rules()[rule].body, from, to, nullptr);
      return;
    }
    Frame f;
    f.scc = scc;
    f.left = shape_[rule] == Recursion::kLeft;
    if (f.left) {
      f.entry = add_state();
      nfa_.eps[from].push_back(f.entry);
      const int after = member_state(f, rule);
      nfa_.eps[after].push_back(to);
    } else {
      f.exit = add_state();
      const int entry = member_state(f, rule);
      nfa_.eps[from].push_back(entry);
      nfa_.eps[f.exit].push_back(to);
    }
    while (!f.pending.empty()) {
      const int x = f.pending.back();
      f.pending.pop_back();
      const int sx = f.member[x];
      if (f.left)
        build(g_.rules()[x].body, f.entry, sx, &f);
      else
        build(g_.rules()[x].body, sx, f.exit, &f);
    }
  }

  void build(const Expr& e, int from, int to, Frame* frame) {
    switch (e.kind) {
      case Expr::Kind::kBytes:
        nfa_.edges[from].push_back({e.bytes, to});
        return;
      case Expr::Kind::kIndex:
        add_index(nfa_, from, to, range_);
        if (nfa_.size() > limits_.max_nfa_states) add_state();  // throws the size error
        return;
      case Expr::Kind::kRef:
        if (frame != nullptr && comps_.of[e.rule] == frame->scc) {
          // Classification guarantees the reference is in tail (right) or head (left) position,
          // so the rest of this path is exactly "whatever the member produces".
          const int member = member_state(*frame, e.rule);  // may add a state: before indexing eps
          if (frame->left)
            nfa_.eps[member].push_back(to);
          else
            nfa_.eps[from].push_back(member);
        } else {
          instantiate(e.rule, from, to);
        }
        return;
      case Expr::Kind::kSeq: {
        if (e.children.empty()) {
          nfa_.eps[from].push_back(to);
          return;
        }
        int cur = from;
        for (std::size_t i = 0; i < e.children.size(); ++i) {
          const int next = i + 1 == e.children.size() ? to : add_state();
          build(e.children[i], cur, next, frame);
          cur = next;
        }
        return;
      }
      case Expr::Kind::kAlt:
        for (const auto& c : e.children) build(c, from, to, frame);
        return;
      case Expr::Kind::kRepeat: {
        if (e.max == 1) {  // ?
          nfa_.eps[from].push_back(to);
          build(e.children[0], from, to, frame);
          return;
        }
        const int loop = add_state();
        if (e.min == 0) {  // *
          nfa_.eps[from].push_back(loop);
          build(e.children[0], loop, loop, frame);
          nfa_.eps[loop].push_back(to);
        } else {  // +
          const int after = add_state();
          nfa_.eps[from].push_back(loop);
          build(e.children[0], loop, after, frame);
          nfa_.eps[after].push_back(loop);
          nfa_.eps[after].push_back(to);
        }
        return;
      }
    }
  }

  const Grammar& g_;
  IndexRange range_;
  CompileLimits limits_;
  Components comps_;
  std::vector<Recursion> shape_;
  Nfa nfa_;
};

}  // namespace

std::vector<Recursion> classify_recursion(const Grammar& g) {
  const Components c = components(g);
  const int n = static_cast<int>(g.rules().size());
  std::vector<Recursion> out(n, Recursion::kNone);
  std::vector<std::vector<int>> members(c.recursive.size());
  for (int r = 0; r < n; ++r) members[c.of[r]].push_back(r);
  for (std::size_t scc = 0; scc < members.size(); ++scc) {
    if (!c.recursive[scc]) continue;
    std::vector<RecursiveRef> refs;
    for (int r : members[scc]) positioned_refs(g.rules()[r].body, c, static_cast<int>(scc), true, true, refs);
    const bool all_tail = std::all_of(refs.begin(), refs.end(), [](const RecursiveRef& x) { return x.tail; });
    const bool all_head = std::all_of(refs.begin(), refs.end(), [](const RecursiveRef& x) { return x.head; });
    if (!all_tail && !all_head) {
      // Blame a reference that is at neither end, or else the first one that breaks the
      // majority direction (a mix of left and right recursion).
      const RecursiveRef* bad = nullptr;
      for (const auto& x : refs)
        if (!x.tail && !x.head) {
          bad = &x;
          break;
        }
      if (bad == nullptr)
        for (const auto& x : refs)
          if (!x.tail) {
            bad = &x;
            break;
          }
      const std::string how = (!bad->tail && !bad->head)
                                  ? "in the middle of a rule or under '*'/'+'"
                                  : "at the start of a rule while other references of its cycle are at the end";
      throw input_error(g.source(), bad->ref->line,
                        "recursive reference to '" + bad->ref->name + "' " + how +
                            ": the grammar must be regular once <index> is fixed; put recursion only at the very "
                            "end of its rules (or only at the very start), or write repetition with '*' / '+'");
    }
    for (int r : members[scc]) out[r] = all_tail ? Recursion::kRight : Recursion::kLeft;
  }
  return out;
}

Nfa build_nfa(const Grammar& grammar, IndexRange range, const CompileLimits& limits) {
  return NfaBuilder(grammar, range, limits).run();
}

}  // namespace falcon::decoding
