// The compact_echo text style: the notes each problem writes after an index, the rule each note
// turns feasibility into, and the solution text around them (format, strict and lenient parse).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/jssp_dispatch.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"
#include "falcon/problems/registry.h"
#include "falcon/formats/text_style.h"
#include "falcon/problems/tsp.h"

namespace falcon::problems {
namespace {

using formats::with_text_style;
using formats::make_text_style;

const Problem& echo(const std::string& problem) {
  return with_text_style(problem_by_name(problem), make_text_style("compact_echo", 0, "test"));
}

std::shared_ptr<GraphInstance> graph(int n, std::vector<std::pair<int, int>> edges) {
  auto g = std::make_shared<GraphInstance>();
  g->graph = Graph::from_edges(n, std::move(edges));
  return g;
}

// The IDs a note names: "#3#9" -> {3, 9}.
std::set<int> ids_of(const std::string& note) {
  std::set<int> ids;
  for (std::size_t at = note.find('#'); at != std::string::npos; at = note.find('#', at + 1))
    ids.insert(std::stoi(note.substr(at + 1)));
  return ids;
}

// A random ascending subset of 0..n-1, each vertex in it with probability `density`.
std::vector<int> random_set(int n, double density, Rng& rng) {
  std::vector<int> set;
  for (int v = 0; v < n; ++v)
    if (rng.bernoulli(density)) set.push_back(v);
  return set;
}

// The problem's generated instance of n nodes, as its own type.
template <class T>
std::shared_ptr<T> generated(const Problem& problem, int n, int seed) {
  GenerateOptions options;
  options.n = n;
  return std::static_pointer_cast<T>(problem.generate(options, static_cast<std::uint64_t>(seed)));
}

std::shared_ptr<GraphInstance> generated_graph(const Problem& problem, int n, int seed) {
  return generated<GraphInstance>(problem, n, seed);
}

TEST(EchoNotes, PinnedTextsOfMisMvcAndCvrp) {
  // Path 0-1-2-3 and the edge 0-3: a 4-cycle.
  const auto cycle = graph(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
  EXPECT_EQ(echo("mis").format(*cycle, Solution::flat({0, 2})), "Set: [#0 (#1#3), #2 (#3)], Objective: 2.00");
  // MVC {1, 3}: before 1 the skipped 0 forces its neighbours above 1 (3); before 3, 2 forces none above 3.
  EXPECT_EQ(echo("mvc").format(*cycle, Solution::flat({1, 3})), "Set: [#1 (#3), #3 ()], Objective: 2.00");
  // The echo's prompt lists each edge once, at its lower end: a MIS note is a copy of its clause.
  EXPECT_EQ(echo("mis").prompt(*cycle), "MIS:#0:#1#3;#1:#2;#2:#3;#3;");
  EXPECT_EQ(echo("mvc").prompt(*cycle), "MVC:#0:#1#3;#1:#2;#2:#3;#3;");
  EXPECT_EQ(with_text_style(problem_by_name("mis"), make_text_style("compact", 0, "test")).prompt(*cycle),
            "MIS:#0:#1#3;#1:#0#2;#2:#1#3;#3:#0#2;");

  auto cvrp = std::make_shared<cvrp::CvrpInstance>();
  cvrp->geometry = RoutingGeometry::euclidean({{0, 0}, {0, 1}, {1, 0}, {1, 1}});
  cvrp->demands = {0, 4, 5, 9};
  cvrp->capacity = 10;
  EXPECT_EQ(echo("cvrp").format(*cvrp, Solution{{{1, 2}, {3}}}),
            "Routes: [[#1 (4 6), #2 (5 1)], [#3 (9 1)]], Objective: 6.24");
  // An overloaded route's notes stop at 0 (a note is digits only); ids out of range take nothing.
  EXPECT_EQ(cvrp::echo_notes(*cvrp, Solution{{{3, 2, 99, -1}}}), (EchoNotes{{"9 1", "5 0", "0 0", "0 0"}}));
  // The echo's prompt puts each demand right after its customer's ID, where the note copies it from.
  EXPECT_EQ(echo("cvrp").prompt(*cvrp), "CVRP:10;#0 0 0;#1 4 0 99;#2 5 99 0;#3 9 99 99;");
  // Each candidate carries its demand, where the choice of the next customer looks.
  const std::string with_candidates =
      with_text_style(problem_by_name("cvrp"), make_text_style("compact_echo", 2, "test")).prompt(*cvrp);
  EXPECT_NE(with_candidates.find(";#1 4 0 99:#3 9#2 5;"), std::string::npos) << with_candidates;
}

TEST(EchoNotes, OpNoteIsTheBudgetLeftAfterGoingHomeFromThere) {
  auto op = std::make_shared<op::OpInstance>();
  op->geometry = RoutingGeometry::euclidean({{0, 0}, {0, 0.5}, {0.5, 0.5}, {1, 1}});
  op->prizes = {0, 0.3, 0.4, 0.9};
  op->budget = 2.0;
  // After #1: 2 - 0.5 out - 0.5 home = 1.0, 100 on the grid; after #2: 2 - 1.0 - sqrt(0.5) = 0.29.
  EXPECT_EQ(echo("op").format(*op, Solution::flat({1, 2})), "Route: [#1 (100), #2 (29)], Objective: 0.70");
  EXPECT_EQ(echo("op").format(*op, Solution::flat({})), "Route: [], Objective: 0.00");
  // Over the budget the note stops at 0; ids out of range take nothing, so the note repeats.
  EXPECT_EQ(op::echo_notes(*op, Solution::flat({1, 99, 3, -1})), (EchoNotes{{"100", "100", "0", "0"}}));
  // The text reads back to the route, notes skipped.
  const Problem& text = echo("op");
  EXPECT_EQ(text.parse("Route: [#1 (100), #2 (29)], Objective: 0.70").solution->lists, Solution::flat({1, 2}).lists);
}

TEST(EchoNotes, OpLastNoteIsTheSlackOfARouteThatFitsAndNotesNeverGrow) {
  // On generated instances, the last note is floor(100 * (budget - length)) of a route that fits:
  // the note the model reads before it decides to go home.
  const Problem& op = problem_by_name("op");
  Rng rng(6);
  for (int seed = 0; seed < 20; ++seed) {
    GenerateOptions options;
    options.n = 20;
    const auto inst = std::static_pointer_cast<op::OpInstance>(op.generate(options, static_cast<std::uint64_t>(seed)));
    std::vector<int> route;
    for (int v = 1; v < 20; ++v)
      if (rng.bernoulli(0.3)) route.push_back(v);
    const auto cut = op::repair_route(*inst, route);  // fits the budget
    if (cut.empty()) continue;
    const EchoNotes notes = op::echo_notes(*inst, Solution::flat(cut));
    const double slack = inst->budget - op::route_length(*inst, cut);
    ASSERT_GE(slack, -1e-9);
    EXPECT_EQ(notes[0].back(), std::to_string(static_cast<long long>(std::floor(std::max(0.0, slack) * 100))));
    for (std::size_t k = 1; k < notes[0].size(); ++k)  // going further never leaves more budget
      EXPECT_LE(std::stoll(notes[0][k]), std::stoll(notes[0][k - 1]));
  }
}

TEST(EchoNotes, MisSetIsIndependentExactlyWhenNoVertexWasInAnEarlierNote) {
  Rng rng(4);
  const Problem& mis = problem_by_name("mis");
  int independent = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto inst = generated_graph(mis, 14, trial);
    const Solution set = Solution::flat(random_set(14, 0.4, rng));
    const EchoNotes notes = mis_mvc::mis_echo_notes(*inst, set);
    std::set<int> ruled_out;
    bool clash = false;
    for (std::size_t i = 0; i < set.items().size(); ++i) {
      clash |= ruled_out.count(set.items()[i]) > 0;
      for (int id : ids_of(notes[0][i])) ruled_out.insert(id);
    }
    EXPECT_EQ(!clash, mis.feasible(*inst, set)) << "trial " << trial;
    independent += !clash;
  }
  EXPECT_GT(independent, 10);  // both outcomes are tested
  EXPECT_LT(independent, 190);
}

TEST(EchoNotes, MisStateNotesAreTheVerticesStillFree) {
  const auto cycle = graph(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
  const Problem& state = with_text_style(problem_by_name("mis"), make_text_style("compact_state", 0, "test"));
  // After 0 only 2 is free above it (1 and 3 are its neighbours); after 2 nothing: a maximal set ends on ().
  EXPECT_EQ(state.format(*cycle, Solution::flat({0, 2})), "Set: [#0 (#2), #2 ()], Objective: 2.00");
  // The echo's prompt with each vertex's degree: which free vertex to skip depends on it.
  EXPECT_EQ(echo("mis").prompt(*cycle), "MIS:#0:#1#3;#1:#2;#2:#3;#3;");
  EXPECT_EQ(state.prompt(*cycle), "MIS:#0 2:#1#3;#1 2:#2;#2 2:#3;#3 2;");
  // Other problems have no state notes of their own: the echo's.
  auto cvrp = std::make_shared<cvrp::CvrpInstance>();
  cvrp->geometry = RoutingGeometry::euclidean({{0, 0}, {0, 1}});
  cvrp->demands = {0, 4};
  cvrp->capacity = 10;
  EXPECT_EQ(with_text_style(problem_by_name("cvrp"), make_text_style("compact_state", 0, "test")).format(*cvrp, Solution{{{1}}}),
            echo("cvrp").format(*cvrp, Solution{{{1}}}));
}

TEST(EchoNotes, MisSetIsIndependentExactlyWhenEachVertexIsInTheStateNoteBeforeIt) {
  Rng rng(7);
  const Problem& mis = problem_by_name("mis");
  int independent = 0, maximal_ends = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto inst = generated_graph(mis, 14, trial);
    const std::vector<int> items = random_set(14, 0.3, rng);
    const Solution set = Solution::flat(items);
    const EchoNotes notes = mis_mvc::mis_state_notes(*inst, set);
    bool in_notes = true;
    for (std::size_t i = 1; i < items.size(); ++i) in_notes &= ids_of(notes[0][i - 1]).count(items[i]) > 0;
    EXPECT_EQ(in_notes, mis.feasible(*inst, set)) << "trial " << trial;
    independent += in_notes;
    if (!in_notes || items.empty()) continue;
    // An independent set ends on () exactly when no vertex above its last one could still join.
    bool could_grow = false;
    for (int w = items.back() + 1; w < 14; ++w) {
      bool free = true;
      for (int v : items) free &= w != v && !inst->graph.adjacent(v, w);
      could_grow |= free;
    }
    EXPECT_EQ(notes[0].back().empty(), !could_grow) << "trial " << trial;
    maximal_ends += !could_grow;
  }
  EXPECT_GT(independent, 10);  // both outcomes are tested
  EXPECT_LT(independent, 190);
  EXPECT_GT(maximal_ends, 0);
}

TEST(EchoNotes, MvcSetIsACoverExactlyWhenItSkipsNoNotedVertexAndNoTwoAdjacentOnes) {
  Rng rng(5);
  const Problem& mvc = problem_by_name("mvc");
  int covers = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto inst = generated_graph(mvc, 12, trial);
    const std::vector<int> items = random_set(12, 0.7, rng);  // denser sets: more of them are covers
    const Solution set = Solution::flat(items);
    const EchoNotes notes = mis_mvc::mvc_echo_notes(*inst, set);
    const int last = items.empty() ? -1 : items.back();
    std::set<int> noted;
    std::vector<char> in(12, 0);
    for (int v : items) in[v] = 1;
    for (std::size_t i = 0; i < items.size(); ++i)
      for (int id : ids_of(notes[0][i])) noted.insert(id);
    bool broken = false;
    for (int v = 0; v < 12; ++v)
      if (!in[v]) {
        broken |= noted.count(v) > 0;
        for (int w : inst->graph.neighbors(v)) broken |= !in[w] && w > v && w <= last;  // adjacent skipped ones
      }
    // Skipped vertices after the last one written get no note: the set is a cover without them.
    for (int v = last + 1; v < 12; ++v)
      for (int w : inst->graph.neighbors(v)) broken |= !in[w];
    EXPECT_EQ(!broken, mvc.feasible(*inst, set)) << "trial " << trial;
    covers += !broken;
  }
  EXPECT_GT(covers, 10);  // both outcomes are tested
  EXPECT_LT(covers, 190);
}

TEST(EchoNotes, RankedTextIsGreedysOrderWithTheNoteInGreedysPreference) {
  const auto path_and_lone = graph(4, {{0, 1}, {1, 2}});  // 0-1-2, and 3 alone
  const Problem& ranked = with_text_style(problem_by_name("mis"), make_text_style("compact_ranked", 0, "test"));
  // Greedy held to {0, 2, 3} takes 3 (no neighbour) first, then 0 and 2 (one free neighbour each,
  // the smaller ID first). After 3, 0 and 2 have one free neighbour and 1 has two.
  EXPECT_EQ(ranked.format(*path_and_lone, Solution::flat({0, 2, 3})), "Set: [#3 (#0#2#1), #0 (#2), #2 ()], Objective: 3.00");
  EXPECT_EQ(ranked.prompt(*path_and_lone), "MIS:#0 1:#1;#1 2:#2;#2 1;#3 0;");  // the state style's
  // A set that is not independent keeps every item: the free ones ranked, the others by ID, then
  // IDs out of range and repeats as they came.
  EXPECT_EQ(mis_mvc::mis_ranked_order(*path_and_lone, Solution::flat({9, 1, 0, 3, 3})), Solution::flat({3, 0, 1, 9, 3}));
  const ParseResult back = ranked.parse(ranked.format(*path_and_lone, Solution::flat({2, 0, 3})));
  ASSERT_TRUE(back.solution.has_value()) << back.error;
  EXPECT_EQ(*back.solution, Solution::flat({3, 0, 2}));
  // MVC: the vertices with uncovered edges, most first; a cover ends on "()". On the path
  // 0-1-2-3-4 greedy held to {3, 1} takes 1 (two uncovered edges, the smaller ID of a tie), which
  // leaves 2-3 and 3-4: 3 has two, 2 and 4 one each.
  const auto path = graph(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  const Problem& mvc_ranked = with_text_style(problem_by_name("mvc"), make_text_style("compact_ranked", 0, "test"));
  EXPECT_EQ(mvc_ranked.format(*path, Solution::flat({3, 1})), "Set: [#1 (#3#2#4), #3 ()], Objective: 2.00");
  const ParseResult cover = mvc_ranked.parse("Set: [#1 (#3#2#4), #3 ()], Objective: 2.00");
  ASSERT_TRUE(cover.solution.has_value()) << cover.error;
  EXPECT_EQ(*cover.solution, Solution::flat({1, 3}));
  // Not a cover: every item stays; after 0 and 4 the edges 1-2 and 2-3 are still uncovered.
  EXPECT_EQ(mvc_ranked.format(*path, Solution::flat({4, 0})), "Set: [#0 (#2#3#1#4), #4 (#2#1#3)], Objective: 2.00");
}

// A generated shop of 3-7 jobs on 2-5 machines (by trial) and a random order naming each job once
// per machine: a dispatch order of some feasible schedule.
std::pair<std::shared_ptr<jssp::JsspInstance>, std::vector<int>> random_shop_and_picks(int trial, Rng& rng) {
  GenerateOptions options;
  options.n = 3 + trial % 5;
  options.params = {{"m", std::to_string(2 + trial % 4)}};
  auto inst = std::static_pointer_cast<jssp::JsspInstance>(problem_by_name("jssp").generate(options, trial));
  std::vector<int> picks;
  for (int j = 0; j < inst->jobs; ++j) picks.insert(picks.end(), inst->machines, j);
  rng.shuffle(picks);
  return {inst, picks};
}

TEST(EchoNotes, JsspRankedTextIsADispatchOrderInMwkrsPreference) {
  auto shop = std::make_shared<jssp::JsspInstance>();
  shop->jobs = 2, shop->machines = 2;
  shop->routes = {{{0, 5}, {1, 3}}, {{1, 4}, {0, 6}}};  // J1: M1 5, M2 3; J2: M2 4, M1 6
  const Problem& ranked = with_text_style(problem_by_name("jssp"), make_text_style("compact_ranked", 0, "test"));
  // Both start at 0 and the lower machine goes first: J1 on M1, J2 on M2. Then both next
  // operations can start at 5, J2's on the lower machine: J2 on M1 (5..11), J1 on M2 (5..8).
  const Solution schedule{{{0, 1}, {1, 0}}};
  const std::string text = "Dispatch: [#1 (#2#1), #2 (#2#1), #2 (#1), #1 ()], Objective: 11.00";
  EXPECT_EQ(ranked.format(*shop, schedule), text);
  const ParseResult back = ranked.parse(*shop, text);
  ASSERT_TRUE(back.solution.has_value()) << back.error;
  EXPECT_EQ(*back.solution, schedule);
  // Before any pick both can start at 0, J1 on the lower machine.
  EXPECT_EQ(jssp::dispatch_notes(*shop, Solution::flat({-1})), (EchoNotes{{"#1#2"}}));
  // Ties of start and machine go to the most work left: both wait for M1, J2 with 10 left, J1 8.
  auto flow = std::make_shared<jssp::JsspInstance>(*shop);
  flow->routes = {{{0, 5}, {1, 3}}, {{0, 4}, {1, 6}}};
  EXPECT_EQ(jssp::dispatch_notes(*flow, Solution::flat({-1})), (EchoNotes{{"#2#1"}}));
  // IDs out of range and jobs with nothing left move nothing; operations never picked stay off.
  EXPECT_EQ(jssp::dispatch_notes(*shop, Solution::flat({0, 0, 0, 7})), (EchoNotes{{"#2#1", "#2", "#2", "#2"}}));
  EXPECT_EQ(jssp::from_dispatch(*shop, Solution::flat({0, 0, 0, 7})), (Solution{{{0}, {0}}}));

  // On generated shops every order that names each job m times is a feasible schedule, and the
  // order a schedule is written in builds that same schedule.
  const Problem& plain = problem_by_name("jssp");
  Rng rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const auto [inst, picks] = random_shop_and_picks(trial, rng);
    const Solution built = jssp::from_dispatch(*inst, Solution::flat(picks));
    ASSERT_TRUE(plain.feasible(*inst, built)) << "trial " << trial;
    const Solution order = jssp::dispatch_order(*inst, built);
    EXPECT_EQ(jssp::from_dispatch(*inst, order), built) << "trial " << trial;
    EXPECT_EQ(ranked.parse(*inst, ranked.format(*inst, built)).solution, built) << "trial " << trial;
    const EchoNotes notes = jssp::dispatch_notes(*inst, order);
    EXPECT_EQ(notes[0].back(), "") << "trial " << trial;  // every operation placed
  }
}

TEST(EchoNotes, TspRankedNotesListTheNearestUnvisitedNodes) {
  auto tsp = std::make_shared<tsp::TspInstance>();
  tsp->geometry = RoutingGeometry::euclidean({{0, 0}, {0, 0.3}, {1, 1}, {0.5, 0}});
  // From #0: #1 at 0.3, #3 at 0.5, #2 at 1.41; from #1: #3 at 0.58, #2 at 1.22. Length 0.3 +
  // 1.22 + 1.12 + 0.5.
  const Problem& ranked = with_text_style(problem_by_name("tsp"), make_text_style("compact_ranked", 4, "test"));
  const std::string text = "Route: [#0 (#1#3#2), #1 (#3#2), #2 (#3), #3 ()], Objective: 3.14";
  EXPECT_EQ(ranked.format(*tsp, Solution::flat({0, 1, 2, 3})), text);
  EXPECT_EQ(ranked.parse(text).solution, Solution::flat({0, 1, 2, 3}));
  // Written from node 0 toward its nearer tour neighbour, whichever way and wherever it starts.
  EXPECT_EQ(ranked.format(*tsp, Solution::flat({2, 1, 0, 3})), text);
  EXPECT_EQ(tsp::ranked_order(*tsp, Solution::flat({3, 2, 1, 0})), Solution::flat({0, 1, 2, 3}));
  // A model's list without exactly one node 0 stays as written.
  EXPECT_EQ(tsp::ranked_order(*tsp, Solution::flat({1, 0, 0})), Solution::flat({1, 0, 0}));
  // Before any node the salesman stands at #0, unvisited; ids out of range move nothing, a node
  // visited again moves the salesman.
  EXPECT_EQ(tsp::ranked_notes(*tsp, Solution::flat({99})), (EchoNotes{{"#0#1#3#2"}}));
  EXPECT_EQ(tsp::ranked_notes(*tsp, Solution::flat({0, 99, 1, 0})), (EchoNotes{{"#1#3#2", "#1#3#2", "#3#2", "#3#2"}}));
  // At most five, and the opening note names the first pick a ranked text is written from.
  std::vector<Point> line;
  for (int i = 0; i < 8; ++i) line.push_back({0.1 * i, 0});
  tsp->geometry = RoutingGeometry::euclidean(line);
  EXPECT_EQ(tsp::ranked_notes(*tsp, Solution::flat({0})), (EchoNotes{{"#1#2#3#4#5"}}));
  const Problem& opening =
      with_text_style(problem_by_name("tsp"), make_text_style("compact_ranked_opening", 2, "test"));
  const std::string prompt = opening.prompt(*tsp);
  EXPECT_EQ(prompt.substr(prompt.size() - 13), " (#0#1#2#3#4)");
}

TEST(EchoNotes, RankedOpeningPromptEndsOnTheFirstPicksNote) {
  const auto path_and_lone = graph(4, {{0, 1}, {1, 2}});  // 0-1-2, and 3 alone
  const Problem& plain = with_text_style(problem_by_name("mis"), make_text_style("compact_ranked", 0, "test"));
  const Problem& opening =
      with_text_style(problem_by_name("mis"), make_text_style("compact_ranked_opening", 0, "test"));
  // Before any pick every vertex is free: 3 (no neighbour), then 0 and 2 (one), then 1 (two).
  EXPECT_EQ(opening.prompt(*path_and_lone), "MIS:#0 1:#1;#1 2:#2;#2 1;#3 0; (#3#0#2#1)");
  EXPECT_EQ(opening.prompt(*path_and_lone), plain.prompt(*path_and_lone) + " (#3#0#2#1)");
  // The solution text is the ranked text's, and so is everything read back from it.
  const Solution set = Solution::flat({0, 2, 3});
  EXPECT_EQ(opening.format(*path_and_lone, set), plain.format(*path_and_lone, set));
  EXPECT_EQ(opening.parse(opening.format(*path_and_lone, set)).solution, plain.parse(plain.format(*path_and_lone, set)).solution);
  // A nested text (CVRP): the customers that fit an empty route, nearest the depot first.
  auto cvrp = std::make_shared<cvrp::CvrpInstance>();
  cvrp->geometry = RoutingGeometry::euclidean({{0, 0}, {0, 1}, {2, 0}, {3, 3}});
  cvrp->demands = {0, 4, 5, 5};
  cvrp->capacity = 10;
  const Problem& cvrp_opening =
      with_text_style(problem_by_name("cvrp"), make_text_style("compact_ranked_opening", 0, "test"));
  const std::string prompt = cvrp_opening.prompt(*cvrp);
  EXPECT_EQ(prompt.substr(prompt.size() - 9), " (#1#2#3)") << prompt;
}

// compact_ranked_keyed: the opening text whose notes open each run of ties with the greedy's count.
TEST(EchoNotes, KeyedNotesWriteTheGreedysCountBeforeEachRunOfTies) {
  const auto path_and_lone = graph(4, {{0, 1}, {1, 2}});  // 0-1-2, and 3 alone
  const Problem& keyed = with_text_style(problem_by_name("mis"), make_text_style("compact_ranked_keyed", 0, "test"));
  const Problem& ranked = with_text_style(problem_by_name("mis"), make_text_style("compact_ranked", 0, "test"));
  // Before any pick: 3 has no free neighbour, 0 and 2 one, 1 two.
  EXPECT_EQ(keyed.prompt(*path_and_lone), "MIS:#0 1:#1;#1 2:#2;#2 1;#3 0; (0:#3 1:#0#2 2:#1)");
  EXPECT_EQ(keyed.format(*path_and_lone, Solution::flat({0, 2, 3})),
            "Set: [#3 (1:#0#2 2:#1), #0 (0:#2), #2 ()], Objective: 3.00");
  const ParseResult back = keyed.parse(keyed.format(*path_and_lone, Solution::flat({2, 0, 3})));
  ASSERT_TRUE(back.solution.has_value()) << back.error;
  EXPECT_EQ(*back.solution, Solution::flat({3, 0, 2}));
  // An MIS set is written with its ties broken by the two-hop rule. On the edge 0-1 and the path
  // 2-3-4-5, vertices 0, 1, 2 and 5 have one free neighbour each; 2's and 5's have two, 0's one:
  // the keyed order takes 2 before 0, the ranked order 0 (the smaller ID) first.
  const auto edge_and_path = graph(6, {{0, 1}, {2, 3}, {3, 4}, {4, 5}});
  EXPECT_EQ(mis_mvc::mis_keyed_order(*edge_and_path, Solution::flat({5, 2, 0})), Solution::flat({2, 0, 5}));
  EXPECT_EQ(mis_mvc::mis_ranked_order(*edge_and_path, Solution::flat({5, 2, 0})), Solution::flat({0, 2, 5}));
  // MVC: the uncovered edges; on the path 0-1-2-3-4 after 1, vertex 3 has two and 2 and 4 one.
  const auto path = graph(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  const Problem& mvc_keyed = with_text_style(problem_by_name("mvc"), make_text_style("compact_ranked_keyed", 0, "test"));
  EXPECT_EQ(mvc_keyed.format(*path, Solution::flat({3, 1})), "Set: [#1 (2:#3 1:#2#4), #3 ()], Objective: 2.00");
  // An MVC cover likewise, the tied vertex whose neighbours have the fewest uncovered edges first.
  // On the path 3-1-0-2-4 and the star 5-6, 5-7, vertices 0, 1, 2 and 5 have two edges each; 1's
  // and 2's neighbours have three, 5's two: the keyed order takes 5 first, the ranked order 1.
  const auto path_and_star = graph(8, {{0, 1}, {0, 2}, {1, 3}, {2, 4}, {5, 6}, {5, 7}});
  EXPECT_EQ(mis_mvc::mvc_keyed_order(*path_and_star, Solution::flat({1, 2, 5})), Solution::flat({5, 1, 2}));
  EXPECT_EQ(mis_mvc::mvc_ranked_order(*path_and_star, Solution::flat({1, 2, 5})), Solution::flat({1, 2, 5}));
  EXPECT_EQ(mvc_keyed.format(*path_and_star, Solution::flat({1, 2, 5})),
            "Set: [#5 (2:#0#1#2 1:#3#4), #1 (2:#2 1:#0#4), #2 ()], Objective: 3.00");
  // On random graphs and sets the keyed notes list the ranked notes' IDs in the same order, and a
  // run's count is each of its vertices' own.
  Rng rng(5);
  for (const std::string problem : {"mis", "mvc"}) {
    const Problem& k = with_text_style(problem_by_name(problem), make_text_style("compact_ranked_keyed", 0, "test"));
    const Problem& r = with_text_style(problem_by_name(problem), make_text_style("compact_ranked", 0, "test"));
    for (int trial = 0; trial < 20; ++trial) {
      const auto inst = generated_graph(problem_by_name(problem), 12 + trial, trial);
      const Solution set = Solution::flat(random_set(inst->graph.n, 0.3, rng));
      const EchoNotes kn = k.echo_notes(*inst, set), rn = r.echo_notes(*inst, set);
      ASSERT_EQ(kn.size(), rn.size());
      for (std::size_t i = 0; i < kn.back().size(); ++i) {
        std::string ids;  // the keyed note less its counts
        for (std::size_t at = 0; at < kn.back()[i].size();) {
          const std::size_t colon = kn.back()[i].find(':', at), end = std::min(kn.back()[i].find(' ', at), kn.back()[i].size());
          ASSERT_LT(colon, end) << kn.back()[i];
          ids += kn.back()[i].substr(colon + 1, end - colon - 1);
          at = end + 1;
        }
        EXPECT_EQ(ids, rn.back()[i]) << problem << " " << kn.back()[i];
      }
    }
  }
  // A problem without a keyed note is named.
  EXPECT_THROW(with_text_style(problem_by_name("tsp"), make_text_style("compact_ranked_keyed", 0, "test"))
                   .echo_notes(*generated<tsp::TspInstance>(problem_by_name("tsp"), 5, 1), Solution::flat({0, 1})),
               Error);
}

TEST(EchoNotes, JsspConflictNotesListOnlyTheJobsThatCompete) {
  auto shop = std::make_shared<jssp::JsspInstance>();
  shop->jobs = 3, shop->machines = 2;
  // J1: M1 5, M2 3; J2: M1 2, M2 6; J3: M2 4, M1 1.
  shop->routes = {{{0, 5}, {1, 3}}, {{0, 2}, {1, 6}}, {{1, 4}, {0, 1}}};
  const Problem& conflict =
      with_text_style(problem_by_name("jssp"), make_text_style("compact_ranked_conflict", 0, "test"));
  // J2 on M1 can finish first (at 2): the set is M1's jobs that start before 2, J1 (work 8) ahead
  // of J2 (work 8, higher ID); J3 on M2 does not compete and is not listed.
  EXPECT_EQ(jssp::conflict_notes(*shop, Solution::flat({-1})), (EchoNotes{{"#1#2"}}));
  const std::string prompt = conflict.prompt(*shop);
  EXPECT_EQ(prompt.substr(prompt.size() - 7), " (#1#2)") << prompt;
  // After J1 on M1 (0..5), J3 on M2 (0..4) finishes first: the set is M2's, J3 alone.
  EXPECT_EQ(jssp::conflict_notes(*shop, Solution::flat({0})), (EchoNotes{{"#3"}}));
  // An operation that takes no time finishes as it starts: the set still holds it.
  auto instant = std::make_shared<jssp::JsspInstance>(*shop);
  instant->routes[1] = {{0, 0}, {1, 6}};
  EXPECT_EQ(jssp::conflict_notes(*instant, Solution::flat({-1})), (EchoNotes{{"#2"}}));
  // Other styles' problems have no conflict set to write.
  auto tour = std::make_shared<tsp::TspInstance>();
  tour->geometry = RoutingGeometry::euclidean({{0, 0}, {0, 1}, {1, 1}});
  try {
    with_text_style(problem_by_name("tsp"), make_text_style("compact_ranked_conflict", 0, "test"))
        .format(*tour, Solution::flat({0, 1, 2}));
    ADD_FAILURE() << "TSP written with conflict notes";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'compact_ranked_conflict' is not written for tsp"), std::string::npos) << e.what();
  }

  // On generated shops every order written has each pick in the note before it (the first in the
  // prompt's) and builds a schedule no longer than the one written. (Taking every note's first job
  // is MWKR: HeuristicSampler.AlwaysTheNotesFirstChoiceIsTheirHeuristic.)
  const Problem& plain = problem_by_name("jssp");
  Rng rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const auto [inst, picks] = random_shop_and_picks(trial, rng);
    const Solution schedule = jssp::from_dispatch(*inst, Solution::flat(picks));
    const Solution order = jssp::conflict_order(*inst, schedule);
    ASSERT_EQ(order.items().size(), picks.size()) << "trial " << trial;
    const EchoNotes notes = jssp::conflict_notes(*inst, order);
    std::string before = jssp::conflict_notes(*inst, Solution::flat({-1}))[0][0];
    for (std::size_t k = 0; k < order.items().size(); ++k) {
      const std::string id = "#" + std::to_string(order.items()[k] + 1);
      EXPECT_NE((before + "#").find(id + "#"), std::string::npos) << "trial " << trial << " pick " << k << " " << before;
      before = notes[0][k];
    }
    EXPECT_EQ(before, "") << "trial " << trial;
    const Solution built = jssp::from_dispatch(*inst, order);
    ASSERT_TRUE(plain.feasible(*inst, built)) << "trial " << trial;
    EXPECT_LE(plain.objective(*inst, built), plain.objective(*inst, schedule)) << "trial " << trial;
    EXPECT_EQ(conflict.parse(*inst, conflict.format(*inst, schedule)).solution, built) << "trial " << trial;
  }
}

TEST(EchoNotes, CvrpRankedNotesListTheCustomersThatFitNearestFirst) {
  // The depot at the origin; #1 nearest it, then #2, #3 far. Capacity 10.
  auto cvrp = std::make_shared<cvrp::CvrpInstance>();
  cvrp->geometry = RoutingGeometry::euclidean({{0, 0}, {0, 1}, {2, 0}, {3, 3}});
  cvrp->demands = {0, 4, 5, 5};
  cvrp->capacity = 10;
  const Problem& ranked = with_text_style(problem_by_name("cvrp"), make_text_style("compact_ranked", 0, "test"));
  // After #1 (6 left) #2 and #3 fit, #2 nearer; after #2 (1 left) none does: "#0", then #3, the
  // next route's. The routes are written from the depot's nearest customer: [3], [2, 1] becomes
  // [1, 2], [3].
  EXPECT_EQ(ranked.format(*cvrp, Solution{{{3}, {2, 1}}}), "Routes: [[#1 (#2#3), #2 (#0#3)], [#3 ()]], Objective: 13.72");
  const ParseResult back = ranked.parse("Routes: [[#1 (#2#3), #2 (#0#3)], [#3 ()]], Objective: 13.72");
  ASSERT_TRUE(back.solution.has_value()) << back.error;
  EXPECT_EQ(*back.solution, (Solution{{{1, 2}, {3}}}));
  // Nearest first from where the vehicle is: after #2 alone, #1 (distance sqrt 5) before #3 (sqrt 10).
  EXPECT_EQ(cvrp::ranked_notes(*cvrp, Solution{{{2}}}), (EchoNotes{{"#1#3"}}));
  // Ids out of range move nothing; a customer visited again moves the vehicle and loads nothing.
  EXPECT_EQ(cvrp::ranked_notes(*cvrp, Solution{{{1, 99, 1}}}), (EchoNotes{{"#2#3", "#2#3", "#2#3"}}));
}

TEST(EchoNotes, CvrpRoutesAreFeasibleExactlyWhenEachCustomerIsNotedBeforeItAndTheLastNoteIsEmpty) {
  // Random partitions of the customers into routes, some overloaded, some with a customer lost or
  // repeated: feasible exactly when each customer after a route's first is in the note before it,
  // each route's first customer is not yet visited, and the last note is "".
  const Problem& base = problem_by_name("cvrp");
  Rng rng(11);
  int feasible_seen = 0, infeasible_seen = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto inst = generated<cvrp::CvrpInstance>(base, 9, 40 + trial % 10);
    std::vector<int> customers;
    for (int v = 1; v < inst->size(); ++v) customers.push_back(v);
    rng.shuffle(customers);
    if (trial % 3 == 1) customers.pop_back();
    if (trial % 3 == 2) customers.back() = customers.front();
    Solution routes;
    int load = inst->capacity;
    for (int v : customers) {  // a new route when the load would pass a random limit near the capacity
      if (routes.lists.empty() || load + inst->demands[v] > inst->capacity + rng.uniform_int(-3, 3)) {
        routes.lists.emplace_back();
        load = 0;
      }
      routes.lists.back().push_back(v);
      load += inst->demands[v];
    }
    const EchoNotes notes = cvrp::ranked_notes(*inst, routes);
    bool follows = notes.back().back().empty();
    std::set<int> seen;
    for (std::size_t r = 0; r < routes.lists.size(); ++r)
      for (std::size_t k = 0; k < routes.lists[r].size(); ++k) {
        const int v = routes.lists[r][k];
        if (k == 0) follows = follows && !seen.count(v);
        else follows = follows && ids_of(notes[r][k - 1]).count(v) && notes[r][k - 1].rfind("#0", 0) != 0;
        seen.insert(v);
      }
    const bool feasible = base.feasible(*inst, routes);
    EXPECT_EQ(follows, feasible) << "trial " << trial;
    (feasible ? feasible_seen : infeasible_seen)++;
  }
  EXPECT_GT(feasible_seen, 30);
  EXPECT_GT(infeasible_seen, 30);
}

TEST(EchoNotes, OpRankedNotesListTheNodesThatFitTheBestBuyFirst) {
  auto op = std::make_shared<op::OpInstance>();
  op->geometry = RoutingGeometry::euclidean({{0, 0}, {0, 0.5}, {0.5, 0.5}, {1, 1}});
  op->prizes = {0, 0.3, 0.4, 0.9};
  op->budget = 2.0;
  // After #1 (0.5 out) appending #2 adds 0.5 + 0.71 - 0.5 = 0.71 for 0.4 (0.57 per unit); #3 adds
  // 1.12 + 1.41 - 0.5 = 2.03 and would end at 3.04 > 2: it does not fit. After #2 nothing fits.
  const Problem& ranked = with_text_style(problem_by_name("op"), make_text_style("compact_ranked", 0, "test"));
  EXPECT_EQ(ranked.format(*op, Solution::flat({1, 2})), "Route: [#1 (#2), #2 ()], Objective: 0.70");
  // A depot tour is written from its better-buy end: #1 (0.3 for 1.0) before #2 (0.4 for 1.41).
  EXPECT_EQ(op::ranked_order(*op, Solution::flat({2, 1})), Solution::flat({1, 2}));
  EXPECT_EQ(op::ranked_order(*op, Solution::flat({1, 2})), Solution::flat({1, 2}));
  // Ids out of range and the depot move nothing.
  EXPECT_EQ(op::ranked_notes(*op, Solution::flat({1, 99, 0})), (EchoNotes{{"#2", "#2", "#2"}}));
  EXPECT_EQ(ranked.parse("Route: [#1 (#2), #2 ()], Objective: 0.70").solution, Solution::flat({1, 2}));
}

TEST(EchoNotes, OpRouteFitsExactlyWhenEachNodeAfterTheFirstIsInTheNoteBeforeIt) {
  const Problem& base = problem_by_name("op");
  Rng rng(12);
  int fits_seen = 0, over_seen = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto inst = generated<op::OpInstance>(base, 12, 60 + trial % 10);
    std::vector<int> route;
    for (int v = 1; v < inst->size(); ++v)
      if (rng.bernoulli(0.35)) route.push_back(v);
    rng.shuffle(route);
    if (route.empty()) continue;
    const EchoNotes notes = op::ranked_notes(*inst, Solution::flat(route));
    const std::vector<int> first_only{route.front()};
    bool follows = op::feasible(*inst, Solution::flat(first_only));  // the first node alone must fit
    for (std::size_t k = 1; k < route.size(); ++k) follows = follows && ids_of(notes[0][k - 1]).count(route[k]);
    const bool feasible = base.feasible(*inst, Solution::flat(route));
    EXPECT_EQ(follows, feasible) << "trial " << trial;
    (feasible ? fits_seen : over_seen)++;
  }
  EXPECT_GT(fits_seen, 30);
  EXPECT_GT(over_seen, 30);
}

TEST(EchoNotes, MvcStateNotesAreTheVerticesASkippedOneForces) {
  const auto cycle = graph(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
  const Problem& state = with_text_style(problem_by_name("mvc"), make_text_style("compact_state", 0, "test"));
  // Writing 1 skips 0, whose neighbours 1 and 3 must be in the cover: 3 is still due. Writing 3
  // skips 2, whose neighbours are written: nothing is due, and the cover may end.
  EXPECT_EQ(state.format(*cycle, Solution::flat({1, 3})), "Set: [#1 (#3), #3 ()], Objective: 2.00");
  EXPECT_EQ(state.prompt(*cycle), "MVC:#0 2:#1#3;#1 2:#2;#2 2:#3;#3 2;");
}

TEST(EchoNotes, MvcSetIsACoverExactlyWhenItWritesEveryStateNoteAndSkipsNoTwoAdjacentInARow) {
  Rng rng(11);
  const Problem& mvc = problem_by_name("mvc");
  int covers = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto inst = generated_graph(mvc, 12, trial);
    const std::vector<int> items = random_set(12, 0.7, rng);
    const Solution set = Solution::flat(items);
    const EchoNotes notes = mis_mvc::mvc_state_notes(*inst, set);
    std::vector<char> in(12, 0);
    for (int v : items) in[v] = 1;
    bool broken = false;
    for (const std::string& note : notes[0])
      for (int id : ids_of(note)) broken |= !in[id];  // a due vertex left out
    // Skipped vertices between two written ones (or before the first, after the last) are not
    // noted against each other: the notes see a skip only once the next vertex is written.
    for (int v = 0; v < 12; ++v)
      for (int w = v + 1; w < 12 && !in[w]; ++w) broken |= !in[v] && inst->graph.adjacent(v, w);
    EXPECT_EQ(!broken, mvc.feasible(*inst, set)) << "trial " << trial;
    if (!broken && !items.empty()) {
      EXPECT_EQ(notes[0].back(), "") << "trial " << trial;
    }
    covers += !broken;
  }
  EXPECT_GT(covers, 10);  // both outcomes are tested
  EXPECT_LT(covers, 190);
}

TEST(EchoNotes, LabelsRoundTripThroughStrictAndLenientParsing) {
  for (const std::string name : {"mis", "mvc", "cvrp"}) {
    const Problem& p = echo(name);
    GenerateOptions options;
    options.n = 10;
    const auto inst = p.generate(options, 2);
    std::vector<int> everything(inst->size());
    for (int i = 0; i < inst->size(); ++i) everything[i] = i;
    const Solution solution = p.repair(*inst, Solution::flat(everything));
    const std::string text = p.format(*inst, solution);
    EXPECT_NE(text.find(" ("), std::string::npos) << name << ": " << text;
    const ParseResult strict = p.parse(text);
    ASSERT_TRUE(strict.solution.has_value()) << name << ": " << strict.error;
    EXPECT_EQ(*strict.solution, solution) << name;
    const ParseResult lenient = p.parse(text, /*lenient=*/true);
    ASSERT_TRUE(lenient.solution.has_value()) << name;
    EXPECT_EQ(*lenient.solution, solution) << name << ": the notes' IDs and numbers are not indices";
    EXPECT_EQ(p.grammar_name(), name + "_echo");
  }
}

TEST(EchoNotes, ParsersReadUntrustedNotes) {
  const TextFormat fmt{"Set", false, 0, "#", /*echo=*/true};
  EXPECT_EQ(parse_solution_strict(fmt, "Set: [#1 (#4#5), #3 ()], Objective: 2.00").solution, Solution::flat({1, 3}));
  EXPECT_FALSE(parse_solution_strict(fmt, "Set: [#1, #3 ()], Objective: 2.00").solution.has_value());    // a note missing
  EXPECT_FALSE(parse_solution_strict(fmt, "Set: [#1 (#4 (5)), #3 ()], Objective: 2.00").solution.has_value());
  EXPECT_FALSE(parse_solution_strict(fmt, "Set: [#1 (#4], Objective: 2.00").solution.has_value());  // never closed
  // Lenient: a truncated note, and a note that never closes, lose no index written before them.
  EXPECT_EQ(parse_solution_lenient(fmt, "Set: [#1 (#4#5), #3 (#7").solution, Solution::flat({1, 3}));
  EXPECT_EQ(parse_solution_lenient(fmt, "Set: [#1 (#4#5), #3 (#7], Objective").solution, Solution::flat({1, 3}));
}

TEST(EchoNotes, MisuseIsNamed) {
  const TextFormat fmt{"Set", false, 0, "#", /*echo=*/true};
  EXPECT_THROW(format_solution(fmt, Solution::flat({1, 2}), 2.0), Error);  // no notes
  const EchoNotes short_notes{{"#3"}};
  EXPECT_THROW(format_solution(fmt, Solution::flat({1, 2}), 2.0, &short_notes), Error);
  const EchoNotes bad_byte{{"#3)", ""}};
  EXPECT_THROW(format_solution(fmt, Solution::flat({1, 2}), 2.0, &bad_byte), Error);

  GenerateOptions options;
  options.n = 6;
  const auto tsp = problem_by_name("tsp").generate(options, 1);
  try {
    echo("tsp").format(*tsp, Solution::flat({0, 1, 2, 3, 4, 5}));
    FAIL() << "tsp has no notes";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not written for tsp"), std::string::npos) << e.what();
  }
  EXPECT_THROW(echo("mis").semantic_constraint(problem_by_name("mis").generate(options, 1)), Error);
  EXPECT_THROW(make_text_style("echo", 0, "text.style"), Error);
  EXPECT_EQ(make_text_style("compact_echo", 2, "t").name, "compact_echo");
}

}  // namespace
}  // namespace falcon::problems
