#include "apps/commands.hpp"

namespace rave::apps {

std::vector<Adder> rave_subcommands() {
  return {add_demo,          add_generate,     add_render,          add_show,
          add_train_forward, add_eval_forward, add_convert,         add_parse,
          add_solve,         add_perceive,     add_check,           add_export,
          add_score,         add_probes,       add_harness_answers, add_study};
}

}  // namespace rave::apps
