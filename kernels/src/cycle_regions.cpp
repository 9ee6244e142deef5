#include "cartex/kernels/cycle_regions.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cartex/core/error.hpp"
#include "cartex/kernels/boundary.hpp"
#include "cartex/kernels/update_operator.hpp"

namespace cartex::kernels {

namespace {

// The stencil's reach in dimension d: the larger of both sides.
long reach(const core::Stencil& stencil, int d) {
  const auto r = stencil.reach();
  return std::max<long>(r.lo[d], r.hi[d]);
}

}  // namespace

std::vector<long> tile_candidates(const TileBasis& basis) {
  const long rows = std::max(1L, basis.rows), threads = basis.threads;
  std::vector<long> out;
  for (long per_thread = 8; per_thread * threads < rows; per_thread *= 2) out.push_back(per_thread * threads);
  out.push_back(rows);
  return out;
}

long default_tile_y(const TileBasis& basis) { return std::min(32L * basis.threads, std::max(1L, basis.rows)); }

int blocked_pass_threads() { return Kokkos::DefaultHostExecutionSpace().concurrency(); }

TemporalTiling resolve_tiling(const core::TemporalBlockingInput& input, const TileBasis& basis, int k, bool blocked_kernel,
                              std::string& why) {
  using Mode = core::TemporalBlockingInput::Mode;
  using Exec = Kokkos::DefaultExecutionSpace;
  if (input.mode == Mode::kOff) return why = "halo.temporal_blocking: off", TemporalTiling{};
  if (input.mode == Mode::kTiles) {
    why = blocked_kernel ? "halo.temporal_blocking: tile_y given" : "tile_y given, but this update has no blocked kernel: steps one by one";
    return {input.tile_y};
  }
  if (k < 2) return why = "auto: off with one step per exchange", TemporalTiling{};
  if (!blocked_kernel) return why = "auto: off, this update has no blocked kernel", TemporalTiling{};
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible)
    return why = "auto: off on devices (no blocked device kernel: one launch per step)", TemporalTiling{};
  why = fmt::format("auto: {} rows, not measured", default_tile_y(basis));
  return {default_tile_y(basis)};
}

CycleRegions::CycleRegions(const core::FieldLayout& layout, const core::Stencil& stencil,
                           const std::vector<std::vector<core::LineRun>>& steps, TemporalTiling tiling, std::array<long, 2> wall_rows)
    : layout_(layout), tiling_(tiling), ry_(reach(stencil, 1)), rz_(reach(stencil, 2)) {
  core::require(tiling.tile_y >= 0, "CycleRegions: negative tile size");
  if (tiling.tile_y > 0) make_tiles(static_cast<int>(steps.size()), wall_rows);
  const long sy = layout.extent(0), lines = layout.extent(1) * layout.extent(2);
  for (const auto& runs : steps) {
    long cells = 0;
    for (const auto& r : runs) cells += r.length;
    step_cells_.push_back(cells);
    if (tiling.tile_y == 0) {
      cells_.emplace_back(make_cell_region(layout, runs));
      continue;
    }
    cells_.emplace_back();
    // The pass walks lines: a run over whole lines (a view without an x halo, where the pattern merges
    // the block's lines into one run) is cut at each line's end.
    std::vector<core::LineRun> sorted;
    for (const auto& r : runs)
      for (long at = r.start, end = r.start + r.length; at < end;) {
        const long piece = std::min(end, (at / sy + 1) * sy) - at;
        sorted.push_back({at, piece});
        at += piece;
      }
    std::stable_sort(sorted.begin(), sorted.end(), [](const core::LineRun& a, const core::LineRun& b) { return a.start < b.start; });
    core::require(sorted.size() < std::numeric_limits<std::uint32_t>::max() && sy <= std::numeric_limits<std::int32_t>::max(),
                  "CycleRegions: a step of 2^32 runs or a line of 2^31 cells");
    std::vector<std::uint32_t> first(lines + 1, 0);
    for (const auto& r : sorted) ++first[r.start / sy + 1];
    for (long l = 0; l < lines; ++l) first[l + 1] += first[l];
    lines_.push_back(std::move(first));
    std::vector<Span> spans(sorted.size());
    for (std::size_t r = 0; r < sorted.size(); ++r)
      spans[r] = {static_cast<std::int32_t>(sorted[r].start % sy), static_cast<std::int32_t>(sorted[r].length)};
    runs_.push_back(std::move(spans));
  }
}

CycleRegions::CycleRegions(const CycleRegions& other, TemporalTiling tiling, std::array<long, 2> wall_rows)
    : layout_(other.layout_),
      tiling_(tiling),
      ry_(other.ry_),
      rz_(other.rz_),
      step_cells_(other.step_cells_),
      cells_(other.cells_),
      lines_(other.lines_),
      runs_(other.runs_) {
  core::require(other.tiling_.tile_y > 0 && tiling.tile_y > 0, "CycleRegions: retiling an unblocked cycle");
  make_tiles(steps(), wall_rows);
}

void CycleRegions::make_tiles(int steps, std::array<long, 2> wall_rows) {
  const long ey = layout_.extent(1), ty = tiling_.tile_y, skew = (steps - 1) * ry_;
  grow_ = wall_rows[0] > 0 ? std::max(0L, wall_rows[0] + skew - ty) : 0;
  tiles_ = std::max(1L, (ey - grow_ + ty - 1) / ty);
  if (wall_rows[1] > 0)
    while (tiles_ > 1 && bound(tiles_ - 1) > ey - wall_rows[1]) --tiles_;
}

CycleRegions::CycleRegions(const CycleRegions& whole, const std::vector<core::Box>& keep)
    : layout_(whole.layout_), tiling_(whole.tiling_), ry_(whole.ry_), rz_(whole.rz_), grow_(whole.grow_), tiles_(whole.tiles_) {
  core::require(tiling_.tile_y > 0 && keep.size() == whole.lines_.size(),
                "CycleRegions: clipping an unblocked cycle, or boxes for another step count");
  const long ey = layout_.extent(1);
  for (std::size_t j = 0; j < keep.size(); ++j) {
    const core::Box& box = keep[j];
    for (int d = 0; d < 3; ++d)
      core::require(box.lo[d] >= 0 && box.n[d] >= 0 && box.hi(d) <= layout_.extent(d), "CycleRegions: a box outside the view");
    const auto& first = whole.lines_[j];
    const auto& spans = whole.runs_[j];
    // The lines inside the box, twice: runs counted, then stored (kept for the whole run: no growth slack).
    const auto clip = [&](const auto& keep_run) {
      for (long z = box.lo[2]; z < box.hi(2); ++z)
        for (long y = box.lo[1]; y < box.hi(1); ++y)
          for (std::uint32_t r = first[z * ey + y]; r < first[z * ey + y + 1]; ++r) {
            const long a = std::max<long>(spans[r].x, box.lo[0]), b = std::min<long>(spans[r].x + spans[r].length, box.hi(0));
            if (a < b) keep_run(z * ey + y, a, b);
          }
    };
    std::vector<std::uint32_t> lines(first.size(), 0);
    clip([&](long l, long, long) { ++lines[l + 1]; });
    for (std::size_t l = 1; l < lines.size(); ++l) lines[l] += lines[l - 1];
    std::vector<Span> kept;
    kept.reserve(lines.back());
    long cells = 0;
    clip([&](long, long a, long b) {
      kept.push_back({static_cast<std::int32_t>(a), static_cast<std::int32_t>(b - a)});
      cells += b - a;
    });
    lines_.push_back(std::move(lines));
    runs_.push_back(std::move(kept));
    step_cells_.push_back(cells);
    cells_.emplace_back();
  }
}

const CellRegion& CycleRegions::cells(int j) const {
  std::optional<CellRegion>& c = cells_[static_cast<std::size_t>(j - 1)];
  if (!c) {
    const long sy = layout_.extent(0), lines = layout_.extent(1) * layout_.extent(2);
    const auto& first = lines_[static_cast<std::size_t>(j - 1)];
    const auto& spans = runs_[static_cast<std::size_t>(j - 1)];
    std::vector<core::LineRun> runs(spans.size());
    for (long l = 0; l < lines; ++l)
      for (std::uint32_t r = first[l]; r < first[l + 1]; ++r) runs[r] = {l * sy + spans[r].x, spans[r].length};
    c = make_cell_region(layout_, runs);
  }
  return *c;
}

double CycleRegions::redundant_fraction() const {
  if (step_cells_.empty()) return 0.0;
  long updates = 0;
  for (const long c : step_cells_) updates += c;
  const double block = static_cast<double>(layout_.box.cells()) * static_cast<double>(step_cells_.size());
  return block > 0 ? static_cast<double>(updates) / block - 1.0 : 0.0;
}

double CycleRegions::bytes_per_update(int steps) const {
  const double block = static_cast<double>(layout_.box.cells());
  if (tiling_.tile_y == 0 || steps < 1) return unblocked_bytes_per_update();
  const double view = static_cast<double>(layout_.extent(0) * layout_.extent(1) * layout_.extent(2));
  const double tiles = static_cast<double>(tiles_);
  const double reread = (tiles - 1) * static_cast<double>((steps + 1) * ry_) / static_cast<double>(layout_.extent(1));
  return 32.0 * view * (1.0 + reread) / (block * steps);
}

std::string CycleRegions::describe() const {
  if (tiling_.tile_y == 0) return "off";
  const long tiles = tiles_;
  return fmt::format("tiles of {} rows in y x all z (wavefront over z), {} tile(s) per pass", tiling_.tile_y, tiles);
}

void fill_periodic_x(core::Field& f) {
  const core::FieldLayout& l = f.layout;
  const long lo = l.halo.lo[0], hi = l.halo.hi[0], n = l.box.n[0], ex = l.extent(0), ey = l.extent(1);
  core::require(n >= lo && n >= hi, "fill_periodic_x: the block is narrower than the x halo");
  const long y0 = l.halo.lo[1], ny = l.box.n[1], z0 = l.halo.lo[2];
  double* v = f.view.data();
  Kokkos::parallel_for(
      "cartex::fill_periodic_x", Kokkos::RangePolicy<>(0, ny * l.box.n[2]), KOKKOS_LAMBDA(const long r) {
        const long line = ((z0 + r / ny) * ey + y0 + r % ny) * ex;
        for (long i = 0; i < lo; ++i) v[line + i] = v[line + i + n];
        for (long i = lo + n; i < lo + n + hi; ++i) v[line + i] = v[line + i - n];
      });
}

void fill_periodic_y(core::Field& f) {
  const core::FieldLayout& l = f.layout;
  const long lo = l.halo.lo[1], hi = l.halo.hi[1], n = l.box.n[1], ex = l.extent(0), ey = l.extent(1);
  core::require(n >= lo && n >= hi, "fill_periodic_y: the block is shorter than the y halo");
  const long z0 = l.halo.lo[2], rows = lo + hi;
  double* v = f.view.data();
  Kokkos::parallel_for(
      "cartex::fill_periodic_y", Kokkos::RangePolicy<>(0, rows * l.box.n[2]), KOKKOS_LAMBDA(const long r) {
        const long j = r % rows, plane = (z0 + r / rows) * ey;
        const long y = j < lo ? j : lo + n + (j - lo), from = j < lo ? y + n : y - n;
        for (long x = 0; x < ex; ++x) v[(plane + y) * ex + x] = v[(plane + from) * ex + x];
      });
}

void apply_steps_one_by_one(const UpdateOperator& op, core::State& a, core::State& b, const CycleRegions& steps, int first, int last,
                            const BetweenTiles& between, const PassWalls* walls, PeriodicGhosts ghosts) {
  core::require(ghosts != PeriodicGhosts::kXY || !walls, "apply_steps: periodic y ghost rows asked with refreshed walls");
  for (int t = first; t <= last; ++t) {
    const bool even = (t - first) % 2 == 0;
    op.apply(even ? a : b, even ? b : a, steps.cells(t));
    if (ghosts != PeriodicGhosts::kAsComputed && t == last)  // before the walls: they mirror these cells
      for (core::Field& f : even ? b : a) {
        fill_periodic_x(f);
        if (ghosts == PeriodicGhosts::kXY) fill_periodic_y(f);  // after x: the rows carry their x ghosts
      }
    if (walls) {
      Kokkos::fence();
      walls->refresh(even ? b : a, t);
    }
    if (between && t < last) {
      Kokkos::fence();  // between sees the step done
      between();
    }
  }
}

}  // namespace cartex::kernels
