#include "falcon/data/h5_io.h"

#include <mutex>

#include "falcon/core/error.h"

namespace falcon::data::h5 {
namespace {

// Collects the most specific message of the current HDF5 error stack (the first one walking
// upward, from the failing internal function toward the API call).
herr_t collect(unsigned n, const H5E_error2_t* err, void* data) {
  auto* out = static_cast<std::string*>(data);
  if (n == 0 && err->desc != nullptr) *out = err->desc;
  return 0;
}

// Must run before any other HDF5 call: the next call (a destructor's H5Sclose too) clears the stack.
std::string current_error() {
  std::string detail;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect, &detail);
  return detail;
}

std::string innermost_message(const H5::Exception& e) {
  std::string detail = current_error();
  if (detail.empty()) detail = e.getDetailMsg();
  return detail;
}

}  // namespace

void quiet() {
  static std::once_flag once;
  std::call_once(once, [] {
    H5::Exception::dontPrint();
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  });
}

void guard(const std::string& context, const std::function<void()>& f) {
  quiet();
  try {
    f();
  } catch (const H5::Exception& e) {
    throw Error(context + ": " + innermost_message(e));
  }
}

Column::Column(H5::Group& group, const std::string& name, const H5::PredType& file_type, hsize_t chunk) : name_(name) {
  const hsize_t dims[1] = {0};
  const hsize_t max_dims[1] = {H5S_UNLIMITED};
  H5::DataSpace space(1, dims, max_dims);
  H5::DSetCreatPropList props;
  const hsize_t chunk_dims[1] = {chunk};
  props.setChunk(1, chunk_dims);
  props.setShuffle();
  props.setDeflate(4);
  props.setFletcher32();  // added last: verified first on read, before decompression
  dataset_ = group.createDataSet(name, file_type, space, props);
}

void Column::append_raw(const void* data, hsize_t count, const H5::PredType& mem_type) {
  if (count == 0) return;
  const hsize_t new_size[1] = {size_ + count};
  dataset_.extend(new_size);
  H5::DataSpace file_space = dataset_.getSpace();
  const hsize_t start[1] = {size_};
  const hsize_t counts[1] = {count};
  file_space.selectHyperslab(H5S_SELECT_SET, counts, start);
  H5::DataSpace mem_space(1, counts);
  dataset_.write(data, mem_type, mem_space, file_space);
  size_ += count;
}

hsize_t length(const H5::DataSet& dataset) {
  const H5::DataSpace space = dataset.getSpace();
  if (space.getSimpleExtentNdims() != 1) throw Error("expected a 1-D dataset");
  hsize_t dims[1] = {0};
  space.getSimpleExtentDims(dims);
  return dims[0];
}

template <class T>
std::vector<T> read_slice(const H5::DataSet& dataset, hsize_t begin, hsize_t end, const std::string& what) {
  std::vector<T> out;
  guard(what, [&] {
    if (dataset.getTypeClass() != Type<T>::file().getClass()) throw Error(what + ": unexpected element type");
    const hsize_t size = length(dataset);
    if (begin > end || end > size) {
      throw Error(what + ": elements [" + std::to_string(begin) + ", " + std::to_string(end) + ") are outside its " +
                  std::to_string(size) + " elements");
    }
    out.resize(end - begin);
    if (out.empty()) return;
    H5::DataSpace file_space = dataset.getSpace();
    const hsize_t start[1] = {begin};
    const hsize_t count[1] = {end - begin};
    file_space.selectHyperslab(H5S_SELECT_SET, count, start);
    H5::DataSpace mem_space(1, count);
    // The C call, so that the cause (e.g. a checksum error) is read before the DataSpace
    // destructors clear HDF5's error stack.
    const H5::PredType mem_type = Type<T>::mem();  // not a temporary: its destructor would clear the stack too
    if (H5Dread(dataset.getId(), mem_type.getId(), mem_space.getId(), file_space.getId(), H5P_DEFAULT, out.data()) < 0) {
      const std::string cause = current_error();
      throw Error(what + ": " + (cause.empty() ? "cannot read" : cause));
    }
  });
  return out;
}

template std::vector<std::int32_t> read_slice(const H5::DataSet&, hsize_t, hsize_t, const std::string&);
template std::vector<std::int64_t> read_slice(const H5::DataSet&, hsize_t, hsize_t, const std::string&);
template std::vector<std::uint64_t> read_slice(const H5::DataSet&, hsize_t, hsize_t, const std::string&);
template std::vector<std::uint8_t> read_slice(const H5::DataSet&, hsize_t, hsize_t, const std::string&);
template std::vector<double> read_slice(const H5::DataSet&, hsize_t, hsize_t, const std::string&);

void write_string_attr(H5::H5Object& object, const std::string& name, const std::string& value) {
  const H5::StrType type(H5::PredType::C_S1, H5T_VARIABLE);
  type.setCset(H5T_CSET_UTF8);  // h5py reads it as str
  H5::Attribute attr = object.createAttribute(name, type, H5::DataSpace(H5S_SCALAR));
  attr.write(type, value);
}

void write_int_attr(H5::H5Object& object, const std::string& name, std::int64_t value) {
  H5::Attribute attr = object.createAttribute(name, H5::PredType::STD_I64LE, H5::DataSpace(H5S_SCALAR));
  attr.write(H5::PredType::NATIVE_INT64, &value);
}

std::optional<std::string> read_string_attr(const H5::H5Object& object, const std::string& name) {
  if (!object.attrExists(name)) return std::nullopt;
  const H5::Attribute attr = object.openAttribute(name);
  if (attr.getTypeClass() != H5T_STRING) throw Error("attribute '" + name + "' is not a string");
  std::string value;
  attr.read(attr.getStrType(), value);
  return value;
}

std::optional<std::int64_t> read_int_attr(const H5::H5Object& object, const std::string& name) {
  if (!object.attrExists(name)) return std::nullopt;
  const H5::Attribute attr = object.openAttribute(name);
  if (attr.getTypeClass() != H5T_INTEGER) throw Error("attribute '" + name + "' is not an integer");
  std::int64_t value = 0;
  attr.read(H5::PredType::NATIVE_INT64, &value);
  return value;
}

}  // namespace falcon::data::h5
