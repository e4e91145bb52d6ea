#include "tests/engine/support/reference_support.hpp"

#include "engine/formats/npz.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/render/render.hpp"

namespace rave::engine::testing {

Problem read_reference_problem(const ::rave::testing::ReferenceProblem& ref) {
  Problem p = read_problem_xml(ref.xml);
  p.target = ref.target;
  p.predict = ref.predict;
  return p;
}

std::vector<Problem> read_reference_problems(std::string_view set) {
  std::vector<Problem> out;
  for (const auto& ref : ::rave::testing::reference_problems(set))
    out.push_back(read_reference_problem(ref));
  return out;
}

std::string render_image(const Problem& problem) {
  std::string out;
  for (const Image& panel : render_problem(problem)) out.append(panel.begin(), panel.end());
  return out;
}

std::string rebuild_npz(const ::rave::testing::ReferenceProblem& ref, const Problem& problem) {
  std::string out;
  encode_problem_npz(out, problem, render_problem(problem), ref.compressed, ref.predict_as_vector);
  return out;
}

}  // namespace rave::engine::testing
