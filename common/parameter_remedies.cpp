#include "common/parameter_remedies.hpp"

namespace rave {

std::string remedies_as(const std::vector<std::string>& remedies, const std::string& prefix,
                        const std::string& underscore) {
  std::string out;
  for (const std::string& name : remedies) {
    std::string shown = prefix + name;
    if (!underscore.empty())
      for (std::size_t at = shown.find('_'); at != std::string::npos; at = shown.find('_', at)) {
        shown.replace(at, 1, underscore);
        at += underscore.size();
      }
    out += (out.empty() ? " (" : ", ") + shown;
  }
  return out.empty() ? out : out + ")";
}

}  // namespace rave
