#include "common/version.hpp"

namespace rave {

std::string_view version() { return RAVE_VERSION; }

}  // namespace rave
