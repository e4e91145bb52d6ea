#include "jobs/problem_content.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <new>
#include <stdexcept>
#include <string_view>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/model/structure.hpp"
#include "engine/model/style_limits.hpp"
#include "engine/render/render.hpp"

namespace rave::jobs {
using namespace rave::engine;  // jobs work on their values
namespace {

namespace fs = std::filesystem;

// The members of a RAVEN npz (docs/format.md#npz), in numpy.savez's order; a symbolic-only problem
// has no `image`.
constexpr std::array<std::string_view, 7> kMembers{
    "image", "target", "predict", "meta_matrix", "meta_target", "structure", "meta_structure"};

void read_pair(ProblemPair& pair) {
  read_file_into(pair.xml_path, pair.xml_bytes, kMaxProblemFileBytes);
  pair.problem = parse_problem_xml(pair.xml_bytes, pair.xml_path.string());
  const fs::path npz = sibling_npz(pair.xml_path);
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(npz, ec))) {
    pair.problem.target = target_from_modifications(pair.problem);
    return;
  }
  read_file_into(npz, pair.npz_bytes, kMaxProblemFileBytes);
  pair.npz.emplace(parse_npz(pair.npz_bytes, npz.string()));
  pair.problem.target = static_cast<int>(pair.npz->target());
  pair.problem.predict = static_cast<int>(pair.npz->predict());
}

// "npz: member 'image' twice; extra member 'x'; no member 'meta_target'", or "". `drawn`: the XML
// has entity masks, so the npz must hold the image.
std::string member_defects(const NpzFile& npz, bool drawn) {
  std::vector<std::string> parts;
  std::vector<std::string> keys = npz.keys();
  std::sort(keys.begin(), keys.end());
  for (std::size_t i = 1; i < keys.size(); ++i)
    if (keys[i] == keys[i - 1]) parts.push_back("member '" + keys[i] + "' twice");
  for (const std::string& key : npz.keys())
    if (std::find(kMembers.begin(), kMembers.end(), key) == kMembers.end())
      parts.push_back("extra member '" + key + "'");
  for (std::string_view key : kMembers)
    if ((key != "image" || drawn) && !npz.contains(std::string(key)))
      parts.push_back("no member '" + std::string(key) + "'");
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "npz: " : "; ") + p;
  return out;
}

// The configuration of the XML against the folder it lies in, when that folder is one's name.
std::string folder_defect(const ProblemPair& pair) {
  const std::string folder = pair.xml_path.parent_path().filename().string();
  for (const Configuration& c : all_configurations())
    if (c.folder == folder && c.id != pair.problem.config)
      return "a " + std::string(configuration(pair.problem.config).paper_name) +
             " problem inside " + folder + "/";
  return {};
}

// The panels whose pixels differ from the XML re-rendered ("image: panels 3, 9 differ ...").
std::string pixel_defect(const ProblemPair& pair, std::span<const std::uint8_t> image, int side) {
  const auto panels = static_cast<std::size_t>(pair.images.count());
  const std::size_t bytes = pair.images.panel_bytes();
  if (side != pair.images.side)
    return "image: panels of " + std::to_string(side) + " pixels, the XML's style draws " +
           std::to_string(pair.images.side);
  if (image.size() != panels * bytes)
    return "image: " + std::to_string(image.size() / bytes) + " panels, the XML has " +
           std::to_string(panels);
  std::string differ;
  for (std::size_t i = 0; i < panels; ++i)
    if (std::memcmp(image.data() + i * bytes, pair.images.panel(static_cast<int>(i)), bytes) != 0)
      differ += (differ.empty() ? "" : ", ") + std::to_string(i);
  if (differ.empty()) return {};
  return "image: panel" + std::string(differ.find(',') == std::string::npos ? " " : "s ") + differ +
         " differ from the XML re-rendered";
}

// meta_matrix, meta_target (from the rules, when the XML has them), structure and meta_structure
// (from the configuration) against the npz.
std::vector<std::string> meta_defects(const ProblemPair& pair) {
  std::vector<std::string> out;
  const NpzFile& npz = *pair.npz;
  const Problem& p = pair.problem;
  const auto has = [&](const char* key) { return npz.contains(key); };
  const bool rules = !p.rules.empty();
  if (rules && has("meta_matrix") && npz.meta_matrix() != meta_matrix(p.rules))
    out.push_back("meta_matrix: not the XML's rules");
  if (rules && has("meta_target") && npz.meta_target() != meta_target(p.rules))
    out.push_back("meta_target: not the XML's rules");
  if (has("structure") && npz.structure() != structure_tokens(p.config))
    out.push_back("structure: not the XML's configuration");
  if (has("meta_structure") && npz.meta_structure() != meta_structure(p.config))
    out.push_back("meta_structure: not the XML's configuration");
  if (const auto revealed = target_from_modifications(p); revealed && *revealed != *p.target)
    out.push_back("target: " + std::to_string(*p.target) + ", the XML's modifications reveal " +
                  std::to_string(*revealed));
  return out;
}

}  // namespace

ProblemPair read_problem_pair(const fs::path& xml) {
  ProblemPair pair;
  pair.xml_path = xml;
  try {
    read_pair(pair);
  } catch (const std::bad_alloc&) {  // the readers cap what they allocate; this is the last line
    throw InputError(xml.string(), "", "out of memory while reading the problem");
  } catch (const std::length_error&) {
    throw InputError(xml.string(), "", "out of memory while reading the problem");
  }
  return pair;
}

bool render_pair(ProblemPair& pair) {
  const Problem& p = pair.problem;
  if (!pair.npz || !pair.npz->contains("image") ||
      !style_defect(p.style, p.variant, p.config).empty()) {
    pair.images.pixels.clear();
    return false;
  }
  render_problem(pair.problem, pair.images);
  return true;
}

std::vector<std::string> content_defects(const ProblemPair& pair) {
  std::vector<std::string> out;
  if (std::string d = folder_defect(pair); !d.empty()) out.push_back(std::move(d));
  if (!pair.npz) {
    out.push_back(sibling_npz(pair.xml_path).filename().string() + ": missing");
    return out;
  }
  const bool drawn =
      pair.xml_bytes.find("real_bbox") != std::string::npos || !pair.problem.style.is_original();
  if (std::string d = member_defects(*pair.npz, drawn); !d.empty()) out.push_back(std::move(d));
  if (pair.npz->contains("image") && !pair.images.pixels.empty()) {
    int grid = 0, side = 0;
    const auto image = pair.npz->panels(grid, side);
    if (std::string d = pixel_defect(pair, image, side); !d.empty()) out.push_back(std::move(d));
  }
  for (std::string& d : meta_defects(pair)) out.push_back(std::move(d));
  return out;
}

std::uint64_t content_hash(const ProblemPair& pair) {
  if (pair.npz && pair.npz->contains("image")) {
    const NpyArray& image = pair.npz->array("image");
    return std::hash<std::string_view>{}(image.data);
  }
  return std::hash<std::string_view>{}(pair.xml_bytes);
}

}  // namespace rave::jobs
