#include "h5.hpp"

#include <fmt/format.h>

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

// Creates attribute `name` of `type` and shape `n` (0 = scalar) on `obj` and writes `data`.
void write_raw(hid_t obj, const std::string& name, hid_t type, hsize_t n, const void* data) {
  Handle space(check(n == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), "H5Screate for " + name));
  Handle attr(check(H5Acreate2(obj, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), "H5Acreate " + name));
  check(H5Awrite(attr.get(), type, data), "H5Awrite " + name);
}

Handle string_type() {
  Handle t(check(H5Tcopy(H5T_C_S1), "H5Tcopy"));
  check(H5Tset_size(t.get(), H5T_VARIABLE), "H5Tset_size");
  check(H5Tset_cset(t.get(), H5T_CSET_UTF8), "H5Tset_cset");
  return t;
}

// Opens attribute `name` if present with a simple dataspace of `n` points (0 = scalar).
Handle open_attr(hid_t obj, const std::string& name, hsize_t& n) {
  if (H5Aexists(obj, name.c_str()) <= 0) return Handle();
  Handle attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT));
  if (!attr.valid()) return Handle();
  Handle space(H5Aget_space(attr.get()));
  if (!space.valid()) return Handle();
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || rank > 1) return Handle();
  n = 0;
  if (rank == 1) H5Sget_simple_extent_dims(space.get(), &n, nullptr);
  return attr;
}

template <class T>
bool read_numbers(hid_t obj, const std::string& name, hid_t mem_type, H5T_class_t cls, std::vector<T>& value, bool scalar) {
  hsize_t n = 0;
  Handle attr = open_attr(obj, name, n);
  if (!attr.valid() || scalar != (n == 0)) return false;
  Handle type(H5Aget_type(attr.get()));
  if (!type.valid() || H5Tget_class(type.get()) != cls) return false;
  value.assign(scalar ? 1 : n, T{});
  return H5Aread(attr.get(), mem_type, value.data()) >= 0;
}

}  // namespace

void write_attr(hid_t obj, const std::string& name, const std::string& value) {
  Handle t = string_type();
  const char* p = value.c_str();
  write_raw(obj, name, t.get(), 0, &p);
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
  if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) <= 0) return false;
  Handle mem = string_type();
  char* p = nullptr;
  if (H5Aread(attr.get(), mem.get(), &p) < 0 || p == nullptr) return false;
  value = p;
  H5free_memory(p);
  return true;
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
