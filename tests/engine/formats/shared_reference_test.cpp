// Optional: the fixtures in tests/fixtures/reference against the original generators' output with
// its npz files (../shared/data), built only when that folder existed at configure time
// (tests/CMakeLists.txt). Every XML fixture is a byte copy, every original npz has the manifest's
// sha256, size and fields, the manifest lists every original problem, and the original files,
// decoded by our reader, hold the images the renderer draws.
#ifdef RAVE_SHARED_DATA_DIR
#include <gtest/gtest.h>

#include "common/atomic_file.hpp"
#include "engine/formats/npz.hpp"
#include "tests/engine/support/reference_support.hpp"

namespace rave::engine {
namespace {

namespace fs = std::filesystem;

// <shared>/data/<set>-reference/<configuration>/RAVEN_<k>_<split>.<extension> of a fixture.
fs::path original(const ::rave::testing::ReferenceProblem& ref, const char* extension) {
  const fs::path relative =
      fs::relative(ref.xml, ::rave::testing::reference_fixtures_dir() / ref.set);
  return fs::path(RAVE_SHARED_DATA_DIR) / (ref.set + "-reference") / relative.parent_path() /
         relative.filename().replace_extension(extension);
}

int count_npz(const fs::path& dir) {
  int n = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    n += entry.path().extension() == ".npz";
  return n;
}

class SharedReference : public ::testing::TestWithParam<std::string> {};

TEST_P(SharedReference, FixturesAndManifestMatchTheOriginalFiles) {
  const auto refs = ::rave::testing::reference_problems(GetParam());
  EXPECT_EQ(static_cast<int>(refs.size()),
            count_npz(fs::path(RAVE_SHARED_DATA_DIR) / (GetParam() + "-reference")));
  for (const auto& ref : refs) {
    SCOPED_TRACE(ref.xml.string());
    EXPECT_EQ(read_file(original(ref, ".xml")), read_file(ref.xml));
    const std::string bytes = read_file(original(ref, ".npz"));
    EXPECT_EQ(bytes.size(), ref.npz_bytes);
    EXPECT_EQ(::rave::testing::sha256_hex(bytes), ref.npz_sha256);
    const NpzFile npz = parse_npz(bytes, original(ref, ".npz").string());
    EXPECT_EQ(npz.target(), ref.target);
    EXPECT_EQ(npz.predict(), ref.predict);
    EXPECT_EQ(npz.array("predict").shape.size(), ref.predict_as_vector ? 1u : 0u);
    const auto image = npz.image();
    const std::string pixels(image.begin(), image.end());
    EXPECT_EQ(::rave::testing::sha256_hex(pixels), ref.image_sha256);
    EXPECT_TRUE(pixels == testing::render_image(testing::read_reference_problem(ref)));
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, SharedReference, ::testing::Values("raven", "iraven", "fair"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace rave::engine
#endif  // RAVE_SHARED_DATA_DIR
