#pragma once
// YAML configuration shared by every command (falcon_datagen, falcon_train, falcon_eval).
//
// Keys are strict: a program reads the keys it knows through the getters, then calls
// check_unused(), which rejects any key nobody read, naming its full path, where it came from and
// the keys that ARE known at that level ("tsp.yaml:7: unknown key 'label.methd' (known keys in
// 'label': method, time_limit_s)"). A typo is an error, never a silently ignored setting.
//
// Paths: "a.b" for map keys, "a[2].b" for list items. Command-line overrides "a.b=v" set a path
// (creating maps on the way); v is read as YAML, so "sizes.list=[20,50]" sets a list.
// Getters with a fallback record the fallback in the resolved document, so to_yaml() writes every
// setting that was in effect, defaults included: the config to store next to what it produced.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace falcon {

class Config {
 public:
  // Throws falcon::Error naming the file (and line) when it cannot be read or parsed, or when
  // the top level is not a map.
  static Config from_file(const std::string& path);
  // `source` names the text in error messages (a file name, "<test>").
  static Config from_string(const std::string& text, const std::string& source);

  // Copies are deep (yaml-cpp nodes are shared handles): an override on a copy leaves the original.
  Config(const Config& other);
  Config& operator=(const Config& other);
  Config(Config&&) = default;
  Config& operator=(Config&&) = default;

  // "a.b=v": sets a.b to the YAML value v. Throws falcon::Error on a malformed assignment.
  void set_override(const std::string& assignment);
  void set_overrides(const std::vector<std::string>& assignments);

  bool has(const std::string& path) const;  // present and not null
  bool is_map(const std::string& path) const;
  bool is_list(const std::string& path) const;
  // Number of items of the list at `path` (0 when absent); throws when it is not a list.
  int list_size(const std::string& path) const;
  // Keys of the map at `path`, in file order (empty when absent); throws when it is not a map.
  // Does not mark them as read: each must still be read through a getter or marked known.
  std::vector<std::string> keys(const std::string& path) const;

  // Required values: throw falcon::Error naming the path when absent or of the wrong type.
  std::string get_string(const std::string& path) const;
  std::int64_t get_int(const std::string& path) const;
  std::uint64_t get_uint(const std::string& path) const;
  double get_double(const std::string& path) const;
  bool get_bool(const std::string& path) const;
  // true, false or auto (nullopt): a switch whose value the program settles from what it learns later.
  std::optional<bool> get_bool_or_auto(const std::string& path) const;
  std::vector<std::int64_t> get_int_list(const std::string& path) const;
  std::vector<std::string> get_string_list(const std::string& path) const;
  // A map of scalars, read as text (free-form keys that another reader checks, e.g. the
  // generator keys a problem validates itself). Marks the whole map as read.
  std::map<std::string, std::string> get_string_map(const std::string& path) const;

  // Values with a default; the default is written into the resolved document.
  std::string get_string(const std::string& path, const std::string& fallback);
  std::int64_t get_int(const std::string& path, std::int64_t fallback);
  std::uint64_t get_uint(const std::string& path, std::uint64_t fallback);
  double get_double(const std::string& path, double fallback);
  bool get_bool(const std::string& path, bool fallback);
  std::optional<bool> get_bool_or_auto(const std::string& path, std::optional<bool> fallback);

  // Declares `path` and everything below it known without reading it (e.g. a section another
  // program reads), so check_unused() accepts it and lists it among the known keys.
  void mark_known(const std::string& path) const;
  // Throws falcon::Error for the first key (in file order) that no getter read and no
  // mark_known() declared.
  void check_unused() const;

  // The resolved document (file + overrides + defaults that were read) as YAML text.
  std::string to_yaml() const;
  // Writes to_yaml() to `path`; throws falcon::Error when it cannot.
  void write(const std::string& path) const;

  // A copy of the resolved document without the given paths (for comparing two configs while
  // ignoring settings that do not change results, such as thread counts).
  std::string to_yaml_without(const std::vector<std::string>& paths) const;
  // The first path (in file order) whose value differs between two YAML documents, or "" when
  // they are equal. Used to say WHICH setting differs rather than "configs differ".
  static std::string first_difference(const std::string& yaml_a, const std::string& yaml_b);

  const std::string& source() const { return source_; }

 private:
  Config() = default;

  YAML::Node find(const std::string& path) const;        // null node when absent
  YAML::Node require(const std::string& path) const;     // throws when absent
  std::string where(const YAML::Node& node, const std::string& path) const;  // "file:line: " or "file (override 'a=b'): "
  void mark(const std::string& path) const;
  void set_default(const std::string& path, const YAML::Node& value);

  std::string source_;
  YAML::Node root_;                                      // the resolved document
  std::map<std::string, std::string> overrides_;         // path -> "a.b=v" as given
  mutable std::set<std::string> read_;                   // normalised paths that were read
  mutable std::set<std::string> whole_;                  // paths read as a whole (maps of free keys)
};

}  // namespace falcon
