#pragma once
// Compiled token automata per (grammar, index range, vocabulary), shared by every sequence
// and thread. Concurrent requests for the same key compile once; the others wait for it.
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "falcon/decoding/byte_dfa.h"
#include "falcon/decoding/grammar.h"
#include "falcon/decoding/token_automaton.h"
#include "falcon/decoding/vocabulary.h"

namespace falcon::decoding {

class AutomatonCache {
 public:
  static AutomatonCache& global();  // the process-wide cache

  // Compiles on a miss (ByteDfa::compile + TokenAutomaton::build); compile errors propagate
  // to every waiter and are not cached.
  std::shared_ptr<const TokenAutomaton> get(const Grammar& grammar, IndexRange range, const Vocabulary& vocabulary);

  std::size_t size() const;
  std::size_t hits() const;
  std::size_t misses() const;
  void clear();

 private:
  // (grammar source, grammar text hash, first, last, vocabulary hash)
  using Key = std::tuple<std::string, std::uint64_t, int, int, std::uint64_t>;
  mutable std::mutex mutex_;
  std::map<Key, std::shared_future<std::shared_ptr<const TokenAutomaton>>> entries_;
  std::size_t hits_ = 0;
  std::size_t misses_ = 0;
};

}  // namespace falcon::decoding
