#include "falcon/eval/solution_picture.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"
#include "falcon/eval/solution_svg.h"

namespace falcon::eval {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string title(const InstanceResult& r) {
  char buf[256];
  std::string text = r.instance + " | " + r.row;
  if (r.objective) {
    std::snprintf(buf, sizeof buf, " | objective %.2f", *r.objective);
    text += buf;
  } else {
    text += " | infeasible";
  }
  if (r.gap) {
    std::snprintf(buf, sizeof buf, " | gap %.2f%%", 100 * *r.gap);
    text += buf;
  }
  if (r.repaired) text += " | repaired";
  return text;
}

}  // namespace

void check_picture_file(const std::string& file, const std::string& key) {
  if (!ends_with(file, ".png")) return;
  if (std::system("convert -version 2>/dev/null | grep -q ImageMagick") != 0)
    throw Error(key + ": '" + file + "' needs ImageMagick's convert for PNG (apt-get install imagemagick); "
                "or give a .svg file");
}

void write_solution_picture(const std::string& file, const EvalInstance& e, const InstanceResult& result) {
  // The delivered text is the formatter's own output, so the strict parser reads it back.
  const auto parsed = e.problem->parse(result.solution, /*lenient=*/false);
  if (!parsed.solution) throw Error("plot: cannot read back the delivered solution of '" + e.name + "'");
  const auto svg = render_solution_svg(*e.problem, *e.instance, *parsed.solution, title(result));
  if (const auto parent = std::filesystem::path(file).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent);
  if (!ends_with(file, ".png")) {
    write_file_atomic(file, svg);
    return;
  }
  const std::string svg_file = file + ".svg";
  write_file_atomic(svg_file, svg);
  const std::string command = "convert '" + svg_file + "' '" + file + "' 2>/dev/null";
  if (file.find('\'') != std::string::npos || std::system(command.c_str()) != 0)
    throw Error("plot: could not convert " + svg_file + " to PNG (needs ImageMagick's convert); the SVG is there");
  std::filesystem::remove(svg_file);
}

}  // namespace falcon::eval
