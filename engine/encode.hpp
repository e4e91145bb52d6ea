#pragma once
// A problem's files, drawn and encoded: the one place where the renderer (engine/render) meets the
// file formats (engine/formats), which know nothing of each other. The XML's `real_bbox` and `mask`
// and the npz `image` both come from the renderer.
//
//   ProblemFiles f = encode_problem_files(generate_problem(id, AnswerStrategy::kRaven, 1234, 0));
//   write_problem_files("out/center_single", "RAVEN_0_train", f);
#include <filesystem>
#include <string>

#include "engine/formats/xml_io.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// The two files of one problem, rendered and encoded in memory.
struct ProblemFiles {
  std::string npz;
  std::string xml;
};

/// The XML of a problem with the renderer's entity marks (formats' writer with render's marks); a
/// problem whose levels have no drawing (docs/variants.md) is written without them.
std::string write_problem_xml(const Problem& problem);
/// How a problem's files are written.
struct EncodeOptions {
  bool compress = false;  ///< deflate the npz (numpy.savez_compressed)
  bool predict_as_vector =
      false;                   ///< predict with shape (1,), as the RAVEN-FAIR generator writes it
  bool symbolic_only = false;  ///< no `image` member, no Entity `real_bbox` and `mask`
};
/// Renders the panels in the problem's style and encodes the npz and the XML of a problem; an
/// original-style problem whose levels have no drawing (docs/variants.md) is written symbolic
/// only; a render style that cannot draw the problem throws UsageError (style_defect).
ProblemFiles encode_problem_files(const Problem& problem, const EncodeOptions& options = {});
/// Writes `<dir>/<stem>.npz` and `.xml` atomically as a pair: if either fails, neither survives.
void write_problem_files(const std::filesystem::path& dir, const std::string& stem,
                         const ProblemFiles& files);

}  // namespace rave::engine
