#include "falcon/decoding/semantic.h"

#include <algorithm>
#include <string>

#include "falcon/core/error.h"
#include "falcon/decoding/byte_tracker.h"

namespace falcon::decoding {
namespace {

constexpr int kMaxDigits = 18;  // a longer run is out of every range (and of long long)

}  // namespace



SemanticTracker::SemanticTracker(std::unique_ptr<SemanticConstraint> constraint, bool nested)
    : initial_(constraint->clone()), constraint_(std::move(constraint)), nested_(nested) {}

SemanticTracker::SemanticTracker(const SemanticTracker& other)
    : initial_(other.initial_),
      constraint_(other.constraint_->clone()),
      nested_(other.nested_),
      lexer_(other.lexer_),
      log_(other.log_) {}

SemanticTracker& SemanticTracker::operator=(const SemanticTracker& other) {
  if (this != &other) *this = SemanticTracker(other);
  return *this;
}

void SemanticTracker::reset() {
  constraint_ = initial_->clone();
  lexer_ = {};
  log_.clear();
}

bool SemanticTracker::prefix_possible(long long prefix, int digits) const {
  const IndexRange r = constraint_->range();
  if (digits == 1 && prefix == 0) return r.first <= 0 && 0 <= r.last && constraint_->legal(0);
  // The indices starting with these digits: [prefix * 10^k, prefix * 10^k + 10^k - 1], k >= 0.
  for (long long scale = 1; scale <= 100'000'000'000'000'000LL / 10; scale *= 10) {
    if (prefix > r.last / scale) break;  // prefix * scale > last, and so for every larger k
    const long long lo = std::max<long long>(prefix * scale, r.first);
    const long long hi = std::min<long long>(prefix * scale + scale - 1, r.last);
    if (lo <= hi && constraint_->any_legal_in(lo, hi)) return true;
  }
  return false;
}

bool SemanticTracker::complete_index() {
  const long long v = lexer_.pending;
  if (!constraint_->legal(v)) return false;
  constraint_->push_index(v);
  log_.push_back({Event::kIndex, v});
  lexer_.pending = 0;
  lexer_.pending_digits = 0;
  return true;
}

bool SemanticTracker::step(unsigned char byte) {
  if (lexer_.done) return true;
  if (lexer_.depth == 0) {  // the keyword: the body starts at the first '['
    if (byte == '[') lexer_.depth = 1;
    return true;
  }
  const int list_depth = nested_ ? 2 : 1;
  if (byte >= '0' && byte <= '9') {
    if (lexer_.depth != list_depth) return true;  // not an index: the grammar decides
    if (lexer_.pending_digits > 0 && lexer_.pending == 0) return false;  // leading zero
    if (lexer_.pending_digits >= kMaxDigits) return false;
    const long long p = lexer_.pending * 10 + (byte - '0');
    if (!prefix_possible(p, lexer_.pending_digits + 1)) return false;
    lexer_.pending = p;
    ++lexer_.pending_digits;
    return true;
  }
  const Mark before = mark();
  if (lexer_.pending_digits > 0 && !complete_index()) return false;
  bool ok = true;
  if (byte == ',') {
    if (lexer_.depth == list_depth)
      ok = constraint_->any_legal();
    else if (nested_ && lexer_.depth == 1)
      ok = constraint_->can_open_list();
  } else if (byte == '[') {
    if (nested_ && lexer_.depth == 1) {
      ok = constraint_->can_open_list();
      if (ok) {
        constraint_->push_open();
        log_.push_back({Event::kOpen, 0});
        lexer_.depth = 2;
      }
    }
  } else if (byte == ']') {
    if (lexer_.depth == list_depth) {
      ok = constraint_->can_close_list();
      if (ok) lexer_.depth = list_depth - 1;
    } else if (nested_ && lexer_.depth == 1) {
      ok = constraint_->can_close_outer();
      if (ok) lexer_.depth = 0;
    }
    if (ok && lexer_.depth == 0) lexer_.done = true;
  }
  if (!ok) undo(before);
  return ok;
}

bool SemanticTracker::feed(std::string_view bytes) { return feed_all(*this, bytes); }

void SemanticTracker::undo(const Mark& mark) {
  while (log_.size() > mark.log_size) {
    const Event e = log_.back();
    log_.pop_back();
    if (e.kind == Event::kIndex)
      constraint_->pop_index(e.value);
    else
      constraint_->pop_open();
  }
  lexer_ = mark.lexer;
}

}  // namespace falcon::decoding
