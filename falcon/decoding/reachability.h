#pragma once
// Backward reachability over automaton states, shared by DFA trimming (byte level) and the
// token automaton's liveness (token level).
#include <vector>

namespace falcon::decoding {

// The states from which a state marked in `goal` can be reached; `predecessors[s]` lists the
// states with an edge into s.
inline std::vector<bool> reaches(const std::vector<std::vector<int>>& predecessors, std::vector<bool> goal) {
  std::vector<int> stack;
  for (int s = 0; s < static_cast<int>(goal.size()); ++s)
    if (goal[s]) stack.push_back(s);
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    for (int p : predecessors[s])
      if (!goal[p]) {
        goal[p] = true;
        stack.push_back(p);
      }
  }
  return goal;
}

}  // namespace falcon::decoding
