// `rave parse`: parse an A-SIG sentence (given as text, or a file holding one) and print its tree,
// indented, or the syntax error with the source line and a caret.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "apps/commands.hpp"
#include "common/atomic_file.hpp"
#include "grammar/parse.hpp"
#include "grammar/writer.hpp"

namespace rave::apps {
namespace {

struct ParseArgs {
  std::string source;
  bool sentence = false;
};

int run_parse(const ParseArgs& args) {
  std::error_code ec;
  const bool is_file = std::filesystem::is_regular_file(args.source, ec);
  const std::string text = is_file ? read_file(args.source) : args.source;
  try {
    const grammar::Tree tree = grammar::parse_sentence(text, is_file ? args.source : "<argument>");
    const std::string out =
        args.sentence ? grammar::write_sentence(tree) + "\n" : grammar::write_indented(tree);
    std::fputs(out.c_str(), stdout);
    return 0;
  } catch (const grammar::SyntaxError& e) {  // this command's output is the located error itself
    std::fprintf(stderr, "rave: error: %s\n", e.detailed().c_str());
    return 1;
  }
}

}  // namespace

Runner add_parse(CLI::App& app) {
  auto args = std::make_shared<ParseArgs>();
  auto* cmd = app.add_subcommand(
      "parse",
      "Parse an A-SIG sentence (structure or attributed, e.g. 'Scene Singleton Grid "
      "Center_Single / / / /') and print its tree, or the error with a caret.");
  cmd->add_option("sentence", args->source, "The sentence, or a file holding one")->required();
  cmd->add_flag("--sentence", args->sentence,
                "Print the canonical one-line sentence instead of the tree");
  return [args] { return run_parse(*args); };
}

}  // namespace rave::apps
