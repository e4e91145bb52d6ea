// ParameterErrorWithRemedies: the parameter and its remedies as the libraries name them, for each face to spell.
#include "common/parameter_remedies.hpp"

#include <gtest/gtest.h>

namespace rave {
namespace {

TEST(ParameterError, NamesItsRemediesInTheLibrariesWords) {
  const ParameterErrorWithRemedies e("values", " 100 cannot be drawn", {"style", "symbolic_only"});
  EXPECT_STREQ(e.what(), "values 100 cannot be drawn (style, symbolic_only)");
  EXPECT_EQ(e.bare_rest(), " 100 cannot be drawn");
  EXPECT_EQ(e.parameter(), "values");
  EXPECT_EQ(e.remedies(), (std::vector<std::string>{"style", "symbolic_only"}));
}

TEST(ParameterError, EachFaceSpellsTheRemediesItsOwnWay) {
  EXPECT_EQ(remedies_as({"style", "symbolic_only"}, "--", "-"), " (--style, --symbolic-only)");
  EXPECT_EQ(remedies_as({"a_b_c"}, "", "__"), " (a__b__c)");
  EXPECT_EQ(remedies_as({}, "--", "-"), "");
  EXPECT_STREQ(ParameterError("shard", " K/N takes 1 <= K <= N").what(),
               "shard K/N takes 1 <= K <= N");
}

}  // namespace
}  // namespace rave
