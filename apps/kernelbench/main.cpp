// kernelbench: stencil-update speed against the memory bound, measured in one run.
//
// STREAM copy (b = a), scale (b = s*c) and triad (a = b + s*c) give the bandwidth this process reaches with Kokkos in
// the default execution space; a stencil update reads u and writes u' (16 bytes per cell when the
// neighbours come from cache), so copy bandwidth / 16 B is the bound in cells per second. For each
// size and stencil the update is timed `repeats` times and the best time reported (as STREAM does).
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <fstream>
#include <limits>

#include "cartex/core/field.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/kernels/stencil_update.hpp"

namespace {

// Best wall time of `repeats` calls of f (fenced).
template <class F>
double best_time(int repeats, F&& f) {
  double best = std::numeric_limits<double>::max();
  for (int r = 0; r < repeats; ++r) {
    Kokkos::fence();
    const double t0 = MPI_Wtime();
    f();
    Kokkos::fence();
    best = std::min(best, MPI_Wtime() - t0);
  }
  return best;
}

struct Stream {
  double copy_gbs, scale_gbs, triad_gbs;
};

Stream measure_stream(long n, int repeats) {
  Kokkos::View<double*> a("a", n), b("b", n), c("c", n);
  Kokkos::deep_copy(a, 1.0);
  Kokkos::deep_copy(b, 2.0);
  Kokkos::deep_copy(c, 3.0);
  const double s = 0.5;
  const double tc = best_time(repeats, [&] {
    Kokkos::parallel_for("stream_copy", n, KOKKOS_LAMBDA(long i) { b(i) = a(i); });
  });
  const double ts = best_time(repeats, [&] {
    Kokkos::parallel_for("stream_scale", n, KOKKOS_LAMBDA(long i) { b(i) = s * c(i); });
  });
  const double tt = best_time(repeats, [&] {
    Kokkos::parallel_for("stream_triad", n, KOKKOS_LAMBDA(long i) { a(i) = b(i) + s * c(i); });
  });
  return {2.0 * 8.0 * n / tc / 1e9, 2.0 * 8.0 * n / ts / 1e9, 3.0 * 8.0 * n / tt / 1e9};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    CLI::App app{"kernelbench: stencil update MLUP/s against STREAM bandwidth (one process)"};
    std::vector<long> sizes{64, 128, 256};
    std::vector<std::string> stencils{"7pt", "27pt"};
    int repeats = 10;
    long stream_n = 1L << 25;
    std::string csv;
    bool generic = false;
    app.add_option("--sizes", sizes, "cube edge lengths n (cells n^3)")->delimiter(',');
    app.add_option("--stencils", stencils, "3D builtin stencils to time")->delimiter(',');
    app.add_option("--repeats", repeats, "timed repetitions per measurement (best is reported)")->check(CLI::PositiveNumber);
    app.add_option("--stream-size", stream_n, "STREAM array length in doubles")->check(CLI::PositiveNumber);
    app.add_flag("--generic", generic, "also time the runtime-size (generic) kernel");
    app.add_option("--csv", csv, "also write the table as CSV to this file");
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      code = app.exit(e) == 0 ? 0 : 2;
    }
    if (code == 0 && !app.get_option("--help")->count()) {
      const Stream st = measure_stream(stream_n, repeats);
      const double bound = st.copy_gbs * 1e9 / 16.0 / 1e6;  // MLUP/s
      fmt::print("kernelbench: Kokkos {} on {}, STREAM n = {}\n", KOKKOS_VERSION,
                 Kokkos::DefaultExecutionSpace::name(), stream_n);
      fmt::print("STREAM copy  {:8.2f} GB/s\nSTREAM scale {:8.2f} GB/s\nSTREAM triad {:8.2f} GB/s\n"
                 "bound (copy / 16 B per cell) {:.1f} MLUP/s\n\n",
                 st.copy_gbs, st.scale_gbs, st.triad_gbs, bound);
      fmt::print("{:>8} {:>6} {:>10} {:>10} {:>10} {:>9}\n", "stencil", "n", "kernel", "MLUP/s", "GB/s eff", "of bound");
      std::string table =
          "stencil,n,kernel,mlups,gbs_effective,fraction_of_bound,stream_copy_gbs,stream_scale_gbs,stream_triad_gbs\n";
      for (const auto& name : stencils)
        for (long n : sizes) {
          cartex::GlobalGrid g;
          g.n = {n, n, n};
          cartex::Stencil s;
          try {
            s = cartex::make_builtin_stencil(name, g);
          } catch (const std::invalid_argument& e) {
            fmt::print(stderr, "kernelbench: --stencils: {}\n", e.what());
            code = 2;
            break;
          }
          cartex::FieldLayout l;
          l.box.n = {n, n, n};
          l.halo = s.reach();
          cartex::Field u("u", l), v("v", l);
          Kokkos::deep_copy(u.view, 1.0);
          Kokkos::deep_copy(v.view, 1.0);
          std::vector<cartex::StencilOperator::Kernel> kinds{cartex::StencilOperator::Kernel::kAuto};
          if (generic) kinds.push_back(cartex::StencilOperator::Kernel::kGeneric);
          for (auto kind : kinds) {
            const cartex::StencilOperator op(s, l, kind);
            const double t = best_time(repeats, [&] { op.apply(u, v, 1e-3); });
            const double mlups = static_cast<double>(n) * n * n / t / 1e6;
            const double gbs = 16.0 * n * n * n / t / 1e9;
            fmt::print("{:>8} {:>6} {:>10} {:>10.1f} {:>10.2f} {:>8.0f}%\n", name, n, op.kernel_name(), mlups, gbs,
                       100 * mlups / bound);
            table += fmt::format("{},{},{},{:.3f},{:.3f},{:.4f},{:.3f},{:.3f},{:.3f}\n", name, n, op.kernel_name(), mlups,
                                 gbs, mlups / bound, st.copy_gbs, st.scale_gbs, st.triad_gbs);
          }
        }
      if (!csv.empty() && code == 0) std::ofstream(csv) << table;
    }
  }
  MPI_Finalize();
  return code;
}
