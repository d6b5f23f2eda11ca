#pragma once
// Thin helpers over the HDF5 C++ API for the dataset writer and reader: 1-D extendible,
// checksummed datasets, slices, and scalar attributes. Every HDF5 failure becomes a falcon::Error
// whose text carries the innermost message of HDF5's error stack (e.g. "truncated file" or
// "data error detected by Fletcher32 checksum") instead of HDF5's own multi-line dump.
#include <H5Cpp.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace falcon::data::h5 {

// Turns off HDF5's automatic printing of error stacks (idempotent, thread-compatible).
void quiet();

// Runs `f`; an H5::Exception becomes falcon::Error("<context>: <innermost HDF5 message>").
void guard(const std::string& context, const std::function<void()>& f);

// File and memory types for the element types the schema uses.
template <class T>
struct Type;
template <> struct Type<std::int32_t> { static H5::PredType file() { return H5::PredType::STD_I32LE; } static H5::PredType mem() { return H5::PredType::NATIVE_INT32; } };
template <> struct Type<std::int64_t> { static H5::PredType file() { return H5::PredType::STD_I64LE; } static H5::PredType mem() { return H5::PredType::NATIVE_INT64; } };
template <> struct Type<std::uint64_t> { static H5::PredType file() { return H5::PredType::STD_U64LE; } static H5::PredType mem() { return H5::PredType::NATIVE_UINT64; } };
template <> struct Type<std::uint8_t> { static H5::PredType file() { return H5::PredType::STD_U8LE; } static H5::PredType mem() { return H5::PredType::NATIVE_UINT8; } };
template <> struct Type<double> { static H5::PredType file() { return H5::PredType::IEEE_F64LE; } static H5::PredType mem() { return H5::PredType::NATIVE_DOUBLE; } };

// A 1-D dataset that grows by appending: chunked, shuffle + deflate, Fletcher-32 checksums (so a
// corrupted chunk is an error on read, never silently wrong data).
class Column {
 public:
  template <class T>
  static Column create(H5::Group& group, const std::string& name, hsize_t chunk) {
    return Column(group, name, Type<T>::file(), chunk);
  }
  template <class T>
  void append(const std::vector<T>& values) {
    append_raw(values.data(), values.size(), Type<T>::mem());
  }
  hsize_t size() const { return size_; }

 private:
  Column(H5::Group& group, const std::string& name, const H5::PredType& file_type, hsize_t chunk);
  void append_raw(const void* data, hsize_t count, const H5::PredType& mem_type);

  H5::DataSet dataset_;
  std::string name_;
  hsize_t size_ = 0;
};

hsize_t length(const H5::DataSet& dataset);  // throws unless the dataset is 1-D

// Elements [begin, end) of a 1-D dataset; `what` names it in errors.
template <class T>
std::vector<T> read_slice(const H5::DataSet& dataset, hsize_t begin, hsize_t end, const std::string& what);
template <class T>
std::vector<T> read_all(const H5::DataSet& dataset, const std::string& what) {
  return read_slice<T>(dataset, 0, length(dataset), what);
}

void write_string_attr(H5::H5Object& object, const std::string& name, const std::string& value);
void write_int_attr(H5::H5Object& object, const std::string& name, std::int64_t value);
// std::nullopt when the attribute is absent; throws when it has another type.
std::optional<std::string> read_string_attr(const H5::H5Object& object, const std::string& name);
std::optional<std::int64_t> read_int_attr(const H5::H5Object& object, const std::string& name);

}  // namespace falcon::data::h5
