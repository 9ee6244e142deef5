#pragma once
// Internal: owning HDF5 handles and typed attribute helpers, so every HDF5 call in cartex::io is
// checked and every id is closed on every path (also when an error unwinds the stack).
#include <hdf5.h>

#include <array>
#include <string>
#include <vector>

namespace cartex::io::h5 {

// An HDF5 id closed by its matching H5?close when the handle goes out of scope.
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(Handle&& o) noexcept : id_(o.id_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { close(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now; throws cartex::core::Error if HDF5 reports a failure (a failed file close loses data).
  void close_checked(const std::string& what);
  // Forgets the id without closing it (a collective close that would wait for ranks gone elsewhere).
  void abandon() noexcept { id_ = H5I_INVALID_HID; }

 private:
  void close() noexcept;
  hid_t id_ = H5I_INVALID_HID;
};

// Turns HDF5's automatic error stack printing off for this thread: cartex reports its own one line.
void silence_errors();

// Throws cartex::core::Error "HDF5: what" when an HDF5 call returned a negative status.
hid_t check(hid_t status, const std::string& what);

// Attribute writers (collective in a parallel file: every rank passes the same value). Strings are
// fixed-length, null-terminated UTF-8: nothing goes to the global heap, which has no checksum.
void write_attr(hid_t obj, const std::string& name, const std::string& value);
void write_attr(hid_t obj, const std::string& name, long value);
void write_attr(hid_t obj, const std::string& name, double value);
void write_attr(hid_t obj, const std::string& name, const std::vector<long>& value);
void write_attr(hid_t obj, const std::string& name, const std::vector<double>& value);

// Attribute readers: return false when the attribute is absent, unreadable or has another type or
// size (checked before reading). Strings may be fixed-length or variable-length (older files).
bool read_attr(hid_t obj, const std::string& name, std::string& value);
bool read_attr(hid_t obj, const std::string& name, long& value);
bool read_attr(hid_t obj, const std::string& name, double& value);
bool read_attr(hid_t obj, const std::string& name, std::vector<long>& value);
bool read_attr(hid_t obj, const std::string& name, std::vector<double>& value);

}  // namespace cartex::io::h5
