#include "common/pyformat.hpp"

#include <gtest/gtest.h>

namespace rave {
namespace {

TEST(PyFormat, MatchesPythonRepr) {
  EXPECT_EQ(format_py_float(0.5), "0.5");
  EXPECT_EQ(format_py_float(1.0), "1.0");
  EXPECT_EQ(format_py_float(0.0), "0.0");
  EXPECT_EQ(format_py_float(-0.0), "-0.0");
  EXPECT_EQ(format_py_float(0.4312), "0.4312");
  EXPECT_EQ(format_py_float(0.0001), "0.0001");
  EXPECT_EQ(format_py_float(0.00001), "1e-05");
  EXPECT_EQ(format_py_float(123.25), "123.25");
  EXPECT_EQ(format_py_float(1e16), "1e+16");
  EXPECT_EQ(format_py_float(1234567890123456.0), "1234567890123456.0");
  EXPECT_EQ(format_py_float(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_py_float(0.33 * 160 / 2), "26.400000000000002");
}

TEST(PyFormat, TenthsAreTheReprOfTheQuotient) {
  const auto tenths = [](long long k) {
    std::string out;
    append_py_tenths(out, k);
    return out;
  };
  for (long long k = -20000; k <= 20000; ++k) ASSERT_EQ(tenths(k), format_py_float(k / 10.0)) << k;
  for (long long k = 1; k < 1'000'000'000'000'000'000; k = k * 7 + 3)
    for (long long s : {k, -k})
      ASSERT_EQ(tenths(s), format_py_float(static_cast<double>(s) / 10.0));
  EXPECT_EQ(tenths(3), "0.3");
  EXPECT_EQ(tenths(10), "1.0");
  EXPECT_EQ(tenths(-125), "-12.5");
}

TEST(PyFormat, NumpyRoundIsHalfToEven) {
  EXPECT_EQ(numpy_round(0.71875, 4), 0.7188);
  EXPECT_EQ(numpy_round(0.15625, 4), 0.1562);
  EXPECT_EQ(numpy_round(0.41875, 4), 0.4188);  // as numpy 1.24: 4187.5 * ... rounds up here
  EXPECT_EQ(numpy_round(0.5, 0), 0.0);
  EXPECT_EQ(numpy_round(1.5, 0), 2.0);
}

}  // namespace
}  // namespace rave
