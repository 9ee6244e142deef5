#pragma once
// XDMF (version 2) description of a run's field files (or of one checkpoint), so ParaView and VisIt
// open the whole time series as one temporal collection of a 3D co-rectilinear mesh whose nodes are
// the grid points x0 + i*h where the values live (periodic: 0 .. L-h; walls: h .. L-h).
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

// One dataset each file of the series holds: its name and type (4-byte integer or 8-byte float).
struct XdmfField {
  std::string name;
  bool integer = false;
};

// The XDMF text of a temporal collection named `collection` referencing dataset `/NAME` of every
// entry's file for each of `fields`. `note` goes into an Information element.
std::string xdmf_text(const core::GlobalGrid& grid, const std::string& collection, const std::vector<XdmfField>& fields,
                      const std::vector<XdmfEntry>& entries, const std::string& note);

}  // namespace cartex::io
