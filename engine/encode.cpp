#include "engine/encode.hpp"

#include <span>
#include <system_error>
#include <vector>

#include "common/atomic_file.hpp"
#include "engine/formats/npz.hpp"
#include "engine/render/render.hpp"

namespace rave::engine {

std::string write_problem_xml(const Problem& problem) {
  // real_bbox and mask are the original drawing's; a render style's files have none.
  const bool marks = problem.style.is_original() && problem.variant.drawable();
  return write_problem_xml(problem, marks ? entity_marks : nullptr);
}

ProblemFiles encode_problem_files(const Problem& problem, const EncodeOptions& options) {
  ProblemFiles files;
  if (options.symbolic_only || (problem.style.is_original() && !problem.variant.drawable())) {
    encode_problem_npz(files.npz, problem, std::span<const Image>(), options.compress,
                       options.predict_as_vector);
    files.xml = write_problem_xml(problem, nullptr);
    return files;
  }
  thread_local PanelStack panels;  // 400 KB and more per problem: kept, not reallocated
  render_problem(problem, panels);
  encode_stack_npz(files.npz, problem, panels, options.compress, options.predict_as_vector);
  files.xml = write_problem_xml(problem);
  return files;
}

void write_problem_files(const std::filesystem::path& dir, const std::string& stem,
                         const ProblemFiles& files) {
  const auto npz = dir / (stem + ".npz");
  write_file_atomic(npz, std::span<const char>(files.npz.data(), files.npz.size()));
  try {
    write_file_atomic(dir / (stem + ".xml"), files.xml);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(npz, ec);  // a problem is its two files: keep neither on failure
    throw;
  }
}

}  // namespace rave::engine
