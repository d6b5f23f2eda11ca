#include "falcon/model/safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "falcon/core/error.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors data is little-endian; this reader copies bytes as-is and needs a little-endian host"
#endif

namespace falcon::model {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxRank = 64;
constexpr int kMaxJsonDepth = 16;  // the format needs 3; deep nesting would recurse in json's destructor

struct DtypeInfo {
  const char* name;
  torch::ScalarType type;
  std::uint64_t size;
};

constexpr DtypeInfo kDtypes[] = {
    {"F64", torch::kFloat64, 8}, {"F32", torch::kFloat32, 4}, {"F16", torch::kFloat16, 2},
    {"BF16", torch::kBFloat16, 2}, {"I64", torch::kInt64, 8}, {"I32", torch::kInt32, 4},
    {"I16", torch::kInt16, 2},     {"I8", torch::kInt8, 1},     {"U8", torch::kUInt8, 1},
    {"BOOL", torch::kBool, 1},
};

const DtypeInfo* dtype_by_name(const std::string& name) {
  for (const auto& d : kDtypes)
    if (name == d.name) return &d;
  return nullptr;
}

const DtypeInfo* dtype_by_type(torch::ScalarType type) {
  for (const auto& d : kDtypes)
    if (type == d.type) return &d;
  return nullptr;
}

std::string supported_dtypes() {
  std::string s;
  for (const auto& d : kDtypes) s += std::string(s.empty() ? "" : " ") + d.name;
  return s;
}

Error file_error(const std::string& path, const std::string& what) {
  return Error("safetensors file '" + path + "': " + what);
}

Error tensor_error(const std::string& path, const std::string& tensor, const std::string& what) {
  return Error("safetensors file '" + path + "': tensor '" + tensor + "': " + what);
}

// Read-only mapping of a whole file, unmapped on scope exit.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) : path_(path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw file_error(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      const int e = errno;
      ::close(fd);
      throw file_error(path, std::string("cannot stat: ") + std::strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      throw file_error(path, "not a regular file");
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        const int e = errno;
        ::close(fd);
        throw file_error(path, std::string("cannot mmap: ") + std::strerror(e));
      }
      data_ = static_cast<const unsigned char*>(p);
    }
    ::close(fd);  // the mapping stays valid
  }
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const unsigned char* data() const { return data_; }
  std::uint64_t size() const { return size_; }

 private:
  std::string path_;
  const unsigned char* data_ = nullptr;
  std::uint64_t size_ = 0;
};

struct Entry {
  std::string name;
  const DtypeInfo* dtype;
  std::vector<std::int64_t> shape;
  std::uint64_t begin, end;  // relative to the data area
};

struct Header {
  std::vector<Entry> entries;  // sorted by name
  Metadata metadata;
  std::uint64_t data_start = 0;  // absolute offset of the data area
};

// Rejects JSON nested deeper than kMaxJsonDepth (a cheap scan that skips strings).
void check_nesting(const std::string& path, const char* text, std::size_t n) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) throw file_error(path, "header JSON is nested too deeply");
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
}

std::uint64_t get_u64(const json& v, bool& ok) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(v.get<std::int64_t>());
  ok = false;
  return 0;
}

Entry parse_entry(const std::string& path, const std::string& name, const json& v, std::uint64_t data_size) {
  if (!v.is_object()) throw tensor_error(path, name, "header entry is not a JSON object");
  for (const auto& [key, _] : v.items())
    if (key != "dtype" && key != "shape" && key != "data_offsets")
      throw tensor_error(path, name, "unexpected header field '" + key + "'");
  Entry e;
  e.name = name;

  const auto dt = v.find("dtype");
  if (dt == v.end() || !dt->is_string()) throw tensor_error(path, name, "missing or non-string \"dtype\"");
  e.dtype = dtype_by_name(dt->get<std::string>());
  if (e.dtype == nullptr)
    throw tensor_error(path, name, "unknown dtype '" + dt->get<std::string>() + "' (supported: " + supported_dtypes() + ")");

  const auto sh = v.find("shape");
  if (sh == v.end() || !sh->is_array()) throw tensor_error(path, name, "missing or non-array \"shape\"");
  if (sh->size() > kMaxRank) throw tensor_error(path, name, "shape has more than " + std::to_string(kMaxRank) + " dimensions");
  // Strides are products of max(dim, 1), so those must fit in int64 even when a dimension is 0.
  std::uint64_t span = 1;
  bool empty = false;
  for (const auto& d : *sh) {
    bool ok = true;
    const std::uint64_t dim = get_u64(d, ok);
    if (!ok) throw tensor_error(path, name, "shape " + sh->dump() + " has a dimension that is not a non-negative integer");
    if (dim > static_cast<std::uint64_t>(INT64_MAX)) throw tensor_error(path, name, "shape " + sh->dump() + " has a huge dimension");
    e.shape.push_back(static_cast<std::int64_t>(dim));
    empty = empty || dim == 0;
    if (__builtin_mul_overflow(span, std::max<std::uint64_t>(dim, 1), &span) || span > static_cast<std::uint64_t>(INT64_MAX))
      throw tensor_error(path, name, "shape " + sh->dump() + " has more elements than fit in 64 bits");
  }
  const std::uint64_t numel = empty ? 0 : span;
  std::uint64_t nbytes = 0;
  if (__builtin_mul_overflow(numel, e.dtype->size, &nbytes))
    throw tensor_error(path, name, "shape " + sh->dump() + " is too large in bytes");

  const auto off = v.find("data_offsets");
  if (off == v.end() || !off->is_array() || off->size() != 2)
    throw tensor_error(path, name, "\"data_offsets\" must be an array of two integers");
  bool ok = true;
  e.begin = get_u64((*off)[0], ok);
  e.end = get_u64((*off)[1], ok);
  if (!ok) throw tensor_error(path, name, "\"data_offsets\" " + off->dump() + " are not two non-negative integers");
  if (e.begin > e.end) throw tensor_error(path, name, "\"data_offsets\" " + off->dump() + " are decreasing");
  if (e.end > data_size)
    throw tensor_error(path, name, "\"data_offsets\" " + off->dump() + " run past the data area (" +
                                       std::to_string(data_size) + " bytes)");
  if (e.end - e.begin != nbytes)
    throw tensor_error(path, name, "\"data_offsets\" " + off->dump() + " span " + std::to_string(e.end - e.begin) +
                                       " bytes but shape " + sh->dump() + " of " + e.dtype->name + " needs " +
                                       std::to_string(nbytes));
  return e;
}

Header parse_header(const std::string& path, const MappedFile& file) {
  if (file.size() < 8)
    throw file_error(path, "file is " + std::to_string(file.size()) + " bytes, shorter than the 8-byte header length");
  std::uint64_t n = 0;
  std::memcpy(&n, file.data(), 8);  // little-endian host (checked at compile time)
  if (n > kMaxSafetensorsHeaderBytes)
    throw file_error(path, "header length " + std::to_string(n) + " exceeds the " +
                               std::to_string(kMaxSafetensorsHeaderBytes) + "-byte limit");
  if (n > file.size() - 8)
    throw file_error(path, "header length " + std::to_string(n) + " runs past the end of the " +
                               std::to_string(file.size()) + "-byte file");
  const char* text = reinterpret_cast<const char*>(file.data() + 8);
  check_nesting(path, text, n);

  // nlohmann::json keeps the last of duplicate keys silently; collect top-level keys to see them.
  std::set<std::string> seen;
  std::string duplicate;
  const json::parser_callback_t cb = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key && depth == 1 && parsed.is_string()) {
      const auto& key = parsed.get_ref<const std::string&>();
      if (!seen.insert(key).second && duplicate.empty()) duplicate = key;
    }
    return true;
  };
  json header = json::parse(text, text + n, cb, /*allow_exceptions=*/false);
  if (header.is_discarded()) throw file_error(path, "header is not valid JSON");
  if (!header.is_object()) throw file_error(path, "header JSON is not an object");
  if (!duplicate.empty()) throw tensor_error(path, duplicate, "name appears more than once in the header");

  Header h;
  h.data_start = 8 + n;
  const std::uint64_t data_size = file.size() - h.data_start;
  for (const auto& [name, v] : header.items()) {
    if (name == "__metadata__") {
      if (!v.is_object()) throw file_error(path, "\"__metadata__\" is not a JSON object");
      for (const auto& [k, s] : v.items()) {
        if (!s.is_string()) throw file_error(path, "\"__metadata__\" value for '" + k + "' is not a string");
        h.metadata.emplace(k, s.get<std::string>());
      }
      continue;
    }
    h.entries.push_back(parse_entry(path, name, v, data_size));
  }

  // The data area must be covered exactly: no overlaps, no holes, nothing trailing (as the spec says).
  std::vector<const Entry*> by_offset;
  for (const auto& e : h.entries) by_offset.push_back(&e);
  std::sort(by_offset.begin(), by_offset.end(), [](const Entry* a, const Entry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  std::uint64_t cursor = 0;
  const Entry* prev = nullptr;
  for (const Entry* e : by_offset) {
    if (e->begin < cursor)
      throw tensor_error(path, e->name, "data [" + std::to_string(e->begin) + ", " + std::to_string(e->end) +
                                            ") overlaps tensor '" + prev->name + "'");
    if (e->begin > cursor)
      throw tensor_error(path, e->name, "data starts at " + std::to_string(e->begin) + " leaving a hole after byte " +
                                            std::to_string(cursor) + " of the data area");
    cursor = e->end;
    prev = e;
  }
  if (cursor != data_size)
    throw file_error(path, "data area is " + std::to_string(data_size) + " bytes but the tensors cover " +
                               std::to_string(cursor) + (prev ? " (last: '" + prev->name + "')" : std::string()));
  return h;
}

void write_all(int fd, const void* data, std::size_t n, const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw file_error(path, std::string("write failed: ") + std::strerror(errno));
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

}  // namespace

TensorMap read_safetensors(const std::string& path) {
  const MappedFile file(path);
  const Header h = parse_header(path, file);
  TensorMap out;
  for (const auto& e : h.entries) {
    // Copied out: the tensor owns aligned memory and outlives the mapping (offsets need not be
    // aligned to the element size, and a mapped tensor would keep the file open and read-only).
    const auto load_type = e.dtype->type == torch::kBool ? torch::kUInt8 : e.dtype->type;
    torch::Tensor t;
    try {
      t = torch::empty(e.shape, torch::TensorOptions().dtype(load_type));
    } catch (const std::exception& ex) {  // c10::Error, std::bad_alloc
      throw tensor_error(path, e.name, std::string("cannot allocate: ") + ex.what());
    }
    if (e.end > e.begin) std::memcpy(t.data_ptr(), file.data() + h.data_start + e.begin, e.end - e.begin);
    if (e.dtype->type == torch::kBool) t = t.ne(0);  // bytes other than 0/1 are not valid bools
    out.emplace(e.name, std::move(t));
  }
  return out;
}

Metadata read_safetensors_metadata(const std::string& path) {
  const MappedFile file(path);
  return parse_header(path, file).metadata;
}

std::string safetensors_header_json(const TensorMap& tensors, const Metadata& metadata) {
  json header = json::object();
  if (!metadata.empty()) {
    json m = json::object();
    for (const auto& [k, v] : metadata) m[k] = v;
    header["__metadata__"] = m;
  }
  std::uint64_t offset = 0;
  for (const auto& [name, t] : tensors) {
    if (name == "__metadata__") throw Error("safetensors: '__metadata__' is reserved and cannot name a tensor");
    if (!t.defined()) throw Error("safetensors: tensor '" + name + "' is undefined");
    const DtypeInfo* d = dtype_by_type(t.scalar_type());
    if (d == nullptr)
      throw Error("safetensors: tensor '" + name + "' has unsupported dtype " + std::string(c10::toString(t.scalar_type())) +
                  " (supported: " + supported_dtypes() + ")");
    const std::uint64_t nbytes = static_cast<std::uint64_t>(t.numel()) * d->size;
    header[name] = {{"dtype", d->name}, {"shape", t.sizes().vec()}, {"data_offsets", {offset, offset + nbytes}}};
    offset += nbytes;
  }
  return header.dump();
}

void write_safetensors(const std::string& path, const TensorMap& tensors, const Metadata& metadata) {
  for (const auto& [name, t] : tensors)
    if (t.defined() && !t.device().is_cpu())
      throw Error("safetensors: tensor '" + name + "' is on " + t.device().str() + "; move it to the CPU before writing '" +
                  path + "'");
  std::string header = safetensors_header_json(tensors, metadata);
  header.append((8 - header.size() % 8) % 8, ' ');
  const std::uint64_t n = header.size();

  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw file_error(path, std::string("cannot create temporary file: ") + std::strerror(errno));
  try {
    ::fchmod(fd, 0644);
    unsigned char len[8];
    std::memcpy(len, &n, 8);  // little-endian host
    write_all(fd, len, 8, path);
    write_all(fd, header.data(), header.size(), path);
    for (const auto& [name, t] : tensors) {
      const torch::Tensor c = t.contiguous();
      write_all(fd, c.data_ptr(), static_cast<std::size_t>(c.numel()) * c.element_size(), path);
    }
    if (::fsync(fd) != 0) throw file_error(path, std::string("fsync failed: ") + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw file_error(path, std::string("close failed: ") + std::strerror(e));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw file_error(path, std::string("cannot rename temporary file into place: ") + std::strerror(e));
  }
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);  // make the rename durable
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace falcon::model
