#include "falcon/formats/registry.h"

#include "falcon/formats/compact.h"
#include "falcon/formats/insertion.h"
#include "falcon/formats/notes.h"
#include "falcon/formats/ranked.h"

namespace falcon::formats {
namespace {

using Factory = const Format& (*)();

constexpr Factory kFormats[] = {
    compact_format, echo_format, state_format, ranked_format, ranked_opening_format, ranked_conflict_format,
    ranked_keyed_format, insertion_format,
};

}  // namespace

const Format* format_by_name(std::string_view name) {
  for (Factory format : kFormats)
    if (format().name() == name) return &format();
  return nullptr;
}

std::string known_styles() {
  std::string names = "paper";
  for (Factory format : kFormats) names += ", " + std::string(format().name());
  return names;
}

}  // namespace falcon::formats
