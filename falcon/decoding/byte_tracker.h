#pragma once
// What the byte trackers AND-ed into the grammar mask (SemanticTracker, ComputedNotes) share: a
// tracker reads bytes with step(), and mark() / undo() take bytes back. feed_all is step() over a
// token's bytes, all or none.
#include <string_view>

namespace falcon::decoding {

template <class Tracker>
bool feed_all(Tracker& tracker, std::string_view bytes) {
  const auto before = tracker.mark();
  for (unsigned char b : bytes)
    if (!tracker.step(b)) {
      tracker.undo(before);
      return false;
    }
  return true;
}

}  // namespace falcon::decoding
