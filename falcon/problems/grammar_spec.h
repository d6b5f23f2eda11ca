#pragma once
// The output grammar of one problem for one instance (Appendix D). All seven share a shape:
//   S        -> KEYWORD ": [" Body "], Objective: " Number
//   Body     -> List                       (flat)   |   "[" List "]" (", [" List "]")*  (nested)
//   List     -> Index (", " Index)*        (may be empty when allow_empty)
//   Index    -> index_prefix, then a decimal in [first_index, last_index], no leading zeros
//   Number   -> Digit+ "." Digit+
// decoding/ compiles this into a token-mask automaton; `accepts` is the plain reference
// recogniser its tests compare against.
#include <string>
#include <string_view>

namespace falcon::problems {

// The values <index> stands for: decimals in [first, last] without leading zeros.
struct IndexRange {
  int first = 0;
  int last = 0;
  bool operator==(const IndexRange& o) const { return first == o.first && last == o.last; }
};

struct GrammarSpec {
  std::string keyword;     // "Route", "Routes", "Set", "Order", "Schedule"
  bool nested = false;     // list of bracketed lists (CVRP, JSSP)
  bool allow_empty = false;  // the (inner) list may be empty (OP, MIS, MVC)
  int first_index = 0;     // smallest index the text may contain
  int last_index = 0;      // largest index the text may contain
  std::string index_prefix;  // written before every index ("#" in the compact text style)

  std::string to_bnf() const;
  bool accepts(std::string_view text) const;
};

}  // namespace falcon::problems
