// The BNF dialect (docs/grammars.md): what it accepts and the errors a malformed grammar gets.
#include "falcon/decoding/grammar.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <unistd.h>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/decoding/builtin_grammars.h"
#include "falcon/decoding/byte_dfa.h"
#include "falcon/decoding/grammar_nfa.h"
#include "tests/error_of.h"

namespace falcon::decoding {
namespace {

using falcon::test_support::error_of;

ByteDfa compile(const std::string& bnf, IndexRange range = {0, 9}) {
  return ByteDfa::compile(Grammar::parse(bnf, "test.bnf"), range);
}

// The message of the falcon::Error that `f` throws ("" when it throws none).
std::string compile_error(const std::string& bnf) {
  return error_of([&] { compile(bnf); });
}

TEST(GrammarParser, DialectFeatures) {
  const ByteDfa dfa = compile(R"(# a comment
root ::= "a" ( b | "c" )* [x-z]+ end?   # trailing comment
b    ::= "\x42\n"                       # \x escapes and \n
end  ::= [^a-y] | ""
)");
  EXPECT_TRUE(dfa.accepts("ax"));
  EXPECT_TRUE(dfa.accepts("aB\ncczz"));
  EXPECT_TRUE(dfa.accepts("azz!"));  // [^a-y] takes '!'
  EXPECT_FALSE(dfa.accepts("a"));
  EXPECT_FALSE(dfa.accepts("axa"));
  EXPECT_FALSE(dfa.accepts("aB"));
}

TEST(GrammarParser, ArrowFormAndMultiLineRules) {
  const ByteDfa dfa = compile("S -> \"x\" L\nL -> \"\"\n   | \",\" L\n");
  EXPECT_TRUE(dfa.accepts("x"));
  EXPECT_TRUE(dfa.accepts("x,,,"));
  EXPECT_FALSE(dfa.accepts("x,y"));
}

TEST(GrammarParser, RightAndLeftRecursionAreRegular) {
  const ByteDfa right = compile("root ::= list\nlist ::= <index> | <index> \", \" list\n");
  const ByteDfa left = compile("root ::= list\nlist ::= <index> | list \", \" <index>\n");
  const ByteDfa star = compile("root ::= <index> (\", \" <index>)*\n");
  for (const char* s : {"0", "3, 4", "9, 9, 1", "", "3,4", "10", "1, ", ", 1"}) {
    EXPECT_EQ(right.accepts(s), star.accepts(s)) << s;
    EXPECT_EQ(left.accepts(s), star.accepts(s)) << s;
  }
  EXPECT_EQ(right.num_states(), star.num_states());  // both minimal
  EXPECT_EQ(left.num_states(), star.num_states());
  // Mutual tail recursion through two rules.
  const ByteDfa mutual = compile("root ::= \"a\" b | \"\"\nb ::= \"b\" root\n");
  EXPECT_TRUE(mutual.accepts("abab"));
  EXPECT_FALSE(mutual.accepts("aba"));
}

TEST(GrammarParser, MalformedTextNamesFileAndLine) {
  EXPECT_EQ(compile_error("root ::= \"abc\n"), "test.bnf:1: unterminated string");
  EXPECT_EQ(compile_error("root ::= \"a\"\n\nx ::= \"b\" $\n"), "test.bnf:3: unexpected character '$'");
  EXPECT_EQ(compile_error("root ::= \"a\" (\"b\"\n"), "test.bnf:2: expected ')' to close the group opened at line 1");
  EXPECT_EQ(compile_error("\"a\"\n"), "test.bnf:1: expected a rule 'name ::= ...'");
  EXPECT_EQ(compile_error("root ::= \"\\q\""), "test.bnf:1: unknown escape '\\q' (known: \\n \\t \\r \\\\ \\\" \\] \\[ \\- \\^ \\xHH)");
  EXPECT_EQ(compile_error("root ::= []"), "test.bnf:1: empty byte class '[]'");
  EXPECT_EQ(compile_error("root ::= [z-a]"), "test.bnf:1: byte class range is backwards");
  EXPECT_EQ(compile_error("root ::= <node>"), "test.bnf:1: unknown special terminal '<node>' (known: <index>)");
  EXPECT_EQ(compile_error("# only a comment\n"), "test.bnf:1: the grammar has no rules");
  EXPECT_EQ(compile_error("root ::= *"),
            "test.bnf:1: expected a literal, byte class, rule name, <index> or '(' but found '*'");
}

TEST(GrammarParser, UndefinedAndDuplicateRules) {
  EXPECT_EQ(compile_error("root ::= \"a\" items\n\n"
                          "item ::= \"b\"\n"
                          "other ::= itemz\n"),
            "test.bnf:1: undefined rule 'items'");
  EXPECT_EQ(compile_error("root ::= \"a\"\nroot ::= \"b\"\n"),
            "test.bnf:2: rule 'root' is defined twice (first at line 1); write the alternatives in one rule with '|'");
}

TEST(GrammarParser, NonRegularRecursionIsRejected) {
  const std::string middle = compile_error("root ::= \"[\" list \"]\"\n"
                                           "list ::= \"x\"\n"
                                           "       | \"[\" list \"]\"\n");
  EXPECT_EQ(middle.rfind("test.bnf:3: recursive reference to 'list' in the middle of a rule", 0), 0u) << middle;
  const std::string starred = compile_error("a ::= \"x\" | (\"y\" a)*\n");
  EXPECT_EQ(starred.rfind("test.bnf:1: recursive reference to 'a' in the middle of a rule or under '*'/'+'", 0), 0u)
      << starred;
  const std::string mixed = compile_error("a ::= \"x\" | a \"y\" | \"z\" a\n");
  EXPECT_NE(mixed.find("at the start of a rule while other references of its cycle are at the end"), std::string::npos)
      << mixed;
  const std::string through = compile_error("root ::= a\na ::= \"(\" b \")\" | \"x\"\nb ::= a\n");
  EXPECT_EQ(through.rfind("test.bnf:2: recursive reference to 'b'", 0), 0u) << through;
}

TEST(GrammarParser, EmptyLanguageIsAnError) {
  EXPECT_EQ(compile_error("root ::= \"a\" root\n"), "test.bnf: the grammar accepts no string for index range [0, 9]");
  const std::string message = error_of([] {
    ByteDfa::compile(Grammar::parse("root ::= \"[\" <index> \"]\"", "g.bnf"), IndexRange{1, 0});
  });
  EXPECT_EQ(message, "g.bnf: the grammar accepts no string for index range [1, 0]");
}

TEST(GrammarParser, LoadsFromAPathAndBuiltinsParse) {
  namespace fs = std::filesystem;
  const fs::path path = fs::temp_directory_path() / ("falcon_grammar_" + std::to_string(::getpid()) + ".bnf");
  {
    std::ofstream out(path);
    out << "root ::= \"Path: [\" <index> \"]\"\n"
        << "bad  ::= \"x\" (\n";
  }
  EXPECT_EQ(error_of([&] { Grammar::load(path.string()); }),
            path.string() + ":3: expected ')' to close the group opened at line 2");
  {
    std::ofstream out(path);
    out << "root ::= \"Path: [\" <index> \"]\"\n";
  }
  EXPECT_TRUE(ByteDfa::compile(Grammar::load(path.string()), {0, 5}).accepts("Path: [5]"));
  fs::remove(path);
  EXPECT_EQ(error_of([] { Grammar::load("/nonexistent/x.bnf"); }), "grammar: cannot open '/nonexistent/x.bnf'");

  EXPECT_EQ(builtin_grammar_names(),
            (std::vector<std::string>{"cvrp", "cvrp_compact", "cvrp_echo", "cvrp_ranked", "free_text", "jssp", "jssp_compact", "jssp_ranked", "mis",
                                      "mis_compact", "mis_echo", "mis_keyed", "mvc", "mvc_compact", "mvc_echo", "mvc_keyed",
                                      "op", "op_compact",
                                      "op_echo", "op_ranked", "pfsp", "pfsp_compact", "pfsp_echo", "pfsp_insert", "tsp", "tsp_compact",
                                      "tsp_ranked"}));
  for (const auto& name : builtin_grammar_names()) {
    EXPECT_EQ(builtin_grammar(name).source(), "grammars/" + name + ".bnf");
    EXPECT_NO_THROW(ByteDfa::compile(builtin_grammar(name), {1, 30})) << name;
  }
  EXPECT_NE(error_of([] { builtin_grammar_text("knapsack"); })
                .find("no built-in grammar 'knapsack' (known: cvrp, cvrp_compact, cvrp_echo, cvrp_ranked, free_text, jssp"),
            std::string::npos);
}

TEST(GrammarParser, EmbeddedGrammarsAreTheFilesOfGrammarsDir) {
  for (const auto& name : builtin_grammar_names()) {
    const std::string path = std::string(FALCON_FIXTURES_DIR) + "/../../grammars/" + name + ".bnf";
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in.good()) << path;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(builtin_grammar_text(name), text) << name;
    EXPECT_EQ(Grammar::load(path).fingerprint(), builtin_grammar(name).fingerprint());
  }
}

TEST(GrammarParser, CompactGrammarsAreThePapersWithIdTokens) {
  // Each <problem>_compact.bnf is <problem>.bnf with "#" before every <index>, comments aside:
  // the two styles cannot drift apart in anything but the ID prefix.
  const auto rules = [](std::string_view text) {
    std::string out;
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);)
      if (line.empty() || line[0] != '#') out += line + "\n";
    return out;
  };
  int compact = 0;
  for (const auto& name : builtin_grammar_names()) {
    if (name.size() < 8 || name.substr(name.size() - 8) != "_compact") continue;
    std::string expected = rules(builtin_grammar_text(name.substr(0, name.size() - 8)));
    for (std::size_t at = 0; (at = expected.find("<index>", at)) != std::string::npos; at += 11) expected.insert(at, "\"#\" ");
    EXPECT_EQ(rules(builtin_grammar_text(name)), expected) << name;
    ++compact;
  }
  EXPECT_EQ(compact, 7);
}

TEST(GrammarParser, GarbageNeverCrashes) {
  // Random texts over the dialect's own characters, and mutated built-in grammars: each one
  // parses and compiles, or throws falcon::Error; nothing else.
  static const std::string kAlphabet = "ab:=|()*+?<>[]^-\"\\x0 \n#index";
  CompileLimits limits;
  limits.max_nfa_states = 20000;
  limits.max_dfa_states = 2000;
  Rng rng(3);
  int compiled = 0;
  for (int k = 0; k < 3000; ++k) {
    std::string text;
    if (k % 2 == 0) {
      text = "root ::= ";
      for (int i = rng.uniform_int(0, 40); i > 0; --i) text += kAlphabet[rng.uniform_int(0, static_cast<int>(kAlphabet.size()) - 1)];
    } else {
      text = std::string(builtin_grammar_text(builtin_grammar_names()[k % builtin_grammar_names().size()]));
      for (int e = rng.uniform_int(1, 4); e > 0; --e)
        text[rng.uniform_int(0, static_cast<int>(text.size()) - 1)] =
            kAlphabet[rng.uniform_int(0, static_cast<int>(kAlphabet.size()) - 1)];
    }
    try {
      ByteDfa::compile(Grammar::parse(text, "fuzz.bnf"), {0, 30}, limits);
      ++compiled;
    } catch (const Error&) {
    }
  }
  EXPECT_GT(compiled, 100);
  EXPECT_EQ(compile_error(std::string(1000, '(')), "test.bnf:1: expected a rule 'name ::= ...'");
  EXPECT_EQ(compile_error("root ::= " + std::string(1000, '(')), "test.bnf:1: groups nested deeper than 256");
}

TEST(GrammarParser, RecursionShapes) {
  const Grammar g = Grammar::parse("root ::= r l n\nr ::= \"a\" r | \"\"\nl ::= l \"b\" | \"\"\nn ::= \"c\"\n", "t");
  EXPECT_EQ(classify_recursion(g),
            (std::vector<Recursion>{Recursion::kNone, Recursion::kRight, Recursion::kLeft, Recursion::kNone}));
}

}  // namespace
}  // namespace falcon::decoding
