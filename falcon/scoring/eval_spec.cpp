#include "falcon/scoring/eval_spec.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/text/tokenizer.h"

namespace falcon::scoring {
namespace {

namespace fs = std::filesystem;

std::string at(const Config& c, const std::string& path) { return c.source() + ": " + path; }

void require(bool ok, const Config& c, const std::string& path, const std::string& what) {
  if (!ok) throw Error(at(c, path) + " " + what);
}

// The error_code form: a path the system cannot even look up (a name too long, a folder it may not search) is
// refused like a missing one rather than escaping as std::filesystem_error.
void require_exists(const Config& c, const std::string& key, const std::string& path, const std::string& fix) {
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  if (ec) throw Error(at(c, key) + ": '" + path + "' cannot be looked up (" + ec.message() + "); " + fix);
  if (!exists) throw Error(at(c, key) + ": '" + path + "' does not exist; " + fix);
}

// "name,objective" lines with that header; blank lines and '#' comments skipped.
std::map<std::string, double> read_optima_csv(const Config& c, const std::string& key, const std::string& path) {
  require_exists(c, key, path, "give a CSV file with the header 'name,objective' or an inline map {name: value}");
  std::ifstream in(path);
  std::map<std::string, double> out;
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    if (!header) {
      if (line.rfind("name,objective", 0) != 0)
        throw Error(path + ":" + std::to_string(number) + ": the first line must be the header 'name,objective' (" +
                    key + ")");
      header = true;
      continue;
    }
    const auto comma = line.find(',');
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(line.substr(comma + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (comma == std::string::npos || used == 0)
      throw Error(path + ":" + std::to_string(number) + ": expected 'name,objective' with a number (" + key + ")");
    out[line.substr(0, comma)] = value;
  }
  return out;
}

ModelSpec read_model(Config& c) {
  ModelSpec m;
  m.path = c.get_string("model.path", "");
  m.checkpoint = c.get_string("model.checkpoint", "");
  m.adapter = c.get_string("model.adapter", "");
  require(m.given(), c, "model",
          "needs path (a Hugging Face directory such as runs/bopo_tsp/final) or checkpoint (+ tokenizer)");
  require(m.path.empty() || m.checkpoint.empty(), c, "model",
          "gives both path and checkpoint: name a Hugging Face directory (path) OR a falcon_train checkpoint");
  if (!m.path.empty())
    require_exists(c, "model.path", m.path, "give a Hugging Face directory such as runs/bopo_tsp/final");
  if (!m.checkpoint.empty())
    require_exists(c, "model.checkpoint", m.checkpoint,
                   "give a step directory or the checkpoints root of a falcon_train run (output_dir/checkpoints)");
  if (!m.adapter.empty()) {
    require(!m.path.empty(), c, "model.adapter", "needs model.path (the base the adapter was trained on)");
    require_exists(c, "model.adapter", m.adapter, "give a PEFT adapter directory (adapter_config.json + weights)");
  }
  m.tokenizer = c.get_string("model.tokenizer", m.path.empty() ? "" : text::tokenizer_file(m.path));
  if (!m.checkpoint.empty())
    require(!m.tokenizer.empty(), c, "model.tokenizer",
            "is required with model.checkpoint: the tokenizer.model of the run (its output_dir/tokenizer.model)");
  if (!m.tokenizer.empty())
    require_exists(c, "model.tokenizer", m.tokenizer,
                   "give the tokenizer.model the model was trained with (falcon_train copies it into final/)");
  return m;
}

DataSpec read_data(Config& c) {
  DataSpec d;
  d.dataset = c.get_string("data.dataset", "");
  if (c.has("data.files")) {
    d.files = c.is_list("data.files") ? c.get_string_list("data.files") : std::vector<std::string>{c.get_string("data.files")};
  }
  require(d.dataset.empty() != d.files.empty(), c, "data",
          "must give exactly one of dataset (a falcon_datagen .h5 file) or files (benchmark files or directories)");
  if (!d.dataset.empty()) {
    require_exists(c, "data.dataset", d.dataset, "make it with falcon_datagen configs/data/<problem>.yaml");
    d.split = c.get_string("data.split", d.split);
  } else {
    d.problem = c.get_string("data.problem");
    for (std::size_t i = 0; i < d.files.size(); ++i)
      require_exists(c, "data.files[" + std::to_string(i) + "]", d.files[i], "give instance files or directories");
    if (c.is_map("data.optima")) {
      for (const auto& [name, text] : c.get_string_map("data.optima")) {
        std::size_t used = 0;
        try {
          d.optima[name] = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        require(used == text.size(), c, "data.optima." + name, "must be a number (the known optimum)");
      }
    } else if (c.has("data.optima")) {
      d.optima = read_optima_csv(c, "data.optima", c.get_string("data.optima"));
    }
  }
  d.limit = c.get_int("data.limit", 0);
  require(d.limit >= 0, c, "data.limit", "must be >= 0 (0 = every instance)");
  d.max_new_tokens = static_cast<int>(c.get_int("data.max_new_tokens", 0));
  require(d.max_new_tokens >= 0, c, "data.max_new_tokens", "must be >= 0 (0 = sized from the instance)");
  const std::string over_context = c.get_string("data.over_context", "error");
  require(over_context == "error" || over_context == "skip", c, "data.over_context",
          "must be error (stop when an instance does not fit the model's context) or skip (evaluate the others)");
  d.skip_over_context = over_context == "skip";
  return d;
}

// A row's computed_notes: true, false or auto; absent, `fallback`'s (the top-level key's) setting.
// Returns the key the setting came from, for the errors that follow.
std::string read_computed_notes(Config& c, const std::string& key, const RowSpec& fallback, RowSpec& r) {
  r.computed_notes = fallback.computed_notes;
  r.computed_notes_auto = fallback.computed_notes_auto;
  if (!c.has(key)) return "computed_notes";
  const std::optional<bool> on = c.get_bool_or_auto(key);
  r.computed_notes_auto = !on;
  r.computed_notes = on.value_or(false);
  return key;
}

RowSpec read_row(Config& c, const std::string& base, const RowSpec& default_notes) {
  RowSpec r;
  const std::string key = base + ".type";
  const std::string type = c.get_string(key);
  if (type == "greedy") {
    r.kind = MethodKind::kGreedy;
  } else if (type == "fixed") {
    r.kind = MethodKind::kFixed;
  } else if (type == "adaptive") {
    r.kind = MethodKind::kAdaptive;
  } else if (type.rfind("solver:", 0) == 0 && type.size() > 7) {
    r.kind = MethodKind::kSolver;
    r.solver = type.substr(7);
  } else {
    throw Error(at(c, key) + ": unknown type '" + type +
                "' (use greedy, fixed, adaptive, or solver:<method> such as solver:reference)");
  }
  r.name = c.get_string(base + ".name", type == "fixed" ? "fixed" : type);
  if (r.kind == MethodKind::kSolver) {
    r.time_limit_s = c.get_double(base + ".time_limit_s", 0.0);
    require(r.time_limit_s >= 0, c, base + ".time_limit_s", "must be >= 0 (0 = the solver's own budget)");
    return r;
  }
  if (r.kind == MethodKind::kFixed) {
    r.n = static_cast<int>(c.get_int(base + ".n", 8));
    require(r.n >= 1, c, base + ".n", "must be at least 1");
    if (r.name == "fixed") r.name = "fixed N=" + std::to_string(r.n);
    r.round_size = static_cast<int>(c.get_int(base + ".round_size", 0));
    require(r.round_size >= 0, c, base + ".round_size", "must be >= 0 (0 = all n samples in one call)");
  }
  if (r.kind == MethodKind::kAdaptive) {
    r.rule.n_min = static_cast<int>(c.get_int(base + ".n_min", 8));
    require(r.rule.n_min >= 1, c, base + ".n_min", "must be at least 1");
    r.rule.n_max = static_cast<int>(c.get_int(base + ".n_max", 64));
    require(r.rule.n_max >= r.rule.n_min, c, base + ".n_max", "must be >= n_min");
    r.rule.tau = c.get_double(base + ".tau", 0.85);
    require(r.rule.tau > 0 && r.rule.tau <= 1, c, base + ".tau", "must be in (0, 1]");
    r.rule.alpha0 = c.get_double(base + ".alpha0", 1.0);
    r.rule.beta0 = c.get_double(base + ".beta0", 1.0);
    require(r.rule.alpha0 > 0 && r.rule.beta0 > 0, c, base + ".alpha0", "and beta0 must be positive");
    r.rule.patience = static_cast<int>(c.get_int(base + ".patience", 0));
    require(r.rule.patience >= 0, c, base + ".patience",
            "must be >= 0: stop after this many samples in a row that beat nothing (0 = off)");
    r.round_size = static_cast<int>(c.get_int(base + ".round_size", 8));
    require(r.round_size >= 1, c, base + ".round_size", "must be at least 1 (samples per call after the first n_min)");
    r.match = match_from_string(c.get_string(base + ".match", "solution"), at(c, base + ".match"));
  }
  if (r.kind == MethodKind::kFixed) r.match = match_from_string(c.get_string(base + ".match", "solution"), at(c, base + ".match"));
  if (r.kind != MethodKind::kGreedy) {
    const std::string policy = c.get_string(base + ".policy", "model");
    require(policy == "model" || policy == "heuristic", c, base + ".policy",
            "must be model or heuristic (the model-free sampler over the model text's choices)");
    r.heuristic_policy = policy == "heuristic";
    r.q = c.get_double(base + ".q", r.q);
    require(r.q > 0 && r.q <= 1, c, base + ".q", "must be in (0, 1]: rank r is drawn with probability proportional to q^r");
    require(!r.heuristic_policy || !c.has(base + ".temperature"), c, base + ".temperature",
            "does not apply to policy: heuristic (q sets how far it strays from the heuristic's first choice)");
    r.with_greedy = c.get_bool(base + ".with_greedy", false);
    require(!r.heuristic_policy || !r.with_greedy, c, base + ".with_greedy", "needs the model (policy: model)");
    r.symmetric_copies = c.get_bool(base + ".symmetric_copies", false);
    require(!r.heuristic_policy || !r.symmetric_copies, c, base + ".symmetric_copies", "needs the model (policy: model)");
    r.temperature = c.get_double(base + ".temperature", r.temperature);
    require(r.temperature > 0 || (r.symmetric_copies && r.temperature == 0), c, base + ".temperature",
            "must be > 0 (0 only with symmetric_copies: each copy by argmax; use type: greedy for one argmax decode)");
    r.top_k = static_cast<int>(c.get_int(base + ".top_k", 0));
    require(r.top_k >= 0, c, base + ".top_k", "must be >= 0 (0 = off)");
    r.top_p = c.get_double(base + ".top_p", 1.0);
    require(r.top_p > 0 && r.top_p <= 1, c, base + ".top_p", "must be in (0, 1] (1 = off)");
  }
  r.grammar = c.get_bool(base + ".grammar", true);
  r.repair = c.get_bool(base + ".repair", true);
  r.semantic_mask = c.get_bool(base + ".semantic_mask", false);
  require(!r.semantic_mask || r.grammar, c, base + ".semantic_mask", "needs grammar: true (it reads the grammar's text)");
  const std::string notes_key = read_computed_notes(c, base + ".computed_notes", default_notes, r);
  const std::string inherited =  // the top-level setting reaches this row: say which row, and how to opt it out
      notes_key == base + ".computed_notes" ? "" : " in " + base + " (give it computed_notes: false)";
  require(!(r.computed_notes && r.semantic_mask), c, notes_key,
          "cannot be combined with semantic_mask (the semantic mask does not read notes)" + inherited);
  r.note_picks = c.get_bool(base + ".note_picks", false);
  require(!r.note_picks || r.uses_model(), c, base + ".note_picks", "applies to rows the model writes");
  return r;
}

}  // namespace

std::string to_string(MethodKind kind) {
  switch (kind) {
    case MethodKind::kGreedy: return "greedy";
    case MethodKind::kFixed: return "fixed";
    case MethodKind::kAdaptive: return "adaptive";
    case MethodKind::kSolver: return "solver";
  }
  return "?";
}

int RowSpec::budget() const {
  switch (kind) {
    case MethodKind::kGreedy: return 1;
    case MethodKind::kFixed: return n;
    case MethodKind::kAdaptive: return rule.n_max;
    case MethodKind::kSolver: return 0;
  }
  return 0;
}

void settle_auto_notes(std::vector<RowSpec>& rows, bool model_writes_notes) {
  for (auto& r : rows) {
    if (!r.computed_notes_auto) continue;
    r.computed_notes = model_writes_notes && !r.semantic_mask;  // with the grammar off too
    r.computed_notes_auto = false;
  }
}

void check_rows_for_text(const std::vector<RowSpec>& rows, bool model_writes_notes, bool notes_are_choices,
                         const std::string& text) {
  for (const auto& r : rows) {
    if (r.note_picks && !(r.computed_notes && notes_are_choices))
      throw Error(r.name + ": note_picks: the model writes " + text +
                  (notes_are_choices ? " and the row computes no notes (set computed_notes: true or auto)"
                                     : ", whose notes are not the next pick's choices (only compact_ranked's are)"));
    if (r.computed_notes && !model_writes_notes)
      throw Error(r.name + ": computed_notes: the model writes " + text +
                  ", which has no notes (set computed_notes: false or auto)");
    if (r.semantic_mask && model_writes_notes)
      throw Error(r.name + ": semantic_mask: the model writes " + text +
                  ", whose notes the semantic mask would read as indices (set semantic_mask: false for this model)");
  }
}

bool EvalSpec::needs_model() const {
  for (const auto& r : rows)
    if (r.uses_model() || r.heuristic_policy) return true;
  return false;
}

EvalSpec read_eval_spec(Config& c) {
  EvalSpec s;
  s.source = c.source();
  s.output_dir = c.get_string("output_dir");
  s.seed = c.get_uint("seed", 1);
  s.threads = static_cast<int>(c.get_int("threads", 0));
  s.device = c.get_string("device", "cpu");
  s.batch_instances = static_cast<int>(c.get_int("batch_instances", 8));
  require(s.batch_instances >= 1, c, "batch_instances", "must be at least 1");
  s.infeasible_gap = c.get_double("infeasible_gap", 1.0);
  require(s.infeasible_gap >= 0, c, "infeasible_gap", "must be >= 0 (1.0 counts an infeasible instance as a 100% gap)");
  s.data = read_data(c);

  require(c.has("method") != c.has("rows"), c, "method",
          "or rows: give exactly one (method: {type: adaptive} for one row, rows: [...] for a table)");
  RowSpec default_notes;  // the top-level computed_notes: every model row's unless it says otherwise
  const std::optional<bool> notes = c.get_bool_or_auto("computed_notes", std::nullopt);
  default_notes.computed_notes_auto = !notes;
  default_notes.computed_notes = notes.value_or(false);
  if (c.has("method")) {
    s.rows.push_back(read_row(c, "method", default_notes));
  } else {
    const int n = c.list_size("rows");
    require(n > 0, c, "rows", "must list at least one row, e.g. [{type: greedy}, {type: solver:reference}]");
    for (int i = 0; i < n; ++i) s.rows.push_back(read_row(c, "rows[" + std::to_string(i) + "]", default_notes));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j)
        require(s.rows[i].name != s.rows[j].name, c, "rows[" + std::to_string(i) + "].name",
                "repeats the row name '" + s.rows[i].name + "'; give each row a distinct name");
  }
  if (s.needs_model()) {
    require(c.has("model"), c, "model",
            "is required by the model rows (greedy / fixed / adaptive): give model.path (a falcon_train final/ directory)");
    s.model = read_model(c);
  } else if (c.has("model")) {
    s.model = read_model(c);  // read (so its keys are checked) though no row uses it
  }

  s.plot.file = c.get_string("plot.file", "");
  s.plot.instance = c.get_string("plot.instance", "");
  s.plot.row = c.get_string("plot.row", "");
  if (!s.plot.row.empty()) {
    bool found = false;
    for (const auto& r : s.rows) found = found || r.name == s.plot.row;
    require(found, c, "plot.row", "names no row ('" + s.plot.row + "')");
  }
  return s;
}

}  // namespace falcon::scoring
