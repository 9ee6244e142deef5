#include "h5.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cartex/core/error.hpp"

namespace cartex::io::h5 {

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    close();
    id_ = o.id_;
    o.id_ = H5I_INVALID_HID;
  }
  return *this;
}

namespace {

herr_t close_id(hid_t id) {
  switch (H5Iget_type(id)) {
    case H5I_FILE: return H5Fclose(id);
    case H5I_GROUP: return H5Gclose(id);
    case H5I_DATASET: return H5Dclose(id);
    case H5I_DATASPACE: return H5Sclose(id);
    case H5I_DATATYPE: return H5Tclose(id);
    case H5I_ATTR: return H5Aclose(id);
    case H5I_GENPROP_LST: return H5Pclose(id);
    default: return -1;
  }
}

}  // namespace

void Handle::close() noexcept {
  if (id_ >= 0) close_id(id_);
  id_ = H5I_INVALID_HID;
}

void Handle::close_checked(const std::string& what) {
  const hid_t id = id_;
  id_ = H5I_INVALID_HID;
  if (id >= 0 && close_id(id) < 0) throw core::Error(fmt::format("HDF5: {}", what));
}

void silence_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

hid_t check(hid_t status, const std::string& what) {
  if (status < 0) throw core::Error(fmt::format("HDF5: {}", what));
  return status;
}

namespace {

// No cartex attribute holds more numbers (grid vectors hold 3); a damaged dataspace may claim billions.
constexpr hsize_t kMaxAttrPoints = 64;
// Nor a longer string than this (input_yaml is the longest, a few kilobytes).
constexpr size_t kMaxStringBytes = size_t(1) << 24;

// Creates attribute `name` of `type` and shape `n` (0 = scalar) on `obj` and writes `data`.
void write_raw(hid_t obj, const std::string& name, hid_t type, hsize_t n, const void* data) {
  Handle space(check(n == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), "H5Screate for " + name));
  Handle attr(check(H5Acreate2(obj, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), "H5Acreate " + name));
  check(H5Awrite(attr.get(), type, data), "H5Awrite " + name);
}

// A fixed-length, null-terminated UTF-8 string type of `size` bytes (the terminator included): its
// value lives in the attribute message, inside the checksummed object header, not in the global
// heap that variable-length strings use (unchecked, and HDF5 1.10 crashes reading a damaged one).
Handle fixed_string_type(size_t size) {
  Handle t(check(H5Tcopy(H5T_C_S1), "H5Tcopy"));
  check(H5Tset_size(t.get(), size), "H5Tset_size");
  check(H5Tset_strpad(t.get(), H5T_STR_NULLTERM), "H5Tset_strpad");
  check(H5Tset_cset(t.get(), H5T_CSET_UTF8), "H5Tset_cset");
  return t;
}

// Opens attribute `name` if present with a simple dataspace of `n` points (0 = scalar).
Handle open_attr(hid_t obj, const std::string& name, hsize_t& n) {
  if (H5Aexists(obj, name.c_str()) <= 0) return Handle();
  Handle attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT));
  if (!attr.valid()) return Handle();
  Handle space(H5Aget_space(attr.get()));
  if (!space.valid() || H5Sget_simple_extent_type(space.get()) == H5S_NULL) return Handle();
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || rank > 1) return Handle();
  n = 0;
  if (rank == 1 && H5Sget_simple_extent_dims(space.get(), &n, nullptr) < 0) return Handle();
  return attr;
}

// The attribute's file type if it is of class `cls`, its element size is 1 to `max_size` bytes and
// the stored value is exactly `points` elements of it: a damaged header cannot size a read buffer.
Handle checked_type(hid_t attr, H5T_class_t cls, size_t max_size, hsize_t points) {
  Handle type(H5Aget_type(attr));
  if (!type.valid() || H5Tget_class(type.get()) != cls) return Handle();
  const size_t size = H5Tget_size(type.get());
  if (size == 0 || size > max_size || H5Aget_storage_size(attr) != points * size) return Handle();
  return type;
}

template <class T>
bool read_numbers(hid_t obj, const std::string& name, hid_t mem_type, H5T_class_t cls, std::vector<T>& value, bool scalar) {
  hsize_t n = 0;
  Handle attr = open_attr(obj, name, n);
  if (!attr.valid() || scalar != (n == 0) || n > kMaxAttrPoints) return false;
  const hsize_t points = scalar ? 1 : n;
  if (!checked_type(attr.get(), cls, sizeof(T), points).valid()) return false;
  value.assign(points, T{});
  return H5Aread(attr.get(), mem_type, value.data()) >= 0;
}

// A fixed-length string (what cartex writes): read into a buffer of the checked stored size, up to
// the first null byte.
bool read_fixed_string(hid_t attr, std::string& value) {
  Handle type = checked_type(attr, H5T_STRING, kMaxStringBytes, 1);
  if (!type.valid()) return false;
  std::vector<char> buf(H5Tget_size(type.get()));
  if (H5Aread(attr, type.get(), buf.data()) < 0) return false;
  value.assign(buf.data(), std::find(buf.begin(), buf.end(), '\0') - buf.begin());
  return true;
}

// A variable-length string, as cartex wrote before fixed-length strings (and h5py writes a Python
// str). Its bytes live in the global heap, which has no checksum: a damaged heap can still crash
// HDF5 1.10's read here, which is why cartex no longer writes such strings.
bool read_variable_string(hid_t attr, hid_t file_type, std::string& value) {
  Handle mem(H5Tcopy(file_type));
  char* p = nullptr;
  if (!mem.valid() || H5Aread(attr, mem.get(), &p) < 0 || p == nullptr) return false;
  value = p;
  H5free_memory(p);
  return true;
}

}  // namespace

void write_attr(hid_t obj, const std::string& name, const std::string& value) {
  Handle t = fixed_string_type(value.size() + 1);
  write_raw(obj, name, t.get(), 0, value.c_str());
}

void write_attr(hid_t obj, const std::string& name, long value) { write_raw(obj, name, H5T_NATIVE_LONG, 0, &value); }

void write_attr(hid_t obj, const std::string& name, double value) { write_raw(obj, name, H5T_NATIVE_DOUBLE, 0, &value); }

void write_attr(hid_t obj, const std::string& name, const std::vector<long>& value) {
  write_raw(obj, name, H5T_NATIVE_LONG, value.size(), value.data());
}

void write_attr(hid_t obj, const std::string& name, const std::vector<double>& value) {
  write_raw(obj, name, H5T_NATIVE_DOUBLE, value.size(), value.data());
}

bool read_attr(hid_t obj, const std::string& name, std::string& value) {
  hsize_t n = 0;
  Handle attr = open_attr(obj, name, n);
  if (!attr.valid() || n != 0) return false;
  Handle type(H5Aget_type(attr.get()));
  if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING) return false;
  const htri_t variable = H5Tis_variable_str(type.get());
  if (variable < 0) return false;
  return variable ? read_variable_string(attr.get(), type.get(), value) : read_fixed_string(attr.get(), value);
}

bool read_attr(hid_t obj, const std::string& name, long& value) {
  std::vector<long> v;
  if (!read_numbers(obj, name, H5T_NATIVE_LONG, H5T_INTEGER, v, true)) return false;
  value = v[0];
  return true;
}

bool read_attr(hid_t obj, const std::string& name, double& value) {
  std::vector<double> v;
  if (!read_numbers(obj, name, H5T_NATIVE_DOUBLE, H5T_FLOAT, v, true)) return false;
  value = v[0];
  return true;
}

bool read_attr(hid_t obj, const std::string& name, std::vector<long>& value) {
  return read_numbers(obj, name, H5T_NATIVE_LONG, H5T_INTEGER, value, false);
}

bool read_attr(hid_t obj, const std::string& name, std::vector<double>& value) {
  return read_numbers(obj, name, H5T_NATIVE_DOUBLE, H5T_FLOAT, value, false);
}

}  // namespace cartex::io::h5
