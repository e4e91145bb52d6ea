#include "apps/commands.hpp"

namespace rave::apps {

std::vector<Adder> subcommands() {
  return {
      add_demo, add_generate, add_render, add_show,
  };
}

}  // namespace rave::apps
