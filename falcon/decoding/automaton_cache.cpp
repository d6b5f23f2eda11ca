#include "falcon/decoding/automaton_cache.h"

namespace falcon::decoding {

AutomatonCache& AutomatonCache::global() {
  static AutomatonCache cache;
  return cache;
}

std::shared_ptr<const TokenAutomaton> AutomatonCache::get(const Grammar& grammar, IndexRange range,
                                                          const Vocabulary& vocabulary) {
  const Key key{grammar.source(), grammar.fingerprint(), range.first, range.last, vocabulary.fingerprint()};
  std::promise<std::shared_ptr<const TokenAutomaton>> promise;
  std::shared_future<std::shared_ptr<const TokenAutomaton>> future;
  bool owner = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      ++hits_;
      future = it->second;
    } else {
      ++misses_;
      future = promise.get_future().share();
      entries_.emplace(key, future);
      owner = true;
    }
  }
  if (owner) {  // compile outside the lock, so other keys are served meanwhile
    try {
      promise.set_value(TokenAutomaton::build(ByteDfa::compile(grammar, range), vocabulary));
    } catch (...) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        entries_.erase(key);
      }
      promise.set_exception(std::current_exception());
    }
  }
  return future.get();
}

std::size_t AutomatonCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}
std::size_t AutomatonCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}
std::size_t AutomatonCache::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return misses_;
}
void AutomatonCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
}

}  // namespace falcon::decoding
