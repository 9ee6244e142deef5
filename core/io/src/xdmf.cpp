#include "cartex/io/xdmf.hpp"

#include <fmt/format.h>

namespace cartex::io {

namespace {

// Escapes the five XML special characters for attribute values.
std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string xdmf_text(const core::GlobalGrid& grid, const std::string& collection, const std::vector<XdmfField>& fields,
                      const std::vector<XdmfEntry>& entries, const std::string& note) {
  // XDMF lists sizes slowest first, matching the datasets' (z, y, x) order; the grid points are the
  // mesh nodes, so the node-centred values sit where the solver has them (no cells, no half shifts).
  const std::string dims = fmt::format("{} {} {}", grid.n[2], grid.n[1], grid.n[0]);
  const std::string origin = fmt::format("{:.17g} {:.17g} {:.17g}", grid.position(2, 0), grid.position(1, 0), grid.position(0, 0));
  const std::string spacing = fmt::format("{:.17g} {:.17g} {:.17g}", grid.spacing(2), grid.spacing(1), grid.spacing(0));
  std::string x = "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"2.0\">\n  <Domain>\n";
  x += fmt::format("    <Information Name=\"cartex\" Value=\"{}\"/>\n", xml_escape(note));
  x += fmt::format("    <Grid Name=\"{}\" GridType=\"Collection\" CollectionType=\"Temporal\">\n", xml_escape(collection));
  for (const auto& e : entries) {
    x += fmt::format("      <Grid Name=\"step {}\" GridType=\"Uniform\">\n", e.step);
    x += fmt::format("        <Time Value=\"{:.17g}\"/>\n", e.time);
    x += fmt::format("        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"{}\"/>\n", dims);
    x += "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n";
    x += fmt::format("          <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">{}</DataItem>\n", origin);
    x += fmt::format("          <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">{}</DataItem>\n", spacing);
    x += "        </Geometry>\n";
    for (const auto& f : fields) {
      x += fmt::format("        <Attribute Name=\"{}\" AttributeType=\"Scalar\" Center=\"Node\">\n", xml_escape(f.name));
      x += fmt::format("          <DataItem Dimensions=\"{}\" NumberType=\"{}\" Precision=\"{}\" Format=\"HDF\">{}:/{}</DataItem>\n",
                       dims, f.integer ? "Int" : "Float", f.integer ? 4 : 8, xml_escape(e.file), xml_escape(f.name));
      x += "        </Attribute>\n";
    }
    x += "      </Grid>\n";
  }
  x += "    </Grid>\n  </Domain>\n</Xdmf>\n";
  return x;
}

}  // namespace cartex::io
