#pragma once
// What `rave check` verifies in every problem's pair of files without any manifest
// (docs/dataset.md#what-every-problem-gets): the npz's members exactly the RAVEN keys, each once;
// its pixels equal to its XML re-rendered, panel by panel; meta_matrix, meta_target, structure and
// meta_structure equal to what the XML's rules and configuration give; the configuration the one
// its folder names; an I-RAVEN answer the one its modifications reveal; and a content hash of the
// pixels, so that one problem twice in a dataset (a train/test leak, a hard link) is found. The
// two files are read once; the replay of the generator (jobs/dataset_replay.hpp) and the solver's
// audit (jobs/problem_check.hpp) use what was read.
//
//   ProblemPair pair = read_problem_pair("set/center_single/RAVEN_3_train.xml");
//   for (const std::string& d : content_defects(pair)) puts(d.c_str());  // "panel 4 ..."
//   std::uint64_t key = content_hash(pair);
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/formats/npz.hpp"
#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"

namespace rave::jobs {

/// A problem's XML and the npz beside it, read and parsed once.
struct ProblemPair {
  std::filesystem::path xml_path;
  engine::Problem problem;             ///< from the XML; target and predict from the npz
  std::string xml_bytes, npz_bytes;    ///< the files as read (npz_bytes empty without an npz)
  std::optional<engine::NpzFile> npz;  ///< none: no npz beside the XML
  engine::PanelStack images;           ///< the XML re-rendered in its style; empty: nothing drawn
};

/// Reads `xml` and its sibling npz (an absent npz is a defect, not an error; the answer then comes
/// from I-RAVEN's modifications, if any). Throws InputError naming the file for anything
/// unreadable, as engine::read_problem does.
ProblemPair read_problem_pair(const std::filesystem::path& xml);
/// Renders the XML's panels in its style into pair.images when the npz holds an image and the
/// style draws the XML's levels; returns whether it did.
bool render_pair(ProblemPair& pair);
/// The pair's defects, one phrase each (empty when its files agree): the npz missing, its member
/// list, its pixels against pair.images (render_pair first), its meta_* and structure against the
/// XML, the configuration against the folder, an I-RAVEN answer against its modifications.
std::vector<std::string> content_defects(const ProblemPair& pair);
/// A 64-bit hash of what the problem shows: its npz pixels, or its XML panels when it has none.
std::uint64_t content_hash(const ProblemPair& pair);

}  // namespace rave::jobs
