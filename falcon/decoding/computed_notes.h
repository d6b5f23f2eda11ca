#pragma once
// Computed notes (beyond the paper; off by default): in an echo text (compact_echo), the note after
// each index is the running state that index leaves (formats/notes.h: CVRP's demand and
// capacity left, MIS's neighbours), a function of the instance and the indices written so far.
// With this tracker AND-ed into the grammar mask, the decoder writes each note: after an index
// only the bytes of its right note are allowed. The model still chooses every index, route break
// and the objective; a note it would have misread can no longer mislead its next choice.
//
// It reads the body of the solution text byte by byte like the semantic tracker: everything
// before the first '[' is the keyword, indices are digit runs inside the (inner) lists, and the
// body ends when the brackets close. The byte that ends an index's digits starts its note, so an
// ID that may still grow ("#1" before "#12") is never cut short.
//
// Note picks (beyond the paper; off by default), for a text whose notes list the next pick's
// choices (compact_ranked), as the heuristic sampler walks them (scoring/note_walk.h):
//   - a pick after a pick must be one the note before it lists; after an empty note the list may
//     only close, and in a nested text (CVRP) after a note that starts with ID 0 (the route is
//     full) the list may only close too;
//   - a list's first pick must be one the note an out-of-range item would leave there lists (the
//     state before any pick: CVRP's customers not yet routed);
//   - a new list opens only when it would have a first pick, and the body closes only on a
//     feasible solution (MVC's cover, PFSP's whole order, CVRP's every customer routed; an OP
//     route or an MIS set may end early).
// Every pick is then one of the notes' choices and the text ends feasible; a note of numbers
// (CVRP's echo) restricts nothing.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::decoding {

class ComputedNotes {
 public:
  // Throws falcon::Error when the problem's text writes no notes (only compact_echo does).
  ComputedNotes(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                bool note_picks = false);

  // Reads one byte; false when it is not the next byte of the text the notes allow (nothing changes then).
  bool step(unsigned char byte);
  // All bytes, or none when one is refused.
  bool feed(std::string_view bytes);
  void reset();

  // For trying bytes and taking them back: mark(), step()..., undo(mark). Indices are only ever
  // appended, so a mark is the sizes to cut back to and the lexer as it was.
  struct Mark {
    struct Lexer {
      int depth = 0;
      bool done = false;
      long long pending = 0;
      int pending_digits = 0;
      int note_at = -1;  // the next byte of note_ to write; -1 outside a note
    } lexer;
    std::size_t lists = 0;       // lists opened
    std::size_t last_size = 0;   // indices in the last of them
    std::string note;            // the note being written (short: a few numbers or IDs)
  };
  Mark mark() const;
  void undo(const Mark& mark);
  void commit() {}  // nothing is logged beyond what mark() copies

  // Whether `byte`, read next, would be a byte of a note (the byte that ends an index's digits
  // starts its note), so that the decoder, not the model, writes it.
  bool writes_note(unsigned char byte) const;

  bool in_body() const { return lexer_.depth > 0; }
  bool done() const { return lexer_.done; }
  // The indices read so far (0-based, as Solution holds them), list by list.
  const problems::Solution& read_so_far() const { return solution_; }

 private:
  bool complete_index(unsigned char terminator);
  // With note picks: what the next pick may be, parsed once per note.
  struct Choices {
    bool restricts = false;        // false: any pick (picks free, or a note of numbers)
    bool ends_list = false;        // nested text, after a pick: the note starts with ID 0
    std::vector<std::string> ids;  // as written; a leading ID 0 of a nested text left out
  };
  const Choices& choices() const;
  // The note that lists the next pick's choices: the last one, or at a list's first pick the
  // one an out-of-range item would leave there.
  const std::string& choices_note() const;
  bool list_is_empty() const { return solution_.lists.empty() || solution_.lists.back().empty(); }
  bool may_close_body() const;  // note picks: the solution read so far is feasible and, flat, its note lists no pick
  bool may_open_list();          // note picks, nested: a new list would have a first pick

  const problems::Problem* problem_;
  std::shared_ptr<const problems::Instance> instance_;
  problems::TextFormat format_;
  Mark::Lexer lexer_;
  problems::Solution solution_;
  std::string note_;
  bool note_picks_ = false;
  // Caches of choices(): the note parsed, and the solution the first-pick note was made for.
  mutable std::string parsed_note_ = "\x01";
  mutable bool parsed_first_pick_ = false;
  mutable Choices parsed_;
  mutable problems::Solution probed_for_;
  mutable std::string probe_note_;
  mutable bool probed_ = false;
};

// For the tokens of a solution text, given as their bytes in order: whether the notes dictate
// every byte of the token, i.e. whether a decoder with computed notes writes that token itself.
// Tokens without bytes (EOS) are not. Throws falcon::Error when the pieces stray from the notes
// (they are not the problem's echo text for this instance).
std::vector<bool> note_tokens(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                              const std::vector<std::string_view>& token_bytes);

}  // namespace falcon::decoding
