#include "apps/commands.hpp"

namespace rave::apps {

std::vector<Adder> subcommands() {
  return {
      add_demo, add_generate, add_render, add_show,
#ifdef RAVE_HAVE_NEURAL
      add_train, add_eval,  // apps/train.cpp, apps/eval.cpp
#endif
      add_convert,  // apps/convert.cpp
      add_parse,    // apps/parse.cpp
#ifdef RAVE_HAVE_SOLVER
      add_solve, add_check,  // apps/solve.cpp, apps/check.cpp
#endif
  };
}

}  // namespace rave::apps
