#include "falcon/model/safetensors.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "falcon/core/error.h"

namespace falcon::model {
namespace {

namespace fs = std::filesystem;

class Safetensors : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("falcon_safetensors_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string file(const std::string& name) const { return (dir_ / name).string(); }

  static void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  static std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  static std::string le64(std::uint64_t n) {
    std::string s(8, '\0');
    for (int i = 0; i < 8; ++i) s[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    return s;
  }

  // A file with this header text (padded with spaces to 8 bytes) and `data_bytes` zero bytes of data.
  static std::string raw_file(std::string header, std::size_t data_bytes) {
    header.append((8 - header.size() % 8) % 8, ' ');
    return le64(header.size()) + header + std::string(data_bytes, '\0');
  }

  // Expects reading `bytes` to throw one falcon::Error whose message has the path and every `needles`.
  void expect_rejected(const std::string& bytes, const std::vector<std::string>& needles) {
    const std::string path = file("bad.safetensors");
    write_bytes(path, bytes);
    for (int which = 0; which < 2; ++which) {
      try {
        if (which == 0) read_safetensors(path);
        else read_safetensors_metadata(path);
        ADD_FAILURE() << "accepted a malformed file, expected: " << needles.front();
      } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(path), std::string::npos) << msg;
        for (const auto& n : needles) EXPECT_NE(msg.find(n), std::string::npos) << "missing '" << n << "' in: " << msg;
      }
    }
  }

  fs::path dir_;
};

TEST_F(Safetensors, RoundTripsDtypesShapesAndMetadata) {
  torch::manual_seed(0);
  const std::vector<std::vector<std::int64_t>> shapes = {{}, {0}, {3}, {2, 3}, {2, 0, 4}, {1, 2, 3, 4}};
  TensorMap tensors;
  for (const auto dtype : {torch::kFloat32, torch::kFloat16, torch::kBFloat16}) {
    for (std::size_t i = 0; i < shapes.size(); ++i)
      tensors[std::string(c10::toString(dtype)) + "." + std::to_string(i)] = torch::randn(shapes[i]).to(dtype);
  }
  tensors["f64"] = torch::randn({2, 2}, torch::kFloat64);
  tensors["i64"] = torch::arange(-5, 5, torch::kInt64);
  tensors["i32"] = torch::arange(0, 7, torch::kInt32).reshape({7, 1});
  tensors["u8"] = torch::arange(0, 255, torch::kInt32).to(torch::kUInt8);
  tensors["bool"] = torch::tensor({true, false, true});
  tensors["transposed"] = torch::randn({3, 4}).t();  // non-contiguous input
  const Metadata metadata = {{"format", "pt"}, {"step", "1200"}, {"note", "quotes \" and \\ and unicode \xc3\xa9"}};

  const std::string path = file("model.safetensors");
  write_safetensors(path, tensors, metadata);
  const TensorMap back = read_safetensors(path);
  ASSERT_EQ(back.size(), tensors.size());
  for (const auto& [name, t] : tensors) {
    ASSERT_TRUE(back.count(name)) << name;
    const auto& b = back.at(name);
    EXPECT_EQ(b.scalar_type(), t.scalar_type()) << name;
    EXPECT_EQ(b.sizes(), t.sizes()) << name;
    EXPECT_TRUE(b.is_contiguous()) << name;
    EXPECT_TRUE(torch::equal(b, t)) << name;
  }
  EXPECT_EQ(read_safetensors_metadata(path), metadata);

  // Overwriting replaces the file and leaves no temporary behind.
  write_safetensors(path, {{"x", torch::ones({2})}});
  EXPECT_EQ(read_safetensors(path).size(), 1u);
  EXPECT_TRUE(read_safetensors_metadata(path).empty());
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(Safetensors, WritesTheExactFormat) {
  // Two tensors, name order: "a" (F32 [2] = 1, 2) then "b" (BF16 [] = 1). Keys in the JSON come sorted.
  const TensorMap tensors = {{"b", torch::tensor(1.0f).to(torch::kBFloat16)}, {"a", torch::tensor({1.0f, 2.0f})}};
  const std::string json =
      R"({"__metadata__":{"k":"v"},)"
      R"("a":{"data_offsets":[0,8],"dtype":"F32","shape":[2]},)"
      R"("b":{"data_offsets":[8,10],"dtype":"BF16","shape":[]}})";
  std::string header = json;
  while (header.size() % 8 != 0) header += ' ';
  ASSERT_EQ(header.size() % 8, 0u);
  std::string expected = le64(header.size()) + header;
  expected += std::string("\x00\x00\x80\x3f", 4);  // 1.0f little-endian
  expected += std::string("\x00\x00\x00\x40", 4);  // 2.0f
  expected += std::string("\x80\x3f", 2);          // bf16 1.0 = top half of 0x3f800000

  const std::string path = file("tiny.safetensors");
  write_safetensors(path, tensors, {{"k", "v"}});
  EXPECT_EQ(safetensors_header_json(tensors, {{"k", "v"}}), json);
  const std::string got = read_bytes(path);
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_EQ(got, expected);
  // The header length field is the padded length, and it is a multiple of 8.
  std::uint64_t n = 0;
  std::memcpy(&n, got.data(), 8);
  EXPECT_EQ(n, header.size());
}

TEST_F(Safetensors, RejectsMalformedFiles) {
  const std::string w = "weights.layer0";
  auto one = [&](const std::string& dtype, const std::string& shape, const std::string& offsets) {
    return R"({")" + w + R"(":{"dtype":")" + dtype + R"(","shape":)" + shape + R"(,"data_offsets":)" + offsets + "}}";
  };
  expect_rejected("", {"shorter than"});
  expect_rejected("abc", {"shorter than"});
  expect_rejected(le64(1000) + "{}", {"runs past the end"});
  expect_rejected(le64(1ull << 40) + "{}", {"limit"});
  expect_rejected(le64(~0ull) + "{}", {"limit"});
  expect_rejected(raw_file("{not json", 0), {"not valid JSON"});
  expect_rejected(raw_file("[1,2]", 0), {"not an object"});
  expect_rejected(raw_file(std::string(100, '[') + std::string(100, ']'), 0), {"nested too deeply"});
  expect_rejected(raw_file(R"({"__metadata__":{"k":1}})", 0), {"__metadata__", "k"});
  expect_rejected(raw_file(R"({"__metadata__":[]})", 0), {"__metadata__"});
  expect_rejected(raw_file(R"({")" + w + R"(":[]})", 0), {w, "not a JSON object"});
  expect_rejected(raw_file(one("F8_E9", "[1]", "[0,1]"), 1), {w, "unknown dtype"});
  expect_rejected(raw_file(R"({")" + w + R"(":{"shape":[1],"data_offsets":[0,4]}})", 4), {w, "dtype"});
  expect_rejected(raw_file(R"({")" + w + R"(":{"dtype":"F32","data_offsets":[0,4]}})", 4), {w, "shape"});
  expect_rejected(raw_file(R"({")" + w + R"(":{"dtype":"F32","shape":[1]}})", 4), {w, "data_offsets"});
  expect_rejected(raw_file(R"({")" + w + R"(":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}})", 4),
                  {w, "unexpected header field"});
  // data_offsets: not two increasing non-negative integers
  for (const std::string offsets : {"[0]", "[0,4,8]", "4", R"([0,"4"])", "[-1,3]", "[0,4.5]", "[8,4]", "[0,null]"})
    expect_rejected(raw_file(one("F32", "[1]", offsets), 8), {w, "data_offsets"});
  // outside the data area
  expect_rejected(raw_file(one("F32", "[2]", "[0,8]"), 4), {w, "past the data area"});
  expect_rejected(raw_file(one("F32", "[1]", "[18446744073709551612,18446744073709551615]"), 4), {w, "data_offsets"});
  // byte size != numel * element size
  expect_rejected(raw_file(one("F32", "[2]", "[0,4]"), 4), {w, "needs 8"});
  expect_rejected(raw_file(one("F16", "[3,1]", "[0,4]"), 4), {w, "needs 6"});
  // negative / non-integer / huge shapes
  expect_rejected(raw_file(one("F32", "[-1]", "[0,4]"), 4), {w, "shape"});
  expect_rejected(raw_file(one("F32", "[1.5]", "[0,4]"), 4), {w, "shape"});
  expect_rejected(raw_file(one("F32", "[\"2\"]", "[0,4]"), 4), {w, "shape"});
  expect_rejected(raw_file(one("F32", "[4294967296,4294967296,16]", "[0,4]"), 4), {w, "64 bits"});
  expect_rejected(raw_file(one("F32", "[4611686018427387904]", "[0,4]"), 4), {w, "too large"});
  expect_rejected(raw_file(one("F32", "[0,4294967296,4294967296]", "[0,0]"), 0), {w, "64 bits"});
  expect_rejected(raw_file(one("F32", "[18446744073709551615]", "[0,4]"), 4), {w, "huge"});
  expect_rejected(raw_file(one("F32", "[1" + [] { std::string s; for (int i = 0; i < 64; ++i) s += ",1"; return s; }() + "]", "[0,4]"), 4),
                  {w, "shape"});
  // overlapping, holes, trailing bytes
  expect_rejected(raw_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                           R"(")" + w + R"(":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}})", 6),
                  {w, "overlaps", "'a'"});
  expect_rejected(raw_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                           R"(")" + w + R"(":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})", 12),
                  {w, "hole"});
  expect_rejected(raw_file(one("F32", "[1]", "[0,4]"), 12), {w, "cover 4"});
  // duplicate names
  expect_rejected(raw_file(R"({")" + w + R"(":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                           R"(")" + w + R"(":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8),
                  {w, "more than once"});
  // Not a file at all.
  EXPECT_THROW(read_safetensors(file("missing.safetensors")), Error);
  EXPECT_THROW(read_safetensors(dir_.string()), Error);
}

TEST_F(Safetensors, RejectsTensorsItCannotWrite) {
  EXPECT_THROW(write_safetensors(file("x.safetensors"), {{"__metadata__", torch::ones({1})}}), Error);
  EXPECT_THROW(write_safetensors(file("x.safetensors"), {{"c", torch::ones({1}, torch::kComplexFloat)}}), Error);
  EXPECT_THROW(write_safetensors(file("x.safetensors"), {{"u", torch::Tensor()}}), Error);
  EXPECT_THROW(write_safetensors(file("no/such/dir/x.safetensors"), {{"a", torch::ones({1})}}), Error);
  EXPECT_FALSE(fs::exists(file("x.safetensors")));
}

TEST_F(Safetensors, RandomMutationsLoadOrThrowFalconError) {
  const std::string good = file("good.safetensors");
  write_safetensors(good,
                    {{"emb", torch::randn({3, 2})},
                     {"h", torch::randn({2}).to(torch::kFloat16)},
                     {"s", torch::tensor(2.0f).to(torch::kBFloat16)},
                     {"mask", torch::tensor({true, false})}},
                    {{"k", "v"}});
  const std::string base = read_bytes(good);
  std::uint64_t header_len = 0;
  std::memcpy(&header_len, base.data(), 8);
  const std::string alphabet = "{}[]\",:0123456789-.eE \\FIUBL_";
  std::mt19937_64 rng(12345);
  const std::string path = file("fuzz.safetensors");
  int loaded = 0, rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string bytes = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const auto kind = rng() % 6;
      if (bytes.empty()) break;
      // Mostly within the length field and header, where the structure lives.
      const std::size_t pos = rng() % 4 != 0 ? rng() % std::min<std::size_t>(bytes.size(), 8 + header_len)
                                             : rng() % bytes.size();
      if (kind == 0) bytes[pos] = static_cast<char>(rng());
      else if (kind == 1) bytes[pos] = alphabet[rng() % alphabet.size()];
      else if (kind == 2) bytes.erase(pos, 1 + rng() % 4);
      else if (kind == 3) bytes.insert(pos, 1, alphabet[rng() % alphabet.size()]);
      else if (kind == 4) bytes.resize(rng() % (bytes.size() + 1));
      else bytes[rng() % std::min<std::size_t>(bytes.size(), 8)] ^= static_cast<char>(1u << (rng() % 8));
    }
    write_bytes(path, bytes);
    try {
      const TensorMap t = read_safetensors(path);
      for (const auto& [name, v] : t) (void)v.sum().item<double>();  // touch every loaded byte
      ++loaded;
    } catch (const Error&) {
      ++rejected;
    } catch (const std::exception& e) {
      FAIL() << "iteration " << iter << ": non-falcon exception: " << e.what();
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(loaded, 0);  // e.g. mutations inside the data area or header padding
}

}  // namespace
}  // namespace falcon::model
