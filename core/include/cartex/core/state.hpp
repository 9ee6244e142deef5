#pragma once
// The state of a run at one time level: the equation's fields (heat: u; Gray–Scott: u, v), each a
// core::Field of one layout. A Field is a Kokkos view handle, so a State copies like one: a copy
// names the same storage (State(f) is the set of one field f, sharing its view).
//
//   State u({"u", "v"}, layout), next({"u_next", "v_next"}, layout);
//   op.apply(u, next);  std::swap(u, next);
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "cartex/core/error.hpp"
#include "cartex/core/field.hpp"

namespace cartex::core {

class State {
 public:
  State() = default;
  // Allocates one field of `layout` per name (the names label the Kokkos views).
  State(const std::vector<std::string>& names, const FieldLayout& layout) {
    require(!names.empty(), "State: no fields");
    for (const auto& name : names) fields_.emplace_back(name, layout);
  }
  // The set of one field, sharing its storage.
  explicit State(Field f) : fields_{std::move(f)} {}

  std::size_t size() const { return fields_.size(); }
  Field& operator[](std::size_t q) { return fields_[q]; }
  const Field& operator[](std::size_t q) const { return fields_[q]; }
  const FieldLayout& layout() const { return fields_.front().layout; }
  std::vector<Field>::iterator begin() { return fields_.begin(); }
  std::vector<Field>::iterator end() { return fields_.end(); }
  std::vector<Field>::const_iterator begin() const { return fields_.begin(); }
  std::vector<Field>::const_iterator end() const { return fields_.end(); }

 private:
  std::vector<Field> fields_;
};

}  // namespace cartex::core
