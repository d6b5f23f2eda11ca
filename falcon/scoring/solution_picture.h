#pragma once
// A picture of one solution in a file (falcon_eval --plot FILE, falcon_solve --plot FILE): SVG
// from solution_svg.h, or PNG when FILE ends in .png (the SVG converted by svg_to_png.h).
#include <string>

#include "falcon/scoring/eval_instances.h"
#include "falcon/scoring/instance_result.h"

namespace falcon::scoring {

// Throws falcon::Error naming `key` (the flag or config key) and the fix when `file` does not
// end in .svg or .png, its directory cannot be made or written, or it is a .png and
// rsvg-convert is missing. Call it before the long work, so the run does not end in that error.
// Creates the directory, where the picture will go anyway.
void check_picture_file(const std::string& file, const std::string& key);

// Writes `svg` to `file` (.svg), or to `file`.svg converted to `file` (.png; the SVG is removed
// after, and left there, named in the error, when the conversion fails).
void write_picture(const std::string& file, const std::string& svg);

// falcon_eval: the delivered solution of one instance under one row, with what repair changed
// marked when the row repaired it (result.before_repair).
void write_solution_picture(const std::string& file, const EvalInstance& instance, const InstanceResult& result);

}  // namespace falcon::scoring
