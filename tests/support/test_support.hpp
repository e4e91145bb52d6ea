#pragma once
// Helpers shared by the test executables: the reference problems kept as fixtures in the
// repository (tests/fixtures/README.md), the source tree, and a scratch folder per test.
//
//   for (const auto& ref : reference_problems("raven")) {  // the XML fixture, its manifest line
//     Problem p = read_problem_xml(ref.xml);
//     EXPECT_EQ(sha256_hex(render_all(p)), ref.image_sha256);
//   }
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rave::testing {

/// One original problem: its XML kept in the repository and what
/// tests/fixtures/reference/manifest.json records of the npz beside it in the original output (the
/// npz itself is not kept).
struct ReferenceProblem {
  std::string set;  ///< "raven", "iraven" or "fair"
  std::filesystem::path
      xml;                 ///< tests/fixtures/reference/<set>/<configuration>/RAVEN_<k>_<split>.xml
  std::string xml_sha256;  ///< of the original XML (the fixture is a byte copy)
  std::string npz_sha256;  ///< of the whole original npz file
  std::size_t npz_bytes = 0;       ///< its size
  std::string image_sha256;        ///< of the raw bytes of its `image` array (16 x 160 x 160 uint8)
  int target = 0;                  ///< npz `target`: the answer's index among the candidates
  int predict = 0;                 ///< npz `predict`: the original solver's choice
  bool predict_as_vector = false;  ///< `predict` has shape (1,) (RAVEN-FAIR) instead of ()
  bool compressed = false;         ///< the members are deflated (numpy.savez_compressed)
};

/// tests/fixtures/reference: the XML fixtures (<set>/<configuration>/RAVEN_<k>_<split>.xml) and
/// manifest.json.
std::filesystem::path reference_fixtures_dir();
/// The manifest's problems of one set ("raven", "iraven" or "fair": the original RAVEN, I-RAVEN and
/// RAVEN-FAIR generators' problems), in path order. Throws std::runtime_error when the manifest or
/// a fixture is missing: a broken checkout is a failure, never a skip.
std::vector<ReferenceProblem> reference_problems(std::string_view set);
/// Lower-case hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);
/// The repository root (for data/ and tests/data/).
std::filesystem::path source_dir();
/// A fresh empty folder under the system temp dir, unique per call.
std::filesystem::path scratch_dir(const std::string& tag);
/// Every regular file under `dir` (path relative to it) with its bytes.
std::map<std::string, std::string> file_tree(const std::filesystem::path& dir);
/// The Python with numpy (RAVE_PYTHON, else the repository's .venv from scripts/setup.sh), when
/// present (for the numpy reader checks).
std::optional<std::string> python_with_numpy();

}  // namespace rave::testing
