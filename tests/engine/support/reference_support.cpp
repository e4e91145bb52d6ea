#include "tests/engine/support/reference_support.hpp"

#include <map>
#include <stdexcept>

#include "common/atomic_file.hpp"
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

std::filesystem::path reference_set_dir(std::string_view set) {
  static std::map<std::string, std::filesystem::path, std::less<>> made;
  if (const auto it = made.find(set); it != made.end()) return it->second;
  const std::filesystem::path dir = ::rave::testing::scratch_dir(std::string(set) + "-reference");
  for (const auto& ref : ::rave::testing::reference_problems(set)) {
    const auto relative =
        std::filesystem::relative(ref.xml, ::rave::testing::reference_fixtures_dir() / ref.set);
    const std::string npz = rebuild_npz(ref, read_reference_problem(ref));
    if (::rave::testing::sha256_hex(npz) != ref.npz_sha256)
      throw std::runtime_error(ref.xml.string() + ": the re-created npz differs from the original");
    std::filesystem::create_directories((dir / relative).parent_path());
    write_file_atomic(dir / relative, read_file(ref.xml));
    write_file_atomic((dir / relative).replace_extension(".npz"), npz);
  }
  return made.emplace(std::string(set), dir).first->second;
}

}  // namespace rave::engine::testing
