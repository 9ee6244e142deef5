#include "cart_plans.hpp"

#include <fmt/format.h>

#include "cartex/core/error.hpp"
#include "cartex/core/phase_profile.hpp"

namespace cartex::detail {

void check_cart(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CX_Error_string(text, &len);
  throw Error(fmt::format("{} failed: {}", call, std::string(text, len)));
}

CartComm::CartComm(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm, const char* algorithm,
                   const char* execution) {
  const GlobalGrid& g = geo.decomposition().grid();
  const int d = g.dim;
  std::vector<int> dims(d), periods(d), offsets;
  for (int k = 0; k < d; ++k) {
    dims[k] = geo.decomposition().procs().dims[k];
    periods[k] = g.periodic[k] ? 1 : 0;
  }
  for (const auto& o : p.neighbors)
    for (int k = 0; k < d; ++k) offsets.push_back(o[k]);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cx_algorithm", algorithm);
  MPI_Info_set(info, "cx_execution", execution);
  const int rc = CX_Cart_neighborhood_create(comm, d, dims.data(), periods.data(), static_cast<int>(p.neighbors.size()),
                                             offsets.data(), MPI_UNWEIGHTED, info, 0, &comm_);
  MPI_Info_free(&info);
  check_cart(rc, "CX_Cart_neighborhood_create");
}

CartComm::~CartComm() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

CartZeroCopyPlan::CartZeroCopyPlan(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm, bool combining)
    : combining_(combining),
      pattern_(p),
      slots_(combining ? uniform_block_sizes(p, comm) : std::vector<long>{}),
      cart_(geo, p, comm, combining ? "combining" : "direct", "zerocopy") {
  require_host_accessible_memory(backend());
  stats_ = predict_halo_stats(backend(), geo, p, combining ? &slots_ : nullptr);
}

void CartZeroCopyPlan::start(Field& f) {
  Bound& b = bind(f);
  PhaseScope wait(Phase::kHaloWait);  // the plan runs the whole exchange in one blocking call
  check_cart(CX_Cart_plan_execute(b.plan->get()), "CX_Cart_plan_execute");
}

CartZeroCopyPlan::Bound& CartZeroCopyPlan::bind(Field& f) {
  PhaseScope post(Phase::kHaloPost);
  Kokkos::fence();  // the field's last update must be complete before MPI reads it
  double* base = f.view.data();
  Bound& b = plans_[base];
  if (!b.plan) {
    const BlockPadding padding{slots_, base, &b.scratch};
    b.blocks = std::make_unique<ZeroCopyBlocks>(pattern_, false, combining_ ? &padding : nullptr);
    const ZeroCopyBlocks& z = *b.blocks;
    CX_Cart_plan h = nullptr;
    check_cart(CX_Cart_alltoallw_init(base, z.send_counts.data(), z.send_displs.data(), z.send_types.data(), base,
                                      z.recv_counts.data(), z.recv_displs.data(), z.recv_types.data(), cart_.get(), &h),
               "CX_Cart_alltoallw_init");
    b.plan = std::make_unique<CartPlanHandle>(h);
  }
  return b;
}

namespace {

std::vector<const std::vector<long>*> lists(const HaloPattern& p, bool send) {
  static const std::vector<long> none;
  std::vector<const std::vector<long>*> out;
  for (size_t i = 0; i < p.neighbors.size(); ++i)
    out.push_back(send ? (p.target[i] != MPI_PROC_NULL ? &p.send[i] : &none) : &p.recv[i]);
  return out;
}

}  // namespace

CartPackedPlan::CartPackedPlan(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm)
    : pattern_(p),
      slots_(uniform_block_sizes(p, comm)),
      send_list_(lists(pattern_, true), slots_),
      recv_list_(lists(pattern_, false), slots_),
      send_buf_("cartex::cart_send", send_list_.size()),
      recv_buf_("cartex::cart_recv", recv_list_.size()),
      send_host_(Kokkos::create_mirror_view(send_buf_)),
      recv_host_(Kokkos::create_mirror_view(recv_buf_)),
      cart_(geo, pattern_, comm, "combining", "packed") {
  const size_t t = pattern_.neighbors.size();
  std::vector<int> sc(t), sd(t), rc(t), rd(t);
  for (size_t i = 0; i < t; ++i) {
    sc[i] = static_cast<int>(send_list_.count(i));
    sd[i] = static_cast<int>(send_list_.offset(i));
    rc[i] = static_cast<int>(recv_list_.count(i));
    rd[i] = static_cast<int>(recv_list_.offset(i));
  }
  CX_Cart_plan h = nullptr;
  check_cart(CX_Cart_alltoallv_init(send_host_.data(), sc.data(), sd.data(), MPI_DOUBLE, recv_host_.data(), rc.data(),
                                    rd.data(), MPI_DOUBLE, cart_.get(), &h),
             "CX_Cart_alltoallv_init");
  plan_ = std::make_unique<CartPlanHandle>(h);
  stats_ = predict_halo_stats(backend(), geo, pattern_, &slots_);
}

void CartPackedPlan::start(Field& f) {
  send_list_.pack_to_host(f, send_buf_, send_host_);
  PhaseScope wait(Phase::kHaloWait);  // the plan runs the whole exchange in one blocking call
  check_cart(CX_Cart_plan_execute(plan_->get()), "CX_Cart_plan_execute");
}

void CartPackedPlan::finish(Field& f) { recv_list_.unpack_from_host(f, recv_buf_, recv_host_); }

}  // namespace cartex::detail
