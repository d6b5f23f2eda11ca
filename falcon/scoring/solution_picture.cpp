#include "falcon/scoring/solution_picture.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"
#include "falcon/scoring/solution_svg.h"
#include "falcon/scoring/svg_to_png.h"

namespace falcon::scoring {
namespace {

namespace fs = std::filesystem;

bool is_png(const std::string& file) { return fs::path(file).extension() == ".png"; }

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
  const auto extension = fs::path(file).extension();
  if (extension != ".svg" && extension != ".png")
    throw Error(key + ": '" + file + "' must end in .svg or .png (the picture's format)");
  const fs::path parent = fs::path(file).has_parent_path() ? fs::path(file).parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec || !fs::is_directory(parent) || ::access(parent.c_str(), W_OK) != 0)
    throw Error(key + ": cannot write '" + file + "': '" + parent.string() +
                "' is not a writable directory (give a path in one)");
  if (fs::is_directory(file)) throw Error(key + ": '" + file + "' is a directory (give a file name)");
  if (is_png(file) && !png_converter_available())
    throw Error(key + ": '" + file + "' needs rsvg-convert to make a PNG (apt-get install librsvg2-bin, or "
                "tools/setup.sh); or give a .svg file");
}

void write_picture(const std::string& file, const std::string& svg) {
  if (const auto parent = fs::path(file).parent_path(); !parent.empty()) fs::create_directories(parent);
  if (!is_png(file)) {
    write_file_atomic(file, svg);
    return;
  }
  const std::string svg_file = file + ".svg";
  write_file_atomic(svg_file, svg);
  svg_to_png(svg_file, file);  // throws, leaving the SVG, when it fails
  fs::remove(svg_file);
}

void write_solution_picture(const std::string& file, const EvalInstance& e, const InstanceResult& result) {
  // The delivered text is the formatter's own output, so the strict parser reads it back.
  const auto parsed = e.problem->parse(*e.instance, result.solution, /*lenient=*/false);
  if (!parsed.solution) throw Error("plot: cannot read back the delivered solution of '" + e.name + "'");
  const problems::Solution* before = result.before_repair ? &*result.before_repair : nullptr;
  write_picture(file, render_solution_svg(*e.problem, *e.instance, *parsed.solution, title(result), before));
}

}  // namespace falcon::scoring
