// Building and querying the common-neighborhood matrix (HiPC'17 section IV-B1 and IV-B3).
#include "common_neighborhood.hpp"

#include <algorithm>

#include "cartex/graph/error.hpp"
#include "tags.hpp"

namespace cartex::graph::detail {

CommonNeighborhood CommonNeighborhood::exchange(MPI_Comm comm, int me, const std::vector<int>& active_out,
                                                const std::vector<int>& active_in) {
  std::vector<MPI_Request> sends(active_in.size());
  for (std::size_t i = 0; i < active_in.size(); ++i)
    check_mpi(MPI_Isend(active_in.data(), static_cast<int>(active_in.size()), MPI_INT, active_in[i], kTagRows, comm,
                        &sends[i]),
              "MPI_Isend (common-neighborhood row)");
  CommonNeighborhood m;
  m.out_ = active_out;
  m.rows_.resize(active_out.size());
  for (std::size_t i = 0; i < active_out.size(); ++i) {
    MPI_Status status;
    check_mpi(MPI_Probe(active_out[i], kTagRows, comm, &status), "MPI_Probe (common-neighborhood row)");
    int n = 0;
    check_mpi(MPI_Get_count(&status, MPI_INT, &n), "MPI_Get_count (common-neighborhood row)");
    std::vector<int> row(static_cast<std::size_t>(n));
    check_mpi(MPI_Recv(row.data(), n, MPI_INT, active_out[i], kTagRows, comm, MPI_STATUS_IGNORE),
              "MPI_Recv (common-neighborhood row)");
    row.erase(std::remove(row.begin(), row.end(), me), row.end());
    m.rows_[i] = std::move(row);
  }
  check_mpi(MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall (common-neighborhood rows)");
  return m;
}

std::map<int, int> CommonNeighborhood::friends(int theta) const {
  std::map<int, int> count;
  for (const auto& row : rows_)
    for (int q : row) ++count[q];
  for (auto it = count.begin(); it != count.end();) it = it->second >= theta ? std::next(it) : count.erase(it);
  return count;
}

std::vector<int> CommonNeighborhood::common_with(int q) const {
  std::vector<int> common;
  for (std::size_t i = 0; i < out_.size(); ++i)
    if (std::binary_search(rows_[i].begin(), rows_[i].end(), q)) common.push_back(out_[i]);
  return common;
}

}  // namespace cartex::graph::detail
