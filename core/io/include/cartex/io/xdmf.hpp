#pragma once
// XDMF (version 2) description of a run's field files, so ParaView and VisIt open the whole time
// series as one temporal collection of a 3D co-rectilinear mesh.
#include <string>
#include <vector>

#include "cartex/core/grid.hpp"

namespace cartex::io {

// One field file in the series: its step, time and file name relative to the XDMF file.
struct XdmfEntry {
  long step;
  double time;
  std::string file;
};

// The XDMF text referencing dataset `/NAME` of every entry's file for each of `fields`; a field
// named "rank" is a 4-byte integer, any other an 8-byte float. `note` goes into an Information element.
std::string xdmf_text(const GlobalGrid& grid, const std::vector<std::string>& fields, const std::vector<XdmfEntry>& entries,
                      const std::string& note);

}  // namespace cartex::io
