#pragma once
// `rave study serve`: the study as a local web application (docs/study.md). cpp-httplib serves
// the page (page.hpp) and a small JSON API; answers go to the Store as they come.
//
//   GET  /                          the page: instructions, practice, test, thanks
//   POST /api/participants          {"name"} -> {"token", "participant", "practice", "problems"}
//   GET  /api/state                 X-Rave-Token -> {"position", "practice", "problems", "done"}
//   GET  /api/problems/<position>   X-Rave-Token -> {"position", "practice", "grid", "context": [urls],
//                                   "candidates": [urls]}: never the answer
//   POST /api/answers               X-Rave-Token, {"position", "answer" (1-8), "milliseconds"} ->
//                                   {"next", "done"}, and for a practice problem {"correct", "answer"}
//   GET  /images/<n>/<panel>.png    the panels of the study's n-th problem (context-k, candidate-k)
//
// Errors are JSON {"error": "..."} with 400 (malformed request), 403 (unknown token, or a Host that
// is not this server's address), 404, 409 (the position is answered already, or not the next one),
// 411, 413 (a body over the limit) and 415 (not JSON): docs/study.md#limits. Every request is checked
// (Host, length, type, token) before its body is read. Nothing is written unless the answer is saved.
// One server per port (no SO_REUSEPORT) and per database (ServerLock).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "study/study_set.hpp"

namespace rave::study {

/// What one connection may take of the server.
struct ConnectionLimits {
  std::size_t connections = 256;             ///< served at once (threads); more wait their turn
  std::chrono::milliseconds request{10000};  ///< a request's headers and body, from its first byte
  std::chrono::milliseconds silence{5000};   ///< the longest pause within a request
  std::chrono::milliseconds idle{5000};  ///< a keep-alive connection waiting for its next request
  std::size_t requests_per_connection = 1000;
};

/// The largest request body (an enrolment or an answer is under 1 KB).
inline constexpr std::size_t kBodyLimit = 4096;
/// The longest name or code a participant may give, in characters.
inline constexpr std::size_t kNameCharacters = 200;

struct ServeOptions {
  std::filesystem::path data;  ///< the set: a folder of .xml + .npz (or .asig)
  std::filesystem::path db;    ///< the SQLite file; empty: <data>.study.sqlite beside the folder
  std::string host = "127.0.0.1";
  int port = 8765;  ///< 0: any free port
  StudyOptions study = {};
  int threads = 2;  ///< reading the set
  ConnectionLimits limits = {};
};

/// The database file a study of `data` uses by default: `<data>.study.sqlite` beside the folder.
std::filesystem::path default_database(const std::filesystem::path& data);
/// The one line that ties a database to its study (the set's folder and the draw's settings); a
/// database of another study is refused (Store).
std::string study_description(const ServeOptions& options);

class Server {
 public:
  /// Reads the set, draws the study's problems, renders their panels, takes the database's
  /// ServerLock and opens it. InputError for an unfinished set (rave.json says complete: false),
  /// a database another server holds or one that cannot be written; UsageError / InputError as
  /// choose_problems, the set's reader and Store.
  explicit Server(const ServeOptions& options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Binds host:port; returns the port (the chosen one when 0). InputError when it cannot bind (in
  /// use by any process, or not an address of this machine).
  int bind();
  /// Serves until stop() (another thread or a signal handler's thread).
  void run();
  void stop();

  std::size_t practice_count() const;
  std::size_t test_count() const;
  const std::filesystem::path& database() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rave::study
