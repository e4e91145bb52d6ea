#include "apps/commands.hpp"

namespace rave::apps {

std::vector<Adder> subcommands() {
  return {
      add_demo, add_generate, add_render, add_show,
      add_convert,  // apps/convert.cpp
      add_parse,    // apps/parse.cpp
  };
}

}  // namespace rave::apps
