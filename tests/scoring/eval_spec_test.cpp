#include "falcon/scoring/eval_spec.h"

#include <gtest/gtest.h>

#include "falcon/core/error.h"

namespace falcon::scoring {
namespace {

std::string error_of(const std::string& yaml) {
  try {
    auto c = Config::from_string(yaml, "<eval>");
    read_eval_spec(c);
    c.check_unused();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const std::string kFiles = "data: {files: [" FALCON_FIXTURES_DIR "/cvrp/tiny-n5-k2.vrp], problem: cvrp}\noutput_dir: /tmp/x\n";

TEST(EvalSpec, DefaultsAreThePapersSettings) {
  auto c = Config::from_string(kFiles + "method: {type: solver:reference}\n", "<eval>");
  auto spec = read_eval_spec(c);
  c.check_unused();
  ASSERT_EQ(spec.rows.size(), 1u);
  EXPECT_EQ(spec.rows[0].kind, MethodKind::kSolver);
  EXPECT_EQ(spec.rows[0].solver, "reference");
  EXPECT_FALSE(spec.needs_model());

  RowSpec adaptive;  // the struct's defaults = the paper's evaluation settings
  EXPECT_EQ(adaptive.rule.n_min, 8);
  EXPECT_EQ(adaptive.rule.n_max, 64);
  EXPECT_DOUBLE_EQ(adaptive.rule.tau, 0.85);
  EXPECT_DOUBLE_EQ(adaptive.temperature, 0.7);
}

TEST(EvalSpec, RowsReadEveryMethod) {
  auto c = Config::from_string(kFiles + R"(
model: {path: )" FALCON_FIXTURES_DIR R"(/tokenizer, tokenizer: )" FALCON_FIXTURES_DIR R"(/tokenizer/tiny_bpe.model}
rows:
  - {type: greedy}
  - {type: fixed, n: 4}
  - {type: adaptive, n_min: 2, n_max: 10, tau: 0.9, patience: 4, match: objective, repair: false, computed_notes: true}
)", "<eval>");
  auto spec = read_eval_spec(c);
  c.check_unused();
  ASSERT_EQ(spec.rows.size(), 3u);
  EXPECT_FALSE(spec.rows[0].computed_notes);
  EXPECT_TRUE(spec.rows[0].computed_notes_auto);  // by default as the model's text has notes (resolved on loading it)
  EXPECT_TRUE(spec.rows[2].computed_notes);
  EXPECT_FALSE(spec.rows[2].computed_notes_auto);
  EXPECT_EQ(spec.rows[0].budget(), 1);
  EXPECT_EQ(spec.rows[1].name, "fixed N=4");
  EXPECT_EQ(spec.rows[1].budget(), 4);
  EXPECT_EQ(spec.rows[2].budget(), 10);
  EXPECT_EQ(spec.rows[2].match, Match::kObjective);
  EXPECT_EQ(spec.rows[2].rule.patience, 4);
  EXPECT_EQ(spec.rows[0].rule.patience, 0);  // off unless asked
  EXPECT_FALSE(spec.rows[2].repair);
  EXPECT_TRUE(spec.needs_model());
}

TEST(EvalSpec, AutoComputedNotesFollowTheModelsText) {
  auto c = Config::from_string(kFiles + R"(
model: {path: )" FALCON_FIXTURES_DIR R"(/tokenizer, tokenizer: )" FALCON_FIXTURES_DIR R"(/tokenizer/tiny_bpe.model}
computed_notes: auto
rows:
  - {type: greedy, name: inherits}
  - {type: greedy, name: own notes, computed_notes: false}
  - {type: greedy, name: no grammar, grammar: false}
  - {type: fixed, n: 2, name: semantic, semantic_mask: true}
  - {type: solver:reference}
)", "<eval>");
  const auto spec = read_eval_spec(c);
  c.check_unused();
  EXPECT_TRUE(spec.rows[0].computed_notes_auto);
  EXPECT_FALSE(spec.rows[1].computed_notes_auto);

  auto with_notes = spec.rows;  // a compact_ranked model: computed where the row can compute them
  settle_auto_notes(with_notes, true);
  EXPECT_TRUE(with_notes[0].computed_notes);
  EXPECT_FALSE(with_notes[1].computed_notes);  // its own setting wins
  EXPECT_TRUE(with_notes[2].computed_notes);   // the notes are the text's, with the grammar off too
  EXPECT_FALSE(with_notes[3].computed_notes);  // the semantic mask does not read notes
  for (const auto& r : with_notes) EXPECT_FALSE(r.computed_notes_auto);

  auto without = spec.rows;  // a paper or compact model writes no notes
  settle_auto_notes(without, false);
  for (const auto& r : without) EXPECT_FALSE(r.computed_notes);

  // The top-level true reaches every model row; a row that cannot take it is named with its fix.
  const std::string model = "model: {path: " FALCON_FIXTURES_DIR "/tokenizer, tokenizer: " FALCON_FIXTURES_DIR
                            "/tokenizer/tiny_bpe.model}\n";
  auto on = Config::from_string(kFiles + model + "computed_notes: true\nrows: [{type: greedy}, {type: fixed, n: 2}]\n", "<eval>");
  for (const auto& r : read_eval_spec(on).rows) EXPECT_TRUE(r.computed_notes);
  EXPECT_NE(error_of(kFiles + model + "computed_notes: true\nrows: [{type: greedy}, {type: greedy, name: sem, semantic_mask: true}]\n")
                .find("<eval>: computed_notes cannot be combined with semantic_mask (the semantic mask does not read notes) in rows[1] (give it computed_notes: false)"),
            std::string::npos);
  EXPECT_NE(error_of(kFiles + model + "rows: [{type: greedy, computed_notes: sometimes}]\n")
                .find("key 'rows[0].computed_notes': expected true, false or auto"),
            std::string::npos);
}

// A row the model's text cannot take is refused before any row runs, not after the rows before it
// (Table 3's semantic-mask row on a ranked model once failed after 37 minutes of the others).
TEST(EvalSpec, RowsTheModelsTextCannotTakeAreRefusedUpFront) {
  auto c = Config::from_string(kFiles + R"(
model: {path: )" FALCON_FIXTURES_DIR R"(/tokenizer, tokenizer: )" FALCON_FIXTURES_DIR R"(/tokenizer/tiny_bpe.model}
rows:
  - {type: greedy, name: plain}
  - {type: fixed, n: 2, name: masked, semantic_mask: true}
  - {type: greedy, name: notes, computed_notes: true}
  - {type: solver:reference}
)", "<eval>");
  const auto spec = read_eval_spec(c);
  c.check_unused();
  auto message = [&](const std::vector<RowSpec>& rows, bool notes) {
    try {
      check_rows_for_text(rows, notes, notes, notes ? "cvrp in 'compact_ranked'" : "cvrp in 'compact'");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::vector<RowSpec> plain_and_masked(spec.rows.begin(), spec.rows.begin() + 2);
  EXPECT_EQ(message(plain_and_masked, false), "");  // a text without notes takes the mask
  EXPECT_EQ(message(plain_and_masked, true),
            "masked: semantic_mask: the model writes cvrp in 'compact_ranked', whose notes the semantic mask "
            "would read as indices (set semantic_mask: false for this model)");
  const std::vector<RowSpec> plain_and_notes = {spec.rows[0], spec.rows[2], spec.rows[3]};
  EXPECT_EQ(message(plain_and_notes, true), "");
  EXPECT_EQ(message(plain_and_notes, false),
            "notes: computed_notes: the model writes cvrp in 'compact', which has no notes (set "
            "computed_notes: false or auto)");
  RowSpec picks = spec.rows[2];
  picks.note_picks = true;
  EXPECT_EQ(message({picks}, true), "");
  picks.computed_notes = false;
  EXPECT_EQ(message({picks}, true),
            "notes: note_picks: the model writes cvrp in 'compact_ranked' and the row computes no notes (set "
            "computed_notes: true or auto)");
  picks.computed_notes = true;
  try {
    check_rows_for_text({picks}, true, false, "mis in 'compact_echo'");
    ADD_FAILURE() << "note picks on notes that are not choices";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not the next pick's choices"), std::string::npos) << e.what();
  }
}

TEST(EvalSpec, ErrorsNameTheKeyPath) {
  EXPECT_NE(error_of(kFiles + "method: {type: adaptive, tua: 0.9}\nmodel: {path: " FALCON_FIXTURES_DIR "/tokenizer, tokenizer: " FALCON_FIXTURES_DIR "/tokenizer/tiny_bpe.model}\n").find("method.tua"),
            std::string::npos);
  EXPECT_NE(error_of(kFiles + "method: {type: beam}\n").find("method.type"), std::string::npos);
  EXPECT_NE(error_of(kFiles + "method: {type: solver:reference}\nrows: []\n").find("exactly one"), std::string::npos);
  EXPECT_NE(error_of(kFiles + "method: {type: greedy}\n").find("model"), std::string::npos);  // a model row needs one
  EXPECT_NE(error_of(kFiles + "method: {type: greedy}\nmodel: {path: /nonexistent/final}\n").find("model.path"),
            std::string::npos);
  EXPECT_NE(error_of("data: {dataset: /nonexistent.h5}\noutput_dir: x\nmethod: {type: solver:reference}\n")
                .find("data.dataset"),
            std::string::npos);
  EXPECT_NE(error_of(kFiles + "rows: [{type: solver:reference}, {type: solver:reference}]\n").find("rows[1].name"),
            std::string::npos);
  // Found by the config fuzzer: a file name longer than the system allows made the existence check throw
  // std::filesystem_error instead of refusing the key.
  const std::string overlong = FALCON_FIXTURES_DIR "/" + std::string(400, '{') + ".h5";  // in a folder that exists
  const std::string refusal =
      error_of("data: {dataset: '" + overlong + "'}\noutput_dir: x\nmethod: {type: solver:reference}\n");
  EXPECT_NE(refusal.find("data.dataset"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("cannot be looked up"), std::string::npos) << refusal;
  // The semantic mask would read the notes' digits as indices.
  const std::string model = "model: {path: " FALCON_FIXTURES_DIR "/tokenizer, tokenizer: " FALCON_FIXTURES_DIR
                            "/tokenizer/tiny_bpe.model}\n";
  EXPECT_NE(error_of(kFiles + model + "rows: [{type: greedy, semantic_mask: true, computed_notes: true}]\n")
                .find("rows[0].computed_notes cannot be combined with semantic_mask"),
            std::string::npos);
  EXPECT_NE(error_of("data: {files: [" FALCON_FIXTURES_DIR "/cvrp/tiny-n5-k2.vrp], problem: cvrp, optima: {tiny: abc}}\n"
                     "output_dir: x\nmethod: {type: solver:reference}\n")
                .find("data.optima.tiny"),
            std::string::npos);
}

}  // namespace
}  // namespace falcon::scoring
