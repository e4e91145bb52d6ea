#include "apps/commands.hpp"

namespace rave::apps {

std::vector<Adder> neural_subcommands() { return {add_train, add_eval}; }

}  // namespace rave::apps
