#include "falcon/core/config.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include "falcon/core/error.h"

namespace falcon {
namespace {

// One step of a path: a map key, or a list index when `index >= 0`.
struct Segment {
  std::string key;
  int index = -1;
};

std::vector<Segment> split_path(const std::string& path) {
  std::vector<Segment> out;
  std::size_t i = 0;
  auto bad = [&] { return Error("config path '" + path + "' is malformed (use a.b for keys, a[2] for list items)"); };
  while (i < path.size()) {
    std::size_t j = i;
    while (j < path.size() && path[j] != '.' && path[j] != '[') ++j;
    if (j > i) out.push_back({path.substr(i, j - i), -1});
    else if (path[i] == '.' || out.empty()) throw bad();
    while (j < path.size() && path[j] == '[') {
      const std::size_t close = path.find(']', j);
      if (close == std::string::npos || close == j + 1) throw bad();
      const std::string digits = path.substr(j + 1, close - j - 1);
      if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 6) throw bad();
      out.push_back({"", std::stoi(digits)});
      j = close + 1;
    }
    if (j < path.size()) {
      if (path[j] != '.' || j + 1 == path.size()) throw bad();
      ++j;
    }
    i = j;
  }
  if (out.empty()) throw bad();
  return out;
}

std::string join(const std::string& parent, const std::string& key) { return parent.empty() ? key : parent + "." + key; }
std::string join_index(const std::string& parent, std::size_t i) { return parent + "[" + std::to_string(i) + "]"; }

// "a.b[2].c" in one spelling, so that paths compare as strings.
std::string normalise(const std::string& path) {
  std::string out;
  for (const auto& s : split_path(path)) out = s.index >= 0 ? join_index(out, s.index) : join(out, s.key);
  return out;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// True when `set` holds `path` followed by '.' or '[' (something below it was read).
bool has_descendant(const std::set<std::string>& set, const std::string& path) {
  for (auto it = set.lower_bound(path); it != set.end() && starts_with(*it, path); ++it) {
    if (it->size() > path.size() && ((*it)[path.size()] == '.' || (*it)[path.size()] == '[')) return true;
  }
  return false;
}

// True when `path` or one of its ancestors is in `set`.
bool covered(const std::set<std::string>& set, const std::string& path) {
  for (const auto& p : set) {
    if (p == path) return true;
    if (starts_with(path, p) && (path[p.size()] == '.' || path[p.size()] == '[')) return true;
  }
  return false;
}

std::string kind_name(const YAML::Node& n) {
  if (n.IsMap()) return "a map";
  if (n.IsSequence()) return "a list";
  if (n.IsNull()) return "empty";
  return "'" + n.Scalar() + "'";
}

// Shortest text that reads back as the same double.
std::string format_double(double v) {
  char buf[40];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

YAML::Node load_yaml(const std::string& text, const std::string& source) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw input_error(source, e.mark.is_null() ? 0 : e.mark.line + 1, "YAML syntax error: " + e.msg);
  }
}

void remove_path(YAML::Node node, const std::vector<Segment>& segs, std::size_t i) {
  if (segs[i].index >= 0) {  // into a list item (removing the item itself would renumber the others)
    if (node.IsSequence() && i + 1 < segs.size() && static_cast<std::size_t>(segs[i].index) < node.size())
      remove_path(node[static_cast<std::size_t>(segs[i].index)], segs, i + 1);
    return;
  }
  if (!node.IsMap()) return;
  if (i + 1 == segs.size()) {
    if (segs[i].key == "*") {
      std::vector<std::string> keys;
      for (const auto& kv : node) keys.push_back(kv.first.Scalar());
      for (const auto& k : keys) node.remove(k);
    } else {
      node.remove(segs[i].key);
    }
    return;
  }
  for (auto kv : node) {
    if (segs[i].key == "*" || kv.first.Scalar() == segs[i].key) remove_path(kv.second, segs, i + 1);
  }
}

std::string difference(const YAML::Node& a, const YAML::Node& b, const std::string& path) {
  const std::string here = path.empty() ? "(the whole document)" : path;
  if (a.Type() != b.Type()) return here;
  if (a.IsScalar()) return a.Scalar() == b.Scalar() ? "" : here;
  if (a.IsSequence()) {
    if (a.size() != b.size()) return here;
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::string d = difference(a[i], b[i], join_index(path, i));
      if (!d.empty()) return d;
    }
    return "";
  }
  if (a.IsMap()) {
    for (const auto& kv : a) {
      const std::string key = kv.first.Scalar();
      if (!b[key]) return join(path, key);
      std::string d = difference(kv.second, b[key], join(path, key));
      if (!d.empty()) return d;
    }
    for (const auto& kv : b) {
      if (!a[kv.first.Scalar()]) return join(path, kv.first.Scalar());
    }
  }
  return "";
}

}  // namespace

Config Config::from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the config file (does it exist?)");
  std::stringstream text;
  text << in.rdbuf();
  return from_string(text.str(), path);
}

Config Config::from_string(const std::string& text, const std::string& source) {
  Config c;
  c.source_ = source;
  c.root_ = load_yaml(text, source);
  if (c.root_.IsNull()) c.root_ = YAML::Node(YAML::NodeType::Map);
  if (!c.root_.IsMap()) throw Error(source + ": the top level of a config must be a map of keys");
  return c;
}

Config::Config(const Config& other)
    : source_(other.source_), root_(YAML::Clone(other.root_)), overrides_(other.overrides_), read_(other.read_), whole_(other.whole_) {}

Config& Config::operator=(const Config& other) {
  if (this != &other) *this = Config(other);  // deep copy, then move-assign
  return *this;
}

void Config::set_override(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw Error("override '" + assignment + "' is not of the form key.path=value");
  }
  const std::string path = assignment.substr(0, eq);
  const auto segs = split_path(path);
  YAML::Node value = eq + 1 == assignment.size() ? YAML::Node("") : load_yaml(assignment.substr(eq + 1), "override '" + assignment + "'");
  // Walk, creating maps for missing keys; list items must exist.
  YAML::Node node = root_;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const bool last = i + 1 == segs.size();
    if (segs[i].index >= 0) {
      if (!node.IsSequence() || segs[i].index >= static_cast<int>(node.size())) {
        throw Error("override '" + assignment + "': there is no list item " + std::to_string(segs[i].index) + " to set");
      }
      if (last) {
        node[segs[i].index] = value;
      } else {
        YAML::Node child = node[segs[i].index];
        node.reset(child);
      }
      continue;
    }
    if (!node.IsMap()) {
      if (!node.IsNull()) throw Error("override '" + assignment + "': '" + segs[i].key + "' is below a value that is not a map");
      node = YAML::Node(YAML::NodeType::Map);  // assigns through to the parent's entry
    }
    if (last) {
      node[segs[i].key] = value;
    } else {
      YAML::Node child = node[segs[i].key];
      if (!child.IsDefined() || child.IsNull()) {
        node[segs[i].key] = YAML::Node(YAML::NodeType::Map);
        child.reset(node[segs[i].key]);
      }
      node.reset(child);
    }
  }
  overrides_[normalise(path)] = assignment;
}

void Config::set_overrides(const std::vector<std::string>& assignments) {
  for (const auto& a : assignments) set_override(a);
}

YAML::Node Config::find(const std::string& path) const {
  // Nodes are handles: assigning one to another copies content, so walk with a chain of copies.
  std::vector<YAML::Node> chain{root_};
  for (const auto& s : split_path(path)) {
    const YAML::Node& node = chain.back();
    if (s.index >= 0) {
      if (!node.IsSequence() || s.index >= static_cast<int>(node.size())) return YAML::Node();
      chain.push_back(node[s.index]);
    } else {
      if (!node.IsMap()) return YAML::Node();
      const YAML::Node child = node[s.key];  // const lookup: never inserts
      if (!child.IsDefined()) return YAML::Node();
      chain.push_back(child);
    }
  }
  return chain.back();
}

YAML::Node Config::require(const std::string& path) const {
  mark(path);
  YAML::Node n = find(path);
  if (!n.IsDefined() || n.IsNull()) throw Error(source_ + ": missing required key '" + path + "'");
  return n;
}

std::string Config::where(const YAML::Node& node, const std::string& path) const {
  // A value set on the command line has no line in the file: name the override instead.
  for (const auto& [p, assignment] : overrides_) {
    const bool below = starts_with(path, p) && path.size() > p.size() && (path[p.size()] == '.' || path[p.size()] == '[');
    const bool above = starts_with(p, path) && p.size() > path.size() && (p[path.size()] == '.' || p[path.size()] == '[');
    if (path == p || below || (above && node.Mark().is_null())) {  // above: a map the override created
      return source_ + " (override '" + assignment + "'): ";
    }
  }
  if (!node.IsDefined() || node.Mark().is_null()) return source_ + ": ";
  return source_ + ":" + std::to_string(node.Mark().line + 1) + ": ";
}

void Config::mark(const std::string& path) const { read_.insert(normalise(path)); }

void Config::mark_known(const std::string& path) const {
  mark(path);
  whole_.insert(normalise(path));
}

bool Config::has(const std::string& path) const {
  const YAML::Node n = find(path);
  return n.IsDefined() && !n.IsNull();
}

bool Config::is_map(const std::string& path) const { return find(path).IsMap(); }
bool Config::is_list(const std::string& path) const { return find(path).IsSequence(); }

int Config::list_size(const std::string& path) const {
  mark(path);
  const YAML::Node n = find(path);
  if (!n.IsDefined() || n.IsNull()) return 0;
  if (!n.IsSequence()) throw Error(where(n, path) + "key '" + path + "': expected a list, got " + kind_name(n));
  return static_cast<int>(n.size());
}

std::vector<std::string> Config::keys(const std::string& path) const {
  const YAML::Node n = path.empty() ? root_ : find(path);
  if (!n.IsDefined() || n.IsNull()) return {};
  if (!n.IsMap()) throw Error(where(n, path) + "key '" + path + "': expected a map, got " + kind_name(n));
  std::vector<std::string> out;
  for (const auto& kv : n) out.push_back(kv.first.Scalar());
  return out;
}

std::string Config::get_string(const std::string& path) const {
  const YAML::Node n = require(path);
  if (!n.IsScalar()) throw Error(where(n, path) + "key '" + path + "': expected a value, got " + kind_name(n));
  return n.Scalar();
}

std::int64_t Config::get_int(const std::string& path) const {
  const YAML::Node n = require(path);
  const std::string text = n.IsScalar() ? n.Scalar() : "";
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (!n.IsScalar() || text.empty() || *end != '\0' || errno == ERANGE || text[0] == ' ') {
    throw Error(where(n, path) + "key '" + path + "': expected an integer, got " + kind_name(n));
  }
  return v;
}

std::uint64_t Config::get_uint(const std::string& path) const {
  const YAML::Node n = require(path);
  const std::string text = n.IsScalar() ? n.Scalar() : "";
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (!n.IsScalar() || text.empty() || *end != '\0' || errno == ERANGE || !std::isdigit(static_cast<unsigned char>(text[0]))) {
    throw Error(where(n, path) + "key '" + path + "': expected a non-negative integer, got " + kind_name(n));
  }
  return v;
}

double Config::get_double(const std::string& path) const {
  const YAML::Node n = require(path);
  const std::string text = n.IsScalar() ? n.Scalar() : "";
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (!n.IsScalar() || text.empty() || *end != '\0' || !std::isfinite(v) || std::isspace(static_cast<unsigned char>(text[0]))) {
    throw Error(where(n, path) + "key '" + path + "': expected a number, got " + kind_name(n));
  }
  return v;
}

bool Config::get_bool(const std::string& path) const {
  const YAML::Node n = require(path);
  std::string t = n.IsScalar() ? n.Scalar() : "";
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "true" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "no" || t == "off") return false;
  throw Error(where(n, path) + "key '" + path + "': expected true or false, got " + kind_name(n));
}

std::optional<bool> Config::get_bool_or_auto(const std::string& path) const {
  const YAML::Node n = require(path);
  std::string t = n.IsScalar() ? n.Scalar() : "";
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "auto") return std::nullopt;
  if (t == "true" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "no" || t == "off") return false;
  throw Error(where(n, path) + "key '" + path + "': expected true, false or auto, got " + kind_name(n));
}

std::vector<std::int64_t> Config::get_int_list(const std::string& path) const {
  const int size = list_size(path);
  if (!has(path)) require(path);
  std::vector<std::int64_t> out;
  for (int i = 0; i < size; ++i) out.push_back(get_int(join_index(path, i)));
  return out;
}

std::vector<std::string> Config::get_string_list(const std::string& path) const {
  const int size = list_size(path);
  if (!has(path)) require(path);
  std::vector<std::string> out;
  for (int i = 0; i < size; ++i) out.push_back(get_string(join_index(path, i)));
  return out;
}

std::map<std::string, std::string> Config::get_string_map(const std::string& path) const {
  mark(path);
  whole_.insert(normalise(path));
  const YAML::Node n = find(path);
  std::map<std::string, std::string> out;
  if (!n.IsDefined() || n.IsNull()) return out;
  if (!n.IsMap()) throw Error(where(n, path) + "key '" + path + "': expected a map of key: value, got " + kind_name(n));
  for (const auto& kv : n) {
    if (!kv.second.IsScalar()) {
      throw Error(where(kv.second, join(path, kv.first.Scalar())) + "key '" + join(path, kv.first.Scalar()) + "': expected a value, got " + kind_name(kv.second));
    }
    out[kv.first.Scalar()] = kv.second.Scalar();
  }
  return out;
}

void Config::set_default(const std::string& path, const YAML::Node& value) {
  const auto segs = split_path(path);
  YAML::Node node = root_;
  for (std::size_t i = 0; i + 1 < segs.size(); ++i) {
    if (segs[i].index >= 0) {
      YAML::Node child = node[segs[i].index];
      node.reset(child);
      continue;
    }
    YAML::Node child = node[segs[i].key];
    if (!child.IsDefined() || child.IsNull()) {
      node[segs[i].key] = YAML::Node(YAML::NodeType::Map);
      child.reset(node[segs[i].key]);
    }
    node.reset(child);
  }
  if (node.IsMap() && segs.back().index < 0) node[segs.back().key] = value;
}

std::string Config::get_string(const std::string& path, const std::string& fallback) {
  if (has(path)) return get_string(path);
  mark(path);
  set_default(path, YAML::Node(fallback));
  return fallback;
}

std::int64_t Config::get_int(const std::string& path, std::int64_t fallback) {
  if (has(path)) return get_int(path);
  mark(path);
  set_default(path, YAML::Node(std::to_string(fallback)));
  return fallback;
}

std::uint64_t Config::get_uint(const std::string& path, std::uint64_t fallback) {
  if (has(path)) return get_uint(path);
  mark(path);
  set_default(path, YAML::Node(std::to_string(fallback)));
  return fallback;
}

double Config::get_double(const std::string& path, double fallback) {
  if (has(path)) return get_double(path);
  mark(path);
  set_default(path, YAML::Node(format_double(fallback)));
  return fallback;
}

bool Config::get_bool(const std::string& path, bool fallback) {
  if (has(path)) return get_bool(path);
  mark(path);
  set_default(path, YAML::Node(fallback ? "true" : "false"));
  return fallback;
}

std::optional<bool> Config::get_bool_or_auto(const std::string& path, std::optional<bool> fallback) {
  if (has(path)) return get_bool_or_auto(path);
  mark(path);
  set_default(path, YAML::Node(!fallback ? "auto" : *fallback ? "true" : "false"));
  return fallback;
}

void Config::check_unused() const {
  // Depth-first in file order, so the first unknown key reported is the first in the file.
  std::function<void(const YAML::Node&, const std::string&)> visit = [&](const YAML::Node& node, const std::string& path) {
    if (!path.empty() && whole_.count(path)) return;
    if (node.IsSequence()) {
      for (std::size_t i = 0; i < node.size(); ++i) visit(node[i], join_index(path, i));
      return;
    }
    if (!node.IsMap()) return;
    for (const auto& kv : node) {
      const std::string child = join(path, kv.first.Scalar());
      if (read_.count(child) || whole_.count(child) || has_descendant(read_, child) || covered(whole_, child)) {
        visit(kv.second, child);
        continue;
      }
      std::set<std::string> known;
      const std::string prefix = path.empty() ? "" : path + ".";
      for (const auto* set : {&read_, &whole_}) {
        for (const auto& p : *set) {
          if (!starts_with(p, prefix) || p.size() == prefix.size()) continue;
          if (!path.empty() && p[path.size()] != '.') continue;
          const std::string rest = p.substr(prefix.size());
          known.insert(rest.substr(0, rest.find_first_of(".[")));
        }
      }
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      const std::string level = path.empty() ? "known top-level keys" : "known keys in '" + path + "'";
      throw Error(where(kv.first, child) + "unknown key '" + child + "' (" + level + ": " + (list.empty() ? "none" : list) + ")");
    }
  };
  visit(root_, "");
}

std::string Config::to_yaml() const {
  YAML::Emitter out;
  out.SetSeqFormat(YAML::Flow);  // short lists ([10, 30]) stay on one line
  out << root_;
  return std::string(out.c_str()) + "\n";
}

void Config::write(const std::string& path) const {
  std::ofstream out(path);
  out << to_yaml();
  if (!out) throw Error(path + ": cannot write the resolved config (is the directory writable?)");
}

std::string Config::to_yaml_without(const std::vector<std::string>& paths) const {
  YAML::Node copy = YAML::Clone(root_);
  for (const auto& p : paths) remove_path(copy, split_path(p), 0);
  YAML::Emitter out;
  out.SetSeqFormat(YAML::Flow);
  out << copy;
  return std::string(out.c_str()) + "\n";
}

std::string Config::first_difference(const std::string& yaml_a, const std::string& yaml_b) {
  return difference(load_yaml(yaml_a, "config"), load_yaml(yaml_b, "config"), "");
}

}  // namespace falcon
