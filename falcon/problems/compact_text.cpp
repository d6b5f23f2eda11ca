#include "falcon/problems/compact_text.h"

#include <cstdio>

#include "falcon/core/error.h"

namespace falcon::problems {

std::string whole_number_text(double x) {
  char buf[400];  // %.0f of the largest double has 309 digits
  std::snprintf(buf, sizeof buf, "%.0f", x + 0.0);  // + 0.0: no "-0"
  return buf;
}

std::string id_list_text(const std::vector<int>& ids) {
  std::string out;
  for (int j : ids) out += "#" + std::to_string(j);
  return out;
}

std::string compact_clause(int id, const std::vector<double>& numbers, const std::vector<int>& ids,
                           const std::vector<int>& id_numbers) {
  std::string out = "#" + std::to_string(id);
  for (double x : numbers) out += " " + whole_number_text(x);
  if (!ids.empty()) out += ":";
  if (id_numbers.empty()) return out + id_list_text(ids) + ";";
  if (id_numbers.size() != ids.size())
    throw Error("compact clause of #" + std::to_string(id) + ": " + std::to_string(id_numbers.size()) +
                " numbers for " + std::to_string(ids.size()) + " IDs");
  for (std::size_t k = 0; k < ids.size(); ++k) out += id_list_text({ids[k]}) + " " + std::to_string(id_numbers[k]);
  return out + ";";
}

}  // namespace falcon::problems
