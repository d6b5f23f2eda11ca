#include "falcon/problems/compact_text.h"

#include <cstdio>

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

std::string compact_clause(int id, const std::vector<double>& numbers, const std::vector<int>& ids) {
  std::string out = "#" + std::to_string(id);
  for (double x : numbers) out += " " + whole_number_text(x);
  if (!ids.empty()) out += ":";
  return out + id_list_text(ids) + ";";
}

}  // namespace falcon::problems
