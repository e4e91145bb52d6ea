#pragma once
// A wrong parameter value that other parameters would mend (values too many to draw: another
// `style`, or `symbolic_only`). The library names them as it names its parameters; each face spells
// them its own way (`--style`, `--symbolic-only` on the command line, keywords in Python), as it
// spells the ParameterError's own parameter (common/error.hpp).
//
//   throw ParameterErrorWithRemedies("values", " 100 cannot be drawn", {"style", "symbolic_only"});
//   // what(): "values 100 cannot be drawn (style, symbolic_only)"
//   remedies_as(e.remedies(), "--", "-");  // " (--style, --symbolic-only)", for the command line
#include <string>
#include <vector>

#include "common/error.hpp"

namespace rave {

/// " (a, b)" for remedies {a, b}, each written as prefix + name with '_' turned into `underscore`
/// when that is not empty; "" when there are none.
std::string remedies_as(const std::vector<std::string>& remedies, const std::string& prefix,
                        const std::string& underscore);

/// A ParameterError with the parameters that would mend it; what() lists them after the rest.
class ParameterErrorWithRemedies : public ParameterError {
 public:
  ParameterErrorWithRemedies(std::string parameter, const std::string& rest,
                             std::vector<std::string> remedies)
      : ParameterError(std::move(parameter), rest + remedies_as(remedies, "", "")),
        bare_rest_(rest),
        remedies_(std::move(remedies)) {}
  /// The rest without the remedies (ParameterError::rest() holds them in the library's words).
  const std::string& bare_rest() const { return bare_rest_; }
  const std::vector<std::string>& remedies() const { return remedies_; }

 private:
  std::string bare_rest_;
  std::vector<std::string> remedies_;
};

}  // namespace rave
