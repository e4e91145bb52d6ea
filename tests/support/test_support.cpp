#include "tests/support/test_support.hpp"

#include "common/atomic_file.hpp"

#include <openssl/evp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace rave::testing {
namespace {

nlohmann::json read_manifest() {
  const auto path = reference_fixtures_dir() / "manifest.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot open the reference manifest");
  try {
    return nlohmann::json::parse(in).at("problems");
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

// One manifest line; `file` is "<set>/<configuration>/RAVEN_<k>_<split>".
ReferenceProblem from_json(const nlohmann::json& j) {
  const auto file = j.at("file").get<std::string>();
  return ReferenceProblem{
      .set = file.substr(0, file.find('/')),
      .xml = reference_fixtures_dir() / (file + ".xml"),
      .xml_sha256 = j.at("xml_sha256").get<std::string>(),
      .npz_sha256 = j.at("npz_sha256").get<std::string>(),
      .npz_bytes = j.at("npz_bytes").get<std::size_t>(),
      .image_sha256 = j.at("image_sha256").get<std::string>(),
      .target = j.at("target").get<int>(),
      .predict = j.at("predict").get<int>(),
      .predict_as_vector = !j.at("predict_shape").empty(),
      .compressed = j.at("compressed").get<bool>(),
  };
}

}  // namespace

std::filesystem::path reference_fixtures_dir() {
  return source_dir() / "tests" / "fixtures" / "reference";
}

std::vector<ReferenceProblem> reference_problems(std::string_view set) {
  std::vector<ReferenceProblem> out;
  try {
    for (const auto& line : read_manifest())
      if (ReferenceProblem ref = from_json(line); ref.set == set) out.push_back(std::move(ref));
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("tests/fixtures/reference/manifest.json: " + std::string(e.what()));
  }
  for (const auto& ref : out)
    if (!std::filesystem::is_regular_file(ref.xml))
      throw std::runtime_error(ref.xml.string() + ": fixture missing");
  if (out.empty())
    throw std::runtime_error("no reference problems of set '" + std::string(set) +
                             "' in the manifest");
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.xml < b.xml; });
  return out;
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("EVP_Digest(sha256) failed");
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) hex += {kDigits[digest[i] >> 4], kDigits[digest[i] & 15]};
  return hex;
}

std::filesystem::path source_dir() { return RAVE_SOURCE_DIR; }

std::map<std::string, std::string> file_tree(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file())
      files[std::filesystem::relative(entry.path(), dir).string()] = read_file(entry.path());
  return files;
}

std::filesystem::path scratch_dir(const std::string& tag) {
  static std::atomic<int> counter{0};
  auto dir =
      std::filesystem::temp_directory_path() /
      ("rave-test-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::optional<std::string> python_with_numpy() {
  const char* env = std::getenv("RAVE_PYTHON");
  const std::string candidate = env && *env ? env : RAVE_SOURCE_DIR "/.venv/bin/python";
  const std::string command = candidate + " -c 'import numpy' >/dev/null 2>&1";
  if (std::system(command.c_str()) == 0) return candidate;
  return std::nullopt;
}

}  // namespace rave::testing
