#include "falcon/recipe/stage.h"

#include "falcon/problems/registry.h"
#include "falcon/recipe/algorithms.h"
#include "falcon/recipe/key_checks.h"

namespace falcon::recipe {
namespace {

const char* const kNotesStyles = "compact_echo, compact_state, compact_ranked or compact_insert";

RolloutSpec read_rollout(Config& c, const std::string& base, const formats::TextStyle& style) {
  RolloutSpec r;
  r.samples_per_instance = static_cast<int>(c.get_int(base + "samples_per_instance", r.samples_per_instance));
  require(r.samples_per_instance >= 2, c, base + "samples_per_instance", "must be at least 2 (pairs need two samples)");
  r.temperature = c.get_double(base + "temperature", r.temperature);
  require(r.temperature > 0, c, base + "temperature", "must be > 0 for sampling");
  r.top_k = static_cast<int>(c.get_int(base + "top_k", r.top_k));
  r.top_p = c.get_double(base + "top_p", r.top_p);
  require(r.top_p > 0 && r.top_p <= 1, c, base + "top_p", "must be in (0, 1]");
  r.grammar = c.get_bool(base + "grammar", r.grammar);
  r.semantic_mask = c.get_bool(base + "semantic_mask", r.semantic_mask);
  require(!r.semantic_mask || r.grammar, c, base + "semantic_mask", "needs grammar: true (it reads the grammar's text)");
  // auto: computed where the text writes notes (with the grammar off too: the notes are the text's)
  r.computed_notes = c.get_bool_or_auto(base + "computed_notes", r.computed_notes)
                         .value_or(formats::writes_notes(style) && !r.semantic_mask);
  require(!(r.computed_notes && r.semantic_mask), c, base + "computed_notes",
          "cannot be combined with semantic_mask (the semantic mask does not read notes)");
  require(!r.computed_notes || formats::writes_notes(style), c, base + "computed_notes",
          std::string("needs a text that writes notes (text.style: ") + kNotesStyles + "; or auto)");
  r.repair = c.get_bool(base + "repair", r.repair);
  r.max_new_tokens = static_cast<int>(c.get_int(base + "max_new_tokens", r.max_new_tokens));
  require(r.max_new_tokens >= 0, c, base + "max_new_tokens", "must be >= 0 (0 = sized from the instance)");
  return r;
}

// steps, batch, optimizer and learning-rate schedule.
void read_length_and_optimizer(Config& c, const std::string& base, StageSpec& s) {
  s.steps = c.get_int(base + "steps", s.steps);
  require(s.steps >= 0, c, base + "steps", "must be >= 0");
  require(s.steps > 0 || !samples_policy(s.kind), c, base + "steps", "must be positive for a sampling stage");
  s.batch_size = static_cast<int>(c.get_int(base + "batch_size", s.batch_size));
  require(s.batch_size >= 1, c, base + "batch_size", "must be at least 1");
  s.grad_accum = static_cast<int>(c.get_int(base + "grad_accum", s.grad_accum));
  require(s.grad_accum >= 1, c, base + "grad_accum", "must be at least 1");
  s.lr.peak = c.get_double(base + "lr", s.lr.peak);
  require(s.lr.peak > 0, c, base + "lr", "must be positive");
  s.lr.warmup_steps = c.get_int(base + "warmup_steps", s.lr.warmup_steps);
  require(s.lr.warmup_steps >= 0, c, base + "warmup_steps", "must be >= 0");
  s.lr.kind = schedule_kind_from_string(c.get_string(base + "schedule", to_string(s.lr.kind)), key_at(c, base + "schedule"));
  s.lr.min_ratio = c.get_double(base + "min_lr_ratio", s.lr.min_ratio);
  require(s.lr.min_ratio >= 0 && s.lr.min_ratio <= 1, c, base + "min_lr_ratio", "must be in [0, 1]");
  s.lr.decay_steps = c.get_int(base + "decay_steps", s.lr.decay_steps);
  require(s.lr.decay_steps >= 0, c, base + "decay_steps", "must be >= 0");
  require(s.lr.kind != ScheduleKind::kWsd || s.lr.decay_steps > 0, c, base + "decay_steps",
          "must be > 0 with schedule: wsd (the steps of its final decay)");
  s.weight_decay = c.get_double(base + "weight_decay", s.weight_decay);
  s.grad_clip = c.get_double(base + "grad_clip", s.grad_clip);
  require(s.grad_clip >= 0, c, base + "grad_clip", "must be >= 0 (0 = off)");
}

void read_lora(Config& c, const std::string& base, model::LoraConfig& lora) {
  lora.rank = static_cast<int>(c.get_int(base + "lora.rank", lora.rank));
  require(lora.rank >= 0, c, base + "lora.rank", "must be >= 0 (0 = full fine-tuning)");
  lora.alpha = c.get_double(base + "lora.alpha", lora.rank > 0 ? lora.rank : lora.alpha);  // alpha = rank
  lora.dropout = c.get_double(base + "lora.dropout", lora.dropout);
  require(lora.dropout >= 0 && lora.dropout < 1, c, base + "lora.dropout", "must be in [0, 1)");
  if (c.has(base + "lora.target_modules")) lora.target_modules = c.get_string_list(base + "lora.target_modules");
  require(lora.rank == 0 || !lora.target_modules.empty(), c, base + "lora.target_modules",
          "must name at least one module with lora.rank > 0 (e.g. [q_proj, v_proj]), or set lora.rank: 0");
}

// loss_on_notes and stages[i].problems.<p>.loss_on_notes (the problems' other keys are their
// algorithm's).
void read_notes(Config& c, const std::string& base, const formats::TextStyle& style, StageSpec& s) {
  const bool sampling = samples_policy(s.kind);
  s.loss_on_notes = c.get_bool(base + "loss_on_notes", s.loss_on_notes);
  require(s.loss_on_notes || !sampling || s.rollout.computed_notes, c, base + "loss_on_notes",
          "can be false in a sampling stage only with rollout.computed_notes: true (else the model writes its notes)");
  require(s.loss_on_notes || formats::writes_notes(style), c, base + "loss_on_notes",
          std::string("can be false only with a text that writes notes (text.style: ") + kNotesStyles + ")");
  for (const auto& problem : c.keys(base + "problems")) {
    const std::string at = base + "problems." + problem;
    require(c.is_map(at), c, at, "must be a map such as {infeasible_losers: true, loss_on_notes: false}");
    try {
      problems::problem_by_name(problem);
    } catch (const Error& e) {  // an unknown problem: the message lists the known ones
      throw Error(key_at(c, at) + ": " + e.what());
    }
    const bool own = c.has(at + ".loss_on_notes");  // an inherited false is the stage's check
    const bool value = c.get_bool(at + ".loss_on_notes", s.loss_on_notes);
    require(value || !own || formats::writes_notes(style.for_problem(problem)), c, at + ".loss_on_notes",
            std::string("can be false only for a problem whose text writes notes (") + kNotesStyles + ")");
    require(value || !sampling || s.rollout.computed_notes, c, at + ".loss_on_notes",
            "can be false in a sampling stage only with rollout.computed_notes: true (else the model writes its notes)");
    s.loss_on_notes_by_problem.emplace_back(problem, value);
  }
}

}  // namespace

bool StageSpec::loss_on_notes_for(std::string_view problem) const {
  for (const auto& [name, value] : loss_on_notes_by_problem)
    if (name == problem) return value;
  return loss_on_notes;
}

StageSpec stage_defaults(StageKind kind) {
  const Algorithm& a = algorithm(kind);
  StageSpec s;
  s.kind = kind;
  s.keys = a.defaults;
  if (a.samples_policy) {
    s.batch_size = 8;  // instances, each with K samples
    s.lr.peak = 1e-5;
    s.lora.rank = 16;
    s.lora.alpha = 16.0;
  }
  return s;
}

StageSpec read_stage(Config& c, int index, const formats::TextStyle& style) {
  const std::string base = "stages[" + std::to_string(index) + "].";
  const Algorithm& a = algorithm_named(c.get_string(base + "type"), key_at(c, base + "type"));
  StageSpec s = stage_defaults(a.kind);
  s.name = c.get_string(base + "name", a.name);
  read_length_and_optimizer(c, base, s);
  read_lora(c, base, s.lora);
  if (a.samples_policy) s.rollout = read_rollout(c, base + "rollout.", style);
  read_notes(c, base, style, s);
  s.keys = a.read_keys(c, base, s);
  return s;
}

}  // namespace falcon::recipe
