#include "falcon/formats/format.h"

#include <utility>

namespace falcon::formats {

problems::TextShape compact_shape(const problems::Problem& problem, bool notes, std::string grammar) {
  problems::TextShape shape = problem.shape();
  shape.index_prefix = kCompactIndexPrefix;
  shape.echo = notes;
  shape.grammar = std::move(grammar);
  return shape;
}

std::string not_written(std::string_view style, const problems::Problem& problem, std::string_view what,
                        std::string_view fallback) {
  return "text style '" + std::string(style) + "' is not written for " + std::string(problem.name()) + " yet (add " +
         std::string(what) + "); use text.style: " + std::string(fallback);
}

}  // namespace falcon::formats
