#pragma once
// The semantic mask (beyond the paper; off by default): per sequence, forbid the tokens that
// would write an index the instance's constraints rule out (a node visited twice, a route
// over capacity or budget, two adjacent vertices, ...) and the separators / brackets that
// would leave no feasible way on (closing a tour before every node is in it). AND-ed with
// the grammar mask, it makes every finished sample feasible where the constraints are
// local enough (TSP, PFSP, OP, CVRP, MIS, MVC); JSSP gets per-machine permutations only.
//
// It reads the body of the solution text byte by byte: everything before the first '[' is
// the keyword, indices are digit runs inside the (inner) lists, and the body ends when the
// brackets close; the objective is not looked at. An index is checked when its terminator
// arrives; a digit run in progress only has to be the prefix of some legal index, so tokens
// that split a number or span an index and its separator are handled exactly.
#include <memory>
#include <string_view>
#include <vector>

#include "falcon/decoding/byte_dfa.h"
#include "falcon/problems/problem.h"

namespace falcon::decoding {

// The constraints of one problem family for one instance. Indices are the numbers as the
// text writes them (1-based for PFSP/JSSP jobs). Every push_* is undone by the matching
// pop_* in reverse order, so mask computation can try a token and take it back.
class SemanticConstraint {
 public:
  explicit SemanticConstraint(IndexRange range) : range_(range) {}
  virtual ~SemanticConstraint() = default;
  virtual std::unique_ptr<SemanticConstraint> clone() const = 0;

  // May `v` be the next index of the current list?
  virtual bool legal(long long v) const = 0;
  // Is some index legal now (a ", " inside a list must be followed by one)? Default: scans.
  virtual bool any_legal() const { return any_legal_in(range_.first, range_.last); }
  // Is some index in [lo, hi] legal? Default: scans with legal().
  virtual bool any_legal_in(long long lo, long long hi) const;
  virtual bool can_close_list() const { return true; }   // "]" of the (inner) list
  virtual bool can_open_list() const { return true; }    // nested: "[" or ", " before a new inner list
  virtual bool can_close_outer() const { return true; }  // nested: the "]" that ends the body

  virtual void push_index(long long v) = 0;
  virtual void pop_index(long long v) = 0;
  virtual void push_open() {}
  virtual void pop_open() {}

  IndexRange range() const { return range_; }

 private:
  IndexRange range_;
};

// The constraints for `problem` ("tsp", "op", "cvrp", "mis", "mvc", "pfsp", "jssp") on
// `instance`; throws falcon::Error for a problem it has none for.
std::unique_ptr<SemanticConstraint> make_semantic_constraint(std::string_view problem,
                                                             std::shared_ptr<const problems::Instance> instance);

// The reader of the text so far plus the constraint state. Copyable (clones the constraint).
class SemanticTracker {
 public:
  SemanticTracker(std::unique_ptr<SemanticConstraint> constraint, bool nested);
  SemanticTracker(const SemanticTracker& other);
  SemanticTracker& operator=(const SemanticTracker& other);
  SemanticTracker(SemanticTracker&&) noexcept = default;
  SemanticTracker& operator=(SemanticTracker&&) noexcept = default;

  // Reads one byte; false when it breaks a constraint (then nothing was changed).
  bool step(unsigned char byte);
  // All bytes, or none when one breaks a constraint.
  bool feed(std::string_view bytes);
  void reset();

  // For trying bytes and taking them back: mark(), step()..., undo(mark).
  struct Mark {
    struct Lexer {
      int depth = 0;
      bool done = false;
      long long pending = 0;
      int pending_digits = 0;
    } lexer;
    std::size_t log_size = 0;
  };
  Mark mark() const { return {lexer_, log_.size()}; }
  void undo(const Mark& mark);
  void commit() { log_.clear(); }  // what was stepped stays; marks taken before are void

  bool in_body() const { return lexer_.depth > 0; }
  bool done() const { return lexer_.done; }
  const SemanticConstraint& constraint() const { return *constraint_; }

 private:
  // Some legal index starts with these digits (no leading zeros).
  bool prefix_possible(long long prefix, int digits) const;
  bool complete_index();
  struct Event {
    enum Kind { kIndex, kOpen } kind;
    long long value;
  };

  std::shared_ptr<const SemanticConstraint> initial_;
  std::unique_ptr<SemanticConstraint> constraint_;
  bool nested_ = false;
  Mark::Lexer lexer_;
  std::vector<Event> log_;
};

}  // namespace falcon::decoding
