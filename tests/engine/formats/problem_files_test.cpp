// read_problem of an XML takes the answer from the npz beside it when there is one (a regular
// file), else from I-RAVEN's modifications; a broken npz is an error naming it, not a silent
// fallback.
#include "engine/formats/problem_files.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "tests/engine/support/reference_support.hpp"

namespace rave::engine {
namespace {

namespace fs = std::filesystem;

// `problem`'s XML (from the set's folder) copied alone into a fresh folder.
fs::path lone_xml(const fs::path& set_dir, const std::string& stem, const std::string& tag) {
  const fs::path dir = rave::testing::scratch_dir(tag);
  fs::copy_file(set_dir / "center_single" / (stem + ".xml"), dir / (stem + ".xml"));
  return dir / (stem + ".xml");
}

TEST(ProblemFiles, TheNpzBesideAnXmlGivesTheAnswer) {
  const auto refs = rave::testing::reference_problems("raven");
  const fs::path set = testing::reference_set_dir("raven");
  const auto& ref = refs.front();
  const fs::path xml = set / ref.xml.parent_path().filename() / ref.xml.filename();
  const Problem p = read_problem(xml);
  ASSERT_TRUE(p.target);
  EXPECT_EQ(*p.target, ref.target);
  EXPECT_EQ(p.predict, std::optional<int>(ref.predict));
  EXPECT_FALSE(read_problem(xml, TargetSource::kNone).target);
}

TEST(ProblemFiles, WithoutAnNpzTheModificationsNameTheAnswer) {
  const fs::path iraven = testing::reference_set_dir("iraven");
  const Problem with_npz = read_problem(iraven / "center_single" / "RAVEN_0_train.xml");
  const fs::path xml = lone_xml(iraven, "RAVEN_0_train", "lone-iraven");
  EXPECT_EQ(read_problem(xml).target, with_npz.target);
  // A folder or a FIFO where the npz would be is no npz either.
  fs::create_directory(fs::path(xml).replace_extension(".npz"));
  EXPECT_EQ(read_problem(xml).target, with_npz.target);
  const fs::path raven_xml =
      lone_xml(testing::reference_set_dir("raven"), "RAVEN_0_train", "lone-raven");
  EXPECT_FALSE(read_problem(raven_xml).target);  // RAVEN's XML has no modifications
}

TEST(ProblemFiles, ABrokenNpzIsAnErrorNamingIt) {
  const fs::path set = testing::reference_set_dir("raven");
  const fs::path xml = lone_xml(set, "RAVEN_0_train", "broken-npz");
  const fs::path npz = fs::path(xml).replace_extension(".npz");
  const std::string bytes = read_file(set / "center_single" / "RAVEN_0_train.npz");
  write_file_atomic(npz, bytes.substr(0, bytes.size() - 100));  // the central directory cut off
  try {
    read_problem(xml);
    FAIL() << "read a truncated npz";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), npz.string()) << e.what();
  }
}

// The walk lists problem files in path order (component by component, as path::operator< orders
// them), and a problem file is one whose extension (path::extension) is .xml or .asig.
TEST(ProblemFiles, AWalkListsProblemFilesInPathOrder) {
  const fs::path dir = rave::testing::scratch_dir("walk-order");
  const std::vector<std::string> names{
      "a/x.xml",   "a-b/x.xml", "a.b/x.xml",  "a b/x.xml", "a/b/c.xml",   "a/b.xml",
      "ab/x.xml",  "a/x.asig",  "A/x.xml",    "a/.xml",    "a/x.xml.bak", "a/x.XML",
      "a/..x.xml", "a0/x.xml",  "a/b-/y.xml", "a/b/.z",    "a/b/z.",      "\xc3\xa9/x.xml"};
  for (const std::string& name : names) {
    fs::create_directories((dir / name).parent_path());
    write_file_atomic(dir / name, std::string("x"));
  }
  std::vector<fs::path> expected;
  for (const std::string& name : names) {
    const fs::path p = dir / name;
    if (p.extension() == ".xml" || p.extension() == ".asig") expected.push_back(p);
    EXPECT_EQ(is_problem_file(p), p.extension() == ".xml" || p.extension() == ".asig") << name;
  }
  std::sort(expected.begin(), expected.end());
  for (const fs::path& root : {dir, fs::path(dir.string() + "/")}) {
    std::vector<fs::path> got = collect_problem_files({root});
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      EXPECT_EQ(got[i].lexically_normal(), expected[i].lexically_normal()) << i;
  }
  EXPECT_FALSE(is_problem_file(".."));
  EXPECT_FALSE(is_problem_file("a/"));
}

}  // namespace
}  // namespace rave::engine
