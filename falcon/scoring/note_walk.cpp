#include "falcon/scoring/note_walk.h"

#include <algorithm>
#include <string_view>

#include "falcon/problems/jssp.h"
#include "falcon/problems/solution_text.h"

namespace falcon::scoring {
namespace {

constexpr int kOutOfRange = -1;  // an item that moves no problem's state (ranked texts are 0-based)

// Every listed choice moves the state, so a walk ends on an empty note; this bound only stops a note
// that never empties. A text lists at most 4n + 8 items, a dispatch order one per operation.
int max_picks(const problems::Instance& instance) {
  if (const auto* shop = dynamic_cast<const problems::jssp::JsspInstance*>(&instance))
    return shop->jobs * shop->machines + 8;
  return 4 * instance.size() + 8;
}

// The note the last item of `items` leaves.
std::string last_note(const problems::Problem& styled, const problems::Instance& instance,
                      const problems::Solution& items) {
  const problems::EchoNotes notes = styled.echo_notes(instance, items);
  return notes.empty() || notes.back().empty() ? std::string() : notes.back().back();
}

}  // namespace

int draw_rank(int count, double q, Rng& rng) {
  double total = 0, weight = 1;
  for (int r = 0; r < count; ++r, weight *= q) total += weight;
  double u = rng.uniform() * total;
  weight = 1;
  for (int r = 0; r < count; ++r, weight *= q) {
    if (u < weight) return r;
    u -= weight;
  }
  return count - 1;  // rounding
}

std::vector<int> note_choices(const std::string& note, int index_base) {
  std::string_view listed = note;
  if (const std::size_t colon = note.find(':'); colon != std::string::npos && note[0] == '#')
    listed.remove_prefix(colon + 1);  // an insertion note: its job comes before the ':' ("#3:")
  std::vector<int> choices;
  if (const auto ids = problems::note_ids(listed)) {
    for (std::string_view id : *ids) {
      long long value = 0;
      for (char c : id) value = std::min(value * 10 + (c - '0'), 1'000'000'000LL);  // no note lists such an ID
      choices.push_back(static_cast<int>(value) - index_base);
    }
  }
  return choices;
}

problems::Solution walk_notes(const problems::Problem& styled, const problems::Instance& instance, NotedText text,
                              double q, Rng& rng) {
  const problems::TextFormat format = styled.text_format();
  problems::Solution items;
  items.lists.emplace_back();
  std::vector<int> choices;
  if (text == NotedText::kInsertion) {
    choices = {0 - format.index_base};  // "#0": the first job's one place, "first"
  } else {
    problems::Solution probe;
    probe.lists.push_back({kOutOfRange});
    choices = note_choices(last_note(styled, instance, probe), format.index_base);
  }
  const int bound = max_picks(instance);
  for (int pick = 0; pick < bound && !choices.empty(); ++pick) {
    if (format.nested && choices.front() == 0) {  // the route is full: the rest start the next one
      choices.erase(choices.begin());
      if (choices.empty()) break;
      if (!items.lists.back().empty()) items.lists.emplace_back();
    }
    items.lists.back().push_back(choices[draw_rank(static_cast<int>(choices.size()), q, rng)]);
    choices = note_choices(last_note(styled, instance, items), format.index_base);
  }
  return items;
}

}  // namespace falcon::scoring
