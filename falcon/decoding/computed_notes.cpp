#include "falcon/decoding/computed_notes.h"

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/decoding/byte_tracker.h"
#include "falcon/problems/solution_text.h"

namespace falcon::decoding {
namespace {

constexpr int kMaxDigits = 9;  // every index fits an int; the grammar's range refuses longer runs first

}  // namespace

ComputedNotes::ComputedNotes(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                             bool note_picks)
    : problem_(&problem), instance_(std::move(instance)), format_(problem.text_format()), note_picks_(note_picks) {
  if (instance_ == nullptr) throw Error("computed notes: no instance given");
  if (!format_.echo)
    throw Error("computed notes: " + std::string(problem.name()) +
                "'s text writes no notes (set text.style: compact_echo, compact_state, compact_ranked or compact_insert in the model's recipe, or turn computed_notes off)");
}

void ComputedNotes::reset() {
  lexer_ = {};
  solution_ = {};
  note_.clear();
}

ComputedNotes::Mark ComputedNotes::mark() const {
  return {lexer_, solution_.lists.size(), solution_.lists.empty() ? 0 : solution_.lists.back().size(), note_};
}

void ComputedNotes::undo(const Mark& mark) {
  lexer_ = mark.lexer;
  solution_.lists.resize(mark.lists);
  if (!solution_.lists.empty()) solution_.lists.back().resize(mark.last_size);
  note_ = mark.note;
}

// The index's digits are complete: it joins the current list, and its note, " (...)" as the echo
// text writes it, is what must follow. `terminator` is the first byte of that note.
bool ComputedNotes::complete_index(unsigned char terminator) {
  if (solution_.lists.empty()) return false;  // digits outside a list are the grammar's to refuse
  // As the parsers read it: a 1-based "0" is -1 (an invalid ID, or compact_insert's "first").
  solution_.lists.back().push_back(static_cast<int>(lexer_.pending - format_.index_base));
  const problems::EchoNotes notes = problem_->echo_notes(*instance_, solution_);
  if (notes.size() != solution_.lists.size() || notes.back().size() != solution_.lists.back().size())
    throw Error("computed notes: " + std::string(problem_->name()) + "'s echo_notes gave " +
                std::to_string(notes.size()) + " lists for " + std::to_string(solution_.lists.size()));
  note_ = problems::echo_note_text(notes.back().back());
  lexer_.pending = 0;
  lexer_.pending_digits = 0;
  if (note_.empty() || static_cast<unsigned char>(note_[0]) != terminator) return false;
  lexer_.note_at = note_.size() > 1 ? 1 : -1;
  return true;
}


const std::string& ComputedNotes::choices_note() const {
  if (!list_is_empty() || solution_.lists.empty()) return note_;
  if (!probed_ || probed_for_ != solution_) {  // an item that moves nothing: the state before any pick
    problems::Solution probe = solution_;
    probe.lists.back() = {-1};
    const problems::EchoNotes notes = problem_->echo_notes(*instance_, probe);
    probe_note_ = notes.empty() || notes.back().empty() ? std::string() : problems::echo_note_text(notes.back().back());
    probed_for_ = solution_;
    probed_ = true;
  }
  return probe_note_;
}

const ComputedNotes::Choices& ComputedNotes::choices() const {
  static const Choices kFree;
  if (!note_picks_) return kFree;
  const std::string& note = choices_note();
  if (note.empty()) return kFree;
  const bool first_pick = list_is_empty();
  if (note == parsed_note_ && first_pick == parsed_first_pick_) return parsed_;
  // The note as written: " (#7#5)".
  const std::size_t open = note.find('('), close = note.rfind(')');
  std::optional<std::vector<std::string_view>> listed;
  if (open != std::string::npos && close != std::string::npos && open < close)
    listed = problems::note_ids(std::string_view(note).substr(open + 1, close - open - 1));
  parsed_note_ = note;
  parsed_first_pick_ = first_pick;
  parsed_ = {};
  if (!listed) return parsed_;  // a note of numbers: picks free
  parsed_.restricts = true;
  parsed_.ids.assign(listed->begin(), listed->end());
  if (format_.nested && !parsed_.ids.empty() && parsed_.ids.front() == "0") {  // the route is full: the rest start the next
    parsed_.ids.erase(parsed_.ids.begin());
    parsed_.ends_list = !first_pick;
  }
  return parsed_;
}

bool ComputedNotes::may_open_list() {
  if (!note_picks_) return true;
  solution_.lists.emplace_back();
  const Choices& c = choices();
  const bool first_pick = !c.restricts || !c.ids.empty();
  solution_.lists.pop_back();
  return first_pick;
}

bool ComputedNotes::may_close_body() const {
  if (!note_picks_) return true;
  // A flat text goes on while its note lists a pick, as the heuristic sampler's walk does: each
  // listed pick still adds to the answer (a free vertex to a set, a node within the budget to a tour).
  if (const Choices& c = choices(); !format_.nested && c.restricts && !c.ids.empty()) return false;
  return problem_->feasible(*instance_, problem_->solution_of_text(*instance_, solution_));
}

bool ComputedNotes::step(unsigned char byte) {
  if (lexer_.done) return true;
  if (lexer_.note_at >= 0) {  // inside a note: only its own next byte
    if (static_cast<unsigned char>(note_[lexer_.note_at]) != byte) return false;
    lexer_.note_at = lexer_.note_at + 1 < static_cast<int>(note_.size()) ? lexer_.note_at + 1 : -1;
    return true;
  }
  const int list_depth = format_.nested ? 2 : 1;
  if (lexer_.depth == 0) {  // the keyword: the body starts at the first '['
    if (byte == '[') {
      lexer_.depth = 1;
      if (!format_.nested) solution_.lists.emplace_back();
    }
    return true;
  }
  if (byte >= '0' && byte <= '9' && lexer_.depth == list_depth) {
    if (lexer_.pending_digits >= kMaxDigits) return false;
    if (const Choices& c = choices(); c.restricts) {  // the digits so far must start a listed ID
      const std::string digits = std::to_string(lexer_.pending * 10 + (byte - '0'));
      if (static_cast<int>(digits.size()) != lexer_.pending_digits + 1) return false;  // a leading zero
      bool starts_one = false;
      for (const auto& id : c.ids) starts_one = starts_one || id.compare(0, digits.size(), digits) == 0;
      if (c.ends_list || !starts_one) return false;
    }
    lexer_.pending = lexer_.pending * 10 + (byte - '0');
    ++lexer_.pending_digits;
    return true;
  }
  if (lexer_.pending_digits > 0) {
    if (const Choices& c = choices(); c.restricts) {  // the whole ID must be a listed one
      const std::string digits = std::to_string(lexer_.pending);
      if (std::find(c.ids.begin(), c.ids.end(), digits) == c.ids.end()) return false;
    }
    const Mark before = mark();
    if (!complete_index(byte)) {
      undo(before);
      return false;
    }
    return true;
  }
  if (byte == ',' && lexer_.depth == list_depth) {  // another pick follows: the note must allow one
    if (const Choices& c = choices(); c.restricts && (c.ends_list || c.ids.empty())) return false;
  }
  if (byte == ',' && format_.nested && lexer_.depth == 1 && !may_open_list()) return false;
  if (byte == '[' && format_.nested && lexer_.depth == 1) {
    lexer_.depth = 2;
    solution_.lists.emplace_back();
  } else if (byte == ']' && lexer_.depth > 0) {
    if (lexer_.depth == 1 && !may_close_body()) return false;
    if (--lexer_.depth == 0) lexer_.done = true;
  }
  return true;
}

bool ComputedNotes::writes_note(unsigned char byte) const {
  if (lexer_.done) return false;
  return lexer_.note_at >= 0 || (lexer_.pending_digits > 0 && !(byte >= '0' && byte <= '9'));
}

bool ComputedNotes::feed(std::string_view bytes) { return feed_all(*this, bytes); }

std::vector<bool> note_tokens(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                              const std::vector<std::string_view>& token_bytes) {
  ComputedNotes notes(problem, std::move(instance));
  std::vector<bool> flags;
  flags.reserve(token_bytes.size());
  std::size_t offset = 0;
  for (const auto bytes : token_bytes) {
    bool all_note = !bytes.empty();
    for (const unsigned char byte : bytes) {
      all_note = all_note && notes.writes_note(byte);
      if (!notes.step(byte))
        throw Error("computed notes: byte " + std::to_string(offset) + " of a " + std::string(problem.name()) +
                    " solution text is not what its notes say; the text is not this instance's echo text");
      ++offset;
    }
    flags.push_back(all_note);
  }
  return flags;
}

}  // namespace falcon::decoding
