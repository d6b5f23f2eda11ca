#pragma once
// Maximum independent set and minimum vertex cover (Appendix B.4, B.5): two problems over one
// instance type, text format and grammar. Solution text: "Set: [3, 0, 7], Objective: 3.00",
// vertex ids 0..n-1, the empty set allowed (Appendix D). The order of the ids carries no
// meaning: a set is feasible in any order, and repair keeps the order of the ids it keeps.
//
// Benchmark files (read_file): DIMACS .clq files are maximum-clique instances, so MIS and MVC
// read their COMPLEMENT (alpha(co-G) = omega(G)); every other extension (.mis of BHOSLIB,
// .col, .dimacs, ...) is read as the graph itself. To solve MIS on a .clq graph as written,
// copy it to another extension. A .clq file whose complement would pass 5 million edges is refused.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "falcon/problems/graph.h"
#include "falcon/problems/problem.h"

namespace falcon::problems {

struct GraphInstance : Instance {
  Graph graph;
  int size() const override { return graph.n; }
};

namespace mis_mvc {

// Keys: n, distribution (er | ba; default er), p (er edge probability, default 0.15),
// m (ba edges per new vertex, default 4). Names the instance "<problem>-n<n>-s<seed>".
std::shared_ptr<GraphInstance> generate(const GenerateOptions& options, std::uint64_t seed, std::string_view problem);
// DIMACS format (graph.h); .clq -> complement, see the top of this file.
std::shared_ptr<GraphInstance> read_file(const std::string& path);
// "MIS n=5: 0:1,3 2:4": per vertex u (ascending) its neighbours v > u; each edge once.
std::string prompt(const GraphInstance& instance, std::string_view tag);
// The compact text style's (formats/compact.h): "MIS:#0:#3#7;#1;" — every vertex with all its neighbours;
// with `upper_only` (compact_echo) only those above it, each edge once, the list a note copies;
// `with_degree` (compact_state) writes each vertex's degree after its ID: "#0 2:#3#7;".
std::string compact_prompt(const GraphInstance& instance, std::string_view tag, bool upper_only = false,
                           bool with_degree = false);
// Vertices relabelled; the set written ascending again (Problem::symmetric_copy).
SymmetricCopy symmetric_copy(const GraphInstance& instance, const Solution& set, Rng& rng);
// The compact_echo style's notes (formats/notes.h) for a set written ascending; each note is
// IDs "#u#w" a later vertex of the set must avoid (MIS) or a later vertex must be (MVC):
//   MIS: after v, its neighbours above v. A set is independent when no vertex it lists appeared
//        in an earlier note.
//   MVC: after v, the neighbours above v of the vertices skipped since the previous one. A set is
//        a cover when no vertex it skips appeared in an earlier note and no skipped vertices are
//        adjacent to each other.
// Ids out of range get an empty note.
EchoNotes mis_echo_notes(const GraphInstance& instance, const Solution& set);
EchoNotes mvc_echo_notes(const GraphInstance& instance, const Solution& set);
// The compact_state style's MIS notes (formats/notes.h): after v, the vertices above v that
// no vertex so far rules out, so "may w come next?" is "is w in the latest note?" and a maximal
// set ends on "()". An ID out of range changes nothing.
EchoNotes mis_state_notes(const GraphInstance& instance, const Solution& set);
// The compact_ranked style's MIS notes (formats/ranked.h): after each vertex, every vertex
// still free, fewest free neighbours first (ties: smallest ID), so that always writing a note's
// first vertex, after the vertex of least degree, is min-degree greedy.
EchoNotes mis_ranked_notes(const GraphInstance& instance, const Solution& set);
// The set's vertices in the order min-degree greedy held to the set takes them (the compact_ranked
// text's order): those not free then (a set that is not independent) follow by ID, then IDs out of
// range and repeats as they came. A solution of more than one list comes back as it is.
Solution mis_ranked_order(const GraphInstance& instance, const Solution& set);
// The compact_ranked style's MVC notes and order, likewise with max-degree greedy: after each
// vertex, every vertex with edges still uncovered, most uncovered edges first (ties: smallest ID),
// so that a cover ends on "()" and always writing a note's first vertex, after the vertex of most
// edges, is max-degree greedy; the cover written in the order that greedy held to it takes it.
EchoNotes mvc_ranked_notes(const GraphInstance& instance, const Solution& set);
Solution mvc_ranked_order(const GraphInstance& instance, const Solution& set);
// The compact_ranked_keyed style's notes: the ranked notes above with the count the greedy ranks
// by written before each run of ties, "1:#30#12 2:#15#4" (MIS: free neighbours; MVC: uncovered
// edges), so that the note shows which choices the greedy holds equal and every free vertex's count.
EchoNotes mis_keyed_notes(const GraphInstance& instance, const Solution& set);
EchoNotes mvc_keyed_notes(const GraphInstance& instance, const Solution& set);
// The compact_ranked_keyed text's orders: mis_ranked_order / mvc_ranked_order with ties broken
// first by two_hop_key, a rule the keyed notes let the model compute (each vertex's count is in
// the note, its neighbours in the prompt) and worth about half of the greedy's gap on ER-50 graphs
// (experiments/labels_toward_greedy: MIS 2.16% against 4.03%, MVC 2.58% against 4.59%).
Solution mis_keyed_order(const GraphInstance& instance, const Solution& set);
Solution mvc_keyed_order(const GraphInstance& instance, const Solution& set);
// The greedy a ranked text follows, one vertex at a time: each vertex's rank key (smaller first;
// none: not in the note, or not takeable), and what taking a vertex changes.
class GreedyState {
 public:
  virtual ~GreedyState() = default;
  virtual std::optional<int> key(int v) const = 0;
  virtual void take(int v) = 0;
};
// MIS: a free vertex ranks by its free neighbours; taking it rules it and its neighbours out.
std::unique_ptr<GreedyState> min_degree_free(const Graph& g);
// MVC: a vertex with uncovered edges ranks by their number, most first; taking it covers them.
std::unique_ptr<GreedyState> max_degree_uncovered(const Graph& g);
// The ranked note in `state`: every vertex with a key, smallest key first (ties: smallest ID).
std::vector<int> ranked_note(const Graph& g, const GreedyState& state);
// A tie-break among vertices of one key, smaller first: minus the sum of v's neighbours' keys,
// so the vertex whose neighbours rank worst comes first. MIS: the free vertex whose free
// neighbours have the most free neighbours (taking it rules out the vertices that constrain the
// rest most); MVC: the vertex whose neighbours have the fewest uncovered edges left (they are the
// ones a cover would otherwise have to take for few edges). With the sign reversed MVC's greedy
// gets worse than with its ties by ID (7.86% against 4.59%).
int two_hop_key(const Graph& g, const GreedyState& state, int v);
// The ranked note's vertices ordered by (key, two_hop_key, ID): the greedy with that tie-break.
std::vector<int> two_hop_preference(const Graph& g, const GreedyState& state);
// The compact_state style's MVC notes: after v, the vertices above v that a vertex skipped so far
// (one up to v that the set leaves out) is adjacent to, so each must be written: "may the set
// skip to w?" is "does the latest note list nothing below w?". A cover ends on "()" with no edge
// among the vertices after its last. An ID out of range changes nothing.
EchoNotes mvc_state_notes(const GraphInstance& instance, const Solution& set);

// Distinct valid ids in the list: |S|, the objective of both problems.
int set_size(const Graph& g, const std::vector<int>& items);
// |a - b| + |b - a| as multisets (invalid ids are values like any other): the repair distance.
int multiset_symmetric_difference(std::vector<int> a, std::vector<int> b);

}  // namespace mis_mvc

namespace mis {

// Edges with both ends among the distinct valid ids of `items`.
int conflicting_edges(const Graph& g, const std::vector<int>& items);
// invalid ids + duplicate ids + conflicting edges (+1 when the solution is not exactly one list).
double violation(const GraphInstance& instance, const Solution& solution);
bool feasible(const GraphInstance& instance, const Solution& solution);
// Appendix E: drop invalid and repeated ids (keep first), then while two kept vertices are
// adjacent, remove the vertex with the most neighbours in the current set; ties go to the
// vertex listed last. That vertex w has a conflict (w, x) with deg(x) <= deg(w), for which the
// paper's rule (remove the higher-degree endpoint, u on a tie) removes w: this is the paper's
// loop with a fixed choice of conflict. O(|E| log n) with a lazy max-heap.
std::vector<int> repair_set(const Graph& g, const std::vector<int>& items);

const Problem& problem();

}  // namespace mis

namespace mvc {

// Edges with neither end among the valid ids of `items`.
int uncovered_edges(const Graph& g, const std::vector<int>& items);
// invalid ids + duplicate ids + uncovered edges (+1 when the solution is not exactly one list).
double violation(const GraphInstance& instance, const Solution& solution);
bool feasible(const GraphInstance& instance, const Solution& solution);
// Appendix E: drop invalid and repeated ids (keep first), then while an edge is uncovered, add
// the vertex with the most uncovered edges; ties go to the smallest id. (That vertex w has an
// uncovered edge (w, x) with deg(x) <= deg(w), for which the paper's rule adds w.) The added
// vertices are appended in ascending order. O(|E| log n). From the empty set this is the
// max-degree greedy cover.
std::vector<int> repair_set(const Graph& g, const std::vector<int>& items);

const Problem& problem();

}  // namespace mvc

}  // namespace falcon::problems
