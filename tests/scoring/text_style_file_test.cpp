#include "falcon/scoring/text_style_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "falcon/core/error.h"

namespace falcon::scoring {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("falcon_text_style_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(TextStyleFile, RoundTripsAndDefaultsToThePaperStyle) {
  const fs::path dir = fresh_dir("roundtrip");
  EXPECT_EQ(read_text_style(dir.string()), formats::TextStyle{});  // a plain Hugging Face model
  const auto compact = formats::make_text_style("compact", 4, "test");
  write_text_style(dir.string(), compact);
  EXPECT_EQ(read_text_style(dir.string()), compact);
  auto several = formats::make_text_style("compact", 4, "test");  // a model of several problems
  formats::set_problem_text_style(several, "pfsp", "compact_insert", 0, "test");
  formats::set_problem_text_style(several, "op", "compact_ranked", 4, "test");
  write_text_style(dir.string(), several);
  EXPECT_EQ(read_text_style(dir.string()), several);
  fs::remove_all(dir);
}

TEST(TextStyleFile, MalformedFilesAreErrorsNamingTheFile) {
  const fs::path dir = fresh_dir("malformed");
  for (const char* text : {"{", "[]", "{\"candidates\": 4}", "{\"style\": 3}", "{\"style\": \"compact\", \"candidates\": \"4\"}",
                           "{\"style\": \"fancy\"}", "{\"style\": \"compact\", \"candidates\": -2}",
                           "{\"style\": \"compact\", \"problems\": []}", "{\"style\": \"compact\", \"problems\": {\"op\": 3}}",
                           "{\"style\": \"compact\", \"problems\": {\"opp\": {\"style\": \"compact\"}}}",
                           "{\"style\": \"compact\", \"problems\": {\"op\": {\"style\": \"compact_fancy\"}}}"}) {
    std::ofstream(dir / kTextStyleFile) << text;
    try {
      read_text_style(dir.string());
      ADD_FAILURE() << "no error for " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(kTextStyleFile), std::string::npos) << e.what();
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace falcon::scoring
