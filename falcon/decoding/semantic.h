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
#include "falcon/problems/semantic_constraint.h"

namespace falcon::decoding {

using problems::SemanticConstraint;  // what may come next, per problem (problems/semantic_constraint.h)

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
