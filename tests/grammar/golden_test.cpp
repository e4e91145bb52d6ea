// Golden-file tests of the sentence parser (STYLE-ANCHORS 4): every
// tests/data/grammar/<name>.sentence has a <name>.expect holding either the parsed tree
// (write_indented) or the exact error text (SyntaxError::detailed()). Files named error_* must
// fail, the others must parse. Regenerate after a deliberate change with RAVE_UPDATE_GOLDEN=1, then
// review the diff.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "common/atomic_file.hpp"
#include "grammar/parse.hpp"
#include "grammar/writer.hpp"
#include "tests/support/test_support.hpp"

namespace rave::grammar {
namespace {

namespace fs = std::filesystem;

fs::path golden_dir() { return rave::testing::source_dir() / "tests" / "data" / "grammar"; }

std::vector<fs::path> sentence_files() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(golden_dir()))
    if (entry.path().extension() == ".sentence") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

// What the parser makes of a golden input: the indented tree, or the detailed error.
std::string actual_output(const fs::path& input, bool& failed) {
  const std::string text = read_file(input);
  try {
    failed = false;
    return write_indented(parse_sentence(text, input.filename().string()));
  } catch (const SyntaxError& e) {
    failed = true;
    return e.detailed() + "\n";
  }
}

TEST(Golden, EverySentenceMatchesItsExpectFile) {
  const bool update = std::getenv("RAVE_UPDATE_GOLDEN") != nullptr;
  const auto inputs = sentence_files();
  ASSERT_GE(inputs.size(), 40u) << "golden files missing under " << golden_dir();
  for (const auto& input : inputs) {
    SCOPED_TRACE(input.filename().string());
    bool failed = false;
    const std::string actual = actual_output(input, failed);
    EXPECT_EQ(failed, input.stem().string().starts_with("error_")) << actual;
    auto expect_path = input;
    expect_path.replace_extension(".expect");
    if (update) write_file_atomic(expect_path, std::string_view(actual));
    ASSERT_TRUE(fs::exists(expect_path)) << "no " << expect_path.filename();
    EXPECT_EQ(actual, read_file(expect_path));
  }
}

TEST(Golden, SuccessfulSentencesSurviveTheWriter) {
  for (const auto& input : sentence_files()) {
    if (input.stem().string().starts_with("error_")) continue;
    SCOPED_TRACE(input.filename().string());
    const Tree tree = parse_sentence(read_file(input));
    const std::string canonical = write_sentence(tree);
    EXPECT_TRUE(same_tree(parse_sentence(canonical), tree));
    EXPECT_EQ(write_sentence(parse_sentence(canonical)), canonical);
  }
}

}  // namespace
}  // namespace rave::grammar
