// Item ids and splits: the path below the set's root without extension, however the root is
// spelled (the walk's paths are cut from the text; others are normalised), and the split a file
// name's suffix names.
#include "evaluation/items.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "tests/support/test_support.hpp"

namespace rave::evaluation {
namespace {

namespace fs = std::filesystem;

// What an id is by definition: the lexically normal path relative to the root, extension dropped.
std::string reference_id(const fs::path& root, const fs::path& file) {
  fs::path relative = file.lexically_normal().lexically_relative(root.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") relative = file.filename();
  return relative.replace_extension().generic_string();
}

TEST(Items, IdsAreThePathBelowTheRootHoweverItIsSpelled) {
  const fs::path dir = testing::scratch_dir("item-ids");
  fs::create_directories(dir / "center_single");
  fs::create_directories(dir / "odd.folder" / ".hidden");
  for (const char* name : {"center_single/RAVEN_0_train.xml", "odd.folder/a.b.xml",
                           "odd.folder/.hidden/.xml", "odd.folder/noext"})
    std::ofstream(dir / name) << "x";
  const std::string d = dir.string();
  for (const std::string& root :
       {d, d + "/", d + "//", d + "/.", d + "/./", d + "/odd.folder/.."}) {
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file()) continue;
      EXPECT_EQ(item_id(root, entry.path()), reference_id(root, entry.path()))
          << root << " " << entry.path();
    }
    // Paths not made by a walk of this spelling of the root.
    for (const fs::path& file : {dir / "center_single" / ".." / "odd.folder" / "a.b.xml",
                                 dir / "." / "center_single" / "RAVEN_0_train.xml",
                                 fs::path("/elsewhere/RAVEN_1_val.xml")})
      EXPECT_EQ(item_id(root, file), reference_id(root, file)) << root << " " << file;
  }
  EXPECT_EQ(item_id(dir, dir / "center_single" / "RAVEN_0_train.xml"),
            "center_single/RAVEN_0_train");
  EXPECT_EQ(item_id(dir / "center_single" / "RAVEN_0_train.xml",
                    dir / "center_single" / "RAVEN_0_train.xml"),
            "RAVEN_0_train");  // a file as the root: its stem
}

TEST(Items, TheSplitIsTheOneTheFileNameSays) {  // the name's rules: engine/formats/layout_test
  EXPECT_EQ(named_split("a/RAVEN_3_val.xml"), "val");
  EXPECT_EQ(named_split("RAVEN_3_train.asig"), "train");
  EXPECT_EQ(named_split("x_val/RAVEN_3.xml"), "");  // the folder does not count
}

TEST(Items, AFolderWithoutProblemsIsNamedInTheError) {
  const fs::path dir = testing::scratch_dir("item-none");
  std::ofstream(dir / "notes.txt") << "no problem here";
  try {
    problem_files_under(dir);
    FAIL() << "no error for a folder without problems";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(dir.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no problems here"), std::string::npos) << e.what();
  }
}

TEST(Items, ARepeatedIdNamesBothFiles) {
  const std::vector<fs::path> files{"d/RAVEN_0_train.xml", "d/RAVEN_1_train.xml",
                                    "d/RAVEN_0_train.asig"};
  UniqueIds ids(files);
  ids.take("RAVEN_0_train", 0);
  ids.take("RAVEN_1_train", 1);
  try {
    ids.take("RAVEN_0_train", 2);
    FAIL() << "no error for a repeated id";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("d/RAVEN_0_train.asig"), std::string::npos) << what;
    EXPECT_NE(what.find("has the id RAVEN_0_train of d/RAVEN_0_train.xml"), std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace rave::evaluation
