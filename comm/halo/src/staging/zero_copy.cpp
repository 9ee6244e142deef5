#include "staging/zero_copy.hpp"

#include <algorithm>

#include "mpi_check.hpp"

namespace cartex::halo {

namespace {

// Block type of N fields (the header's drawing): the one-field cells type at each field's displacement,
// then `pad` doubles at pad_displ. MPI_DATATYPE_NULL if both are empty.
OwnedType fields_type(const CellList& cells, const std::vector<MPI_Aint>& field_displ, long pad,
                      MPI_Aint pad_displ) {
  const OwnedType one = cells_type(cells);  // freed on return: the struct type keeps what it needs
  std::vector<int> lengths;
  std::vector<MPI_Aint> displs;
  std::vector<MPI_Datatype> types;
  if (one.get() != MPI_DATATYPE_NULL)
    for (const MPI_Aint d : field_displ) {
      lengths.push_back(1);
      displs.push_back(d);
      types.push_back(one.get());
    }
  if (pad > 0) {
    lengths.push_back(static_cast<int>(pad));
    displs.push_back(pad_displ);
    types.push_back(MPI_DOUBLE);
  }
  if (lengths.empty()) return OwnedType();
  MPI_Datatype t;
  check_mpi(MPI_Type_create_struct(static_cast<int>(lengths.size()), lengths.data(), displs.data(), types.data(), &t),
            "MPI_Type_create_struct");
  OwnedType owned(t);
  check_mpi(MPI_Type_commit(&t), "MPI_Type_commit");
  return owned;
}

}  // namespace

void field_displacements(const std::vector<const double*>& fields, std::vector<MPI_Aint>& out) {
  out.clear();
  if (fields.size() < 2) return;
  MPI_Aint first = 0;
  check_mpi(MPI_Get_address(fields[0], &first), "MPI_Get_address");
  for (size_t q = 1; q < fields.size(); ++q) {
    MPI_Aint a = 0;
    check_mpi(MPI_Get_address(fields[q], &a), "MPI_Get_address");
    out.push_back(MPI_Aint_diff(a, first));
  }
}

void field_bases(const FieldSet& f, std::vector<const double*>& out) {
  out.clear();
  for (const core::Field* g : f) out.push_back(g->view.data());
}

ZeroCopyBlocks::ZeroCopyBlocks(const HaloPattern& p, bool compact, const BlockPadding* padding,
                               const std::vector<const double*>& fields) {
  const size_t t = p.blocks.size();
  const long n = std::max<long>(1, static_cast<long>(fields.size()));
  std::vector<MPI_Aint> field_displ;
  field_displacements(fields, field_displ);
  field_displ.insert(field_displ.begin(), 0);
  // Scratch layout (header): one shared read region for send padding, then a region per received block.
  std::vector<long> recv_pad_at(t, 0);
  long send_pad = 0, scratch = 0;
  MPI_Aint base_addr = 0, scratch_addr = 0;
  // With padding every block has its slot size, also those of MPI_PROC_NULL partners (then all
  // padding): the schedule sizes temporary slots after the local block of the same index.
  if (padding) {
    // N fields: every region N times as long.
    for (size_t i = 0; i < t; ++i) send_pad = std::max(send_pad, padding->slots[i] - static_cast<long>(p.blocks[i].send.size()));
    scratch = n * send_pad;
    for (size_t i = 0; i < t; ++i) {
      recv_pad_at[i] = scratch;
      scratch += n * (padding->slots[i] - static_cast<long>(p.blocks[i].recv.size()));
    }
    padding->scratch->assign(std::max(1L, scratch), 0.0);
    check_mpi(MPI_Get_address(padding->base, &base_addr), "MPI_Get_address");
    check_mpi(MPI_Get_address(padding->scratch->data(), &scratch_addr), "MPI_Get_address");
  }
  auto add = [&](const CellList& cells, long slot, long pad_at, std::vector<int>& counts,
                 std::vector<MPI_Aint>& displs, std::vector<MPI_Datatype>& types) {
    const long pad = padding ? slot - static_cast<long>(cells.size()) : 0;
    const MPI_Aint pad_displ = MPI_Aint_diff(scratch_addr, base_addr) + pad_at * static_cast<MPI_Aint>(sizeof(double));
    owned.push_back(n == 1 ? cells_type(cells, pad, pad_displ) : fields_type(cells, field_displ, n * pad, pad_displ));
    const bool empty = owned.back().get() == MPI_DATATYPE_NULL;
    counts.push_back(empty ? 0 : 1);
    displs.push_back(0);
    types.push_back(empty ? MPI_DOUBLE : owned.back().get());
  };
  for (size_t i = 0; i < t; ++i) {
    const Block& b = p.blocks[i];
    const long slot = padding ? padding->slots[i] : 0;
    if (!compact || b.target != MPI_PROC_NULL) add(b.send, slot, 0, send_counts, send_displs, send_types);
    if (!compact || b.source != MPI_PROC_NULL) add(b.recv, slot, recv_pad_at[i], recv_counts, recv_displs, recv_types);
  }
}

std::vector<long> uniform_block_sizes(const HaloPattern& p, MPI_Comm comm) {
  std::vector<long> local(p.blocks.size(), 0), global(p.blocks.size(), 0);
  for (size_t i = 0; i < local.size(); ++i)
    local[i] = static_cast<long>(std::max(p.blocks[i].send.size(), p.blocks[i].recv.size()));
  check_mpi(MPI_Allreduce(local.data(), global.data(), static_cast<int>(local.size()), MPI_LONG, MPI_MAX, comm),
            "MPI_Allreduce");
  return global;
}

}  // namespace cartex::halo
