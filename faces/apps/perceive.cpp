// `rave perceive`: read problems from their npz images alone (perception/perceive.hpp) and write
// what was read as RAVEN XML without rules (`-o`), or print it panel by panel. A file whose panels
// are not RAVEN renderings is one error line; the others are still read.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/perception_text.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/encode.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "jobs/batch.hpp"

namespace rave::apps {
namespace {

namespace fs = std::filesystem;

struct PerceiveArgs {
  std::vector<std::string> paths;
  std::string output;
  bool json = false;
};

// An npz to read and where its XML goes (empty: print instead).
struct Job {
  fs::path npz, xml;
};

// Files as given (-o names the XML for a single file, else a folder for <name>.xml); folders
// walked, their XML mirroring the folder's layout under -o.
std::vector<Job> jobs_for(const PerceiveArgs& args) {
  std::vector<Job> jobs;
  const bool single = args.paths.size() == 1 && !fs::is_directory(args.paths.front());
  for (const fs::path input : args.paths)
    for (const fs::path& npz : engine::collect_problem_files(
             {input}, [](const fs::path& f) { return f.extension() == ".npz"; })) {
      fs::path xml;
      if (single)
        xml = args.output;
      else if (!args.output.empty())
        xml = (fs::path(args.output) /
               (fs::is_directory(input) ? npz.lexically_relative(input) : npz.filename()))
                  .replace_extension(".xml");
      jobs.push_back(Job{npz, xml});
    }
  return jobs;
}

// Reads one npz; throws InputError when its panels are not read (nothing is written then).
void perceive_one(const Job& job, const PerceiveArgs& args) {
  const engine::NpzFile file = engine::read_npz(job.npz, {"image"});
  const perception::PerceivedProblem p = jobs::perceive_npz(file, jobs::recorded_drawing(job.npz));
  if (args.json) {
    nlohmann::ordered_json j{{"file", job.npz.string()}, {"perception", cli::perception_json(p)}};
    std::printf("%s\n", j.dump().c_str());
  } else if (job.xml.empty()) {
    std::printf("%s:\n", job.npz.string().c_str());
    for (const auto& line : cli::parse_lines(p)) std::printf("  %s\n", line.c_str());
  }
  if (!p.recognised) throw InputError(job.npz.string(), "image", p.failure);
  if (job.xml.empty()) return;
  if (job.xml.has_parent_path()) fs::create_directories(job.xml.parent_path());
  write_file_atomic(job.xml, engine::write_problem_xml(p.problem()));
}

int run_perceive(const PerceiveArgs& args) {
  const std::vector<Job> jobs = jobs_for(args);
  if (jobs.empty()) throw UsageError("no .npz files under the given paths");
  int errors = 0;
  for (const Job& job : jobs) {
    try {
      perceive_one(job, args);
    } catch (const InputError& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "rave: error: %s\n", e.what());
      ++errors;
    }
  }
  return errors > 0 ? 1 : 0;
}

}  // namespace

Runner add_perceive(CLI::App& app) {
  auto args = std::make_shared<PerceiveArgs>();
  auto* cmd = app.add_subcommand("perceive",
                                 "Read problems from their npz images alone: the configuration, "
                                 "and every panel's entities by\n"
                                 "analysis by synthesis with rave's byte-exact renderer. Writes "
                                 "RAVEN XML without rules (-o), or\n"
                                 "prints the panels (a reading that renders identically shown as "
                                 "alternatives, e.g. Size 2|3).");
  cmd->add_option("paths", args->paths, "npz files or folders (walked recursively)")->required();
  cmd->add_option("-o,--output", args->output,
                  "XML file to write (one npz), or a folder (several; a folder's layout is kept); "
                  "the first reading "
                  "of each entity");
  cmd->add_flag("--json", args->json,
                "One JSON object per file and line: what was read, how exactly");
  return [args] { return run_perceive(*args); };
}

}  // namespace rave::apps
