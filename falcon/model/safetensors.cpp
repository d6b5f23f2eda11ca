#include "falcon/model/safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "falcon/core/error.h"
#include "falcon/core/safetensors_header.h"

namespace falcon::model {
namespace {

using nlohmann::json;

Error file_error(const std::string& path, const std::string& what) { return safetensors_file_error(path, what); }
Error tensor_error(const std::string& path, const std::string& tensor, const std::string& what) {
  return safetensors_tensor_error(path, tensor, what);
}

// The LibTorch type of each safetensors dtype (safetensors_dtypes() lists the names and sizes).
struct DtypeInfo {
  const char* name;
  torch::ScalarType type;
};

constexpr DtypeInfo kDtypes[] = {
    {"F64", torch::kFloat64}, {"F32", torch::kFloat32}, {"F16", torch::kFloat16}, {"BF16", torch::kBFloat16},
    {"I64", torch::kInt64},   {"I32", torch::kInt32},   {"I16", torch::kInt16},   {"I8", torch::kInt8},
    {"U8", torch::kUInt8},    {"BOOL", torch::kBool},
};

const DtypeInfo* dtype_by_type(torch::ScalarType type) {
  for (const auto& d : kDtypes)
    if (type == d.type) return &d;
  return nullptr;
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

const DtypeInfo& dtype_info(const SafetensorsDtype& dtype) {
  for (const auto& d : kDtypes)
    if (std::string_view(dtype.name) == d.name) return d;
  throw Error(std::string("safetensors: no LibTorch type for dtype ") + dtype.name);
}

SafetensorsHeader parse_header(const std::string& path, const MappedFile& file) {
  return parse_safetensors_header(file.data(), file.size(), path);
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
  const SafetensorsHeader h = parse_header(path, file);
  TensorMap out;
  for (const auto& e : h.entries) {
    // Copied out: the tensor owns aligned memory and outlives the mapping (offsets need not be
    // aligned to the element size, and a mapped tensor would keep the file open and read-only).
    const torch::ScalarType type = dtype_info(*e.dtype).type;
    const auto load_type = type == torch::kBool ? torch::kUInt8 : type;
    torch::Tensor t;
    try {
      t = torch::empty(e.shape, torch::TensorOptions().dtype(load_type));
    } catch (const std::exception& ex) {  // c10::Error, std::bad_alloc
      throw tensor_error(path, e.name, std::string("cannot allocate: ") + ex.what());
    }
    if (e.end > e.begin) std::memcpy(t.data_ptr(), file.data() + h.data_start + e.begin, e.end - e.begin);
    if (type == torch::kBool) t = t.ne(0);  // bytes other than 0/1 are not valid bools
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
                  " (supported: " + safetensors_dtype_names() + ")");
    const std::uint64_t nbytes = static_cast<std::uint64_t>(t.numel()) * static_cast<std::uint64_t>(t.element_size());
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
