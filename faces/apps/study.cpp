// `rave study serve DIR`, `rave study export DIR -o OUT` and `rave study report DIR`: a human
// baseline for any rave dataset (study/, docs/study.md). serve runs the study's web application
// until SIGINT or SIGTERM; export writes each participant's test problems and answers as a
// predictions file for `rave score`; report prints the Human row (rave score's report,
// evaluation/scoring/report.hpp) straight from the database.
#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "common/error.hpp"
#include "evaluation/scoring/report.hpp"
#include "study/export.hpp"
#include "study/server.hpp"
#include "study/store.hpp"

namespace rave::apps {
namespace {

struct StudyArgs {
  std::string data, db, host = "127.0.0.1", out, split = "test", practice_split = "train";
  int port = 8765, per_config = 4, practice = 3, threads = cli::default_threads();
  std::uint64_t seed = 1;
};

study::ServeOptions serve_options(const StudyArgs& a) {
  return {.data = a.data,
          .db = a.db,
          .host = a.host,
          .port = a.port,
          .study = {.split = a.split,
                    .per_config = a.per_config,
                    .practice_split = a.practice_split,
                    .practice = a.practice,
                    .seed = a.seed},
          .threads = a.threads};
}

// Serves until SIGINT or SIGTERM: the signals are blocked in every thread and one thread waits for
// them, then stops the server (the answer in flight is finished or not written at all).
int run_serve(const StudyArgs& a) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  study::Server server(serve_options(a));
  const int port = server.bind();
  std::printf(
      "rave study: http://%s:%d/ (%zu practice and %zu test problems per participant; "
      "answers in %s). Ctrl-C stops it.\n",
      a.host.c_str(), port, server.practice_count(), server.test_count(),
      server.database().c_str());
  std::fflush(stdout);
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&signals, &signal);
    server.stop();
  });
  server.run();
  ::kill(::getpid(), SIGTERM);  // wakes the waiter when run() ended by itself (SIGTERM is blocked)
  waiter.join();
  std::printf("rave study: stopped\n");
  return 0;
}

// The study's database, which must exist (serve writes it) and belong to this study.
std::unique_ptr<study::Store> open_store(const StudyArgs& a) {
  const auto db = a.db.empty() ? study::default_database(a.data) : std::filesystem::path(a.db);
  if (!std::filesystem::exists(db))
    throw InputError(db.string(), "", "no study database (rave study serve writes it; or --db)");
  return std::make_unique<study::Store>(db, study::study_description(serve_options(a)));
}

int run_export(const StudyArgs& a) {
  const auto store = open_store(a);
  const study::ExportCounts n = study::export_predictions(*store, a.out);
  std::printf("wrote %zu answers of %zu participants to %s (rave score %s/*.jsonl -d %s --seeds)\n",
              n.answers, n.participants, a.out.c_str(), a.out.c_str(), a.data.c_str());
  if (n.unanswered)
    std::printf(
        "%zu test problem(s) shown and not answered (a participant who stopped): listed "
        "with \"answer\": null, not scored\n",
        n.unanswered);
  if (n.without) std::printf("%zu participant(s) without a test answer: no file\n", n.without);
  return 0;
}

// The Human row (and the solver's and the context-blind rows on the same problems), as rave score
// --seeds prints it for the export.
int run_report(const StudyArgs& a) {
  const auto store = open_store(a);
  std::vector<evaluation::LabeledFile> files;
  for (auto& f : study::participant_files(*store)) files.push_back({"Human", std::move(f)});
  const std::size_t without = store->participants().size() - files.size();
  if (files.empty()) {
    std::printf("no participant has a test answer in %s yet (%zu enrolled)\n",
                store->path().c_str(), without);
    return 0;
  }
  const auto key = evaluation::AnswerKey::load(a.data, a.threads);
  const evaluation::Report report = evaluation::build_report(key, files, {}, true, true);
  const evaluation::ReportRow& human = report.rows.front();
  std::printf(
      "accuracy (%%) of the study on %s: each participant scored on the test problems they "
      "answered, the mean over participants; [95%% interval: t over participants clipped to "
      "0..100, Wilson for one]:\n%s",
      a.data.c_str(), evaluation::report_table(report).c_str());
  std::printf(
      "Human: %s; %zu enrolled without a test answer (not counted)\n",
      evaluation::participants_note(human.participants, human.scored, human.unanswered).c_str(),
      without);
  return 0;
}

void add_study_options(CLI::App* cmd, StudyArgs& a) {
  cmd->add_option("data", a.data, "The set: a folder of .xml + .npz (or .asig)")->required();
  cmd->add_option("--db", a.db,
                  "The SQLite database (default: <data>.study.sqlite beside the folder)");
  cmd->add_option("--per-config", a.per_config, "Test problems per configuration")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--practice", a.practice, "Practice problems, answered with feedback")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  cmd->add_option("--split", a.split, "Split of the test problems ('' for any)")
      ->capture_default_str();
  cmd->add_option("--practice-split", a.practice_split, "Split of the practice problems")
      ->capture_default_str();
  cmd->add_option("-s,--seed", a.seed, "Draws the problems and, with each participant, their order")
      ->capture_default_str();
  cmd->add_option("-j,--jobs", a.threads, "Threads reading the set")
      ->capture_default_str()
      ->check(cli::jobs_range());
}

}  // namespace

Runner add_study(CLI::App& app) {
  auto a = std::make_shared<StudyArgs>();
  auto* study = app.add_subcommand(
      "study",
      "A human baseline for a set (docs/study.md): `serve` runs a web page where participants\n"
      "answer the set's problems (practice with feedback, then a test; answers and times in\n"
      "SQLite), `export` writes their answers as predictions files that `rave score` reads,\n"
      "`report` prints the Human row.");
  study->require_subcommand(1);
  auto* serve = study->add_subcommand(
      "serve",
      "Serve the study at http://HOST:PORT/ until Ctrl-C (bound to this machine by default)");
  add_study_options(serve, *a);
  serve
      ->add_option("--host", a->host,
                   "Address to listen on (0.0.0.0: every interface, for participants on other "
                   "machines; each is known by a secret token)")
      ->capture_default_str();
  serve->add_option("--port", a->port, "Port (0: any free one)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  auto* exporter = study->add_subcommand(
      "export", "Write each participant's test problems and answers to OUT/participant-<id>.jsonl");
  add_study_options(exporter, *a);
  exporter->add_option("-o,--out", a->out, "Output folder")->required();
  auto* reporter = study->add_subcommand(
      "report",
      "Print the Human row: per configuration, the mean over participants (each on the test\n"
      "problems they answered) with a 95% interval, beside the solver and the context-blind rows");
  add_study_options(reporter, *a);
  return [a, serve, exporter] {
    return serve->parsed() ? run_serve(*a) : exporter->parsed() ? run_export(*a) : run_report(*a);
  };
}

}  // namespace rave::apps
