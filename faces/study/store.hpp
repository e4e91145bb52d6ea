#pragma once
// The study's database (docs/study.md#the-database): one SQLite file holding the study's settings,
// its participants (token, name, problem sequence) and every answer (problem, choice, correctness,
// milliseconds, time), each answer written in its own transaction (WAL journal, synchronous FULL),
// so a server killed at any moment loses at most the answer in flight. An answer is stored once: a
// second submit of a position is refused and changes nothing. Several server threads share one
// Store (one connection, serialised).
//
//   Store db("study.sqlite", "data=...; seed=7; per_config=4; practice=3");
//   Participant p = db.add_participant("ada", token, ids);
//   db.save_answer({.participant = p.id, .position = 0, .problem = ids[0], .answer = 3, ...});
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace rave::study {

/// One participant.
struct Participant {
  std::int64_t id = 0;
  std::string token;                  ///< the secret that names them to the server
  std::string name;                   ///< as they gave it (may be empty)
  std::vector<std::string> sequence;  ///< problem ids, practice first
  int practice = 0;                   ///< how many of `sequence` are practice problems
  std::string created;                ///< UTC, ISO 8601
};

/// One stored answer.
struct Answer {
  std::int64_t participant = 0;
  int position = 0;     ///< index into the participant's sequence
  std::string problem;  ///< its id
  int answer = 0;       ///< the chosen candidate's index (0..7)
  bool correct = false;
  bool practice = false;
  std::int64_t milliseconds = 0;  ///< from the problem shown to the click
  std::string answered = {};      ///< UTC, ISO 8601 (set by the store)
};

/// What save_answer did.
enum class Saved { kSaved, kAlreadyAnswered };

class Store {
 public:
  /// Opens (creating) the database at `path` for the study described by `study` (its data and
  /// settings, one line). InputError naming the file when it cannot be opened, is not a study
  /// database, or belongs to another study (the two descriptions named).
  Store(const std::filesystem::path& path, const std::string& study);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  /// Enrols a participant in one write transaction: the next number by the database (unique over
  /// every connection to it), the sequence `sequence_of(number)`; returns it. The cost does not
  /// grow with the number of participants.
  Participant enrol(const std::string& name, const std::string& token, int practice,
                    const std::function<std::vector<std::string>(std::int64_t)>& sequence_of);
  /// Adds a participant with this token and problem sequence; returns it with its id.
  Participant add_participant(const std::string& name, const std::string& token,
                              const std::vector<std::string>& sequence, int practice);
  /// Writes the time of this check (key 'served' of the study table): InputError naming the file
  /// when the database cannot be written here (a read-only file or folder), before anyone enrols.
  void check_writable();
  /// The participant a token names, if any.
  std::optional<Participant> find(const std::string& token) const;
  /// Every participant, by id.
  std::vector<Participant> participants() const;
  /// Stores an answer in one transaction; kAlreadyAnswered (and nothing written) when the position
  /// has one already.
  Saved save_answer(const Answer& answer);
  /// A participant's answers by position, or everyone's (participant 0).
  std::vector<Answer> answers(std::int64_t participant = 0) const;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
  mutable std::mutex mutex_;
};

/// InputError naming the file when this process may not write the database at `path`: the file
/// (when there is one) or its folder (where SQLite keeps the write-ahead log) is read-only.
void refuse_unwritable(const std::filesystem::path& path);

/// One server per database: an exclusive lock (flock) on `<database>.lock` beside it, held for the
/// life of the object (the kernel drops it when its holder dies, even by SIGKILL; the file stays and
/// holds nothing then).
class ServerLock {
 public:
  /// InputError naming the database and the holder (its pid and command) when another process
  /// holds the lock, or when the lock file cannot be made.
  ServerLock(const std::filesystem::path& database, const std::string& command);
  ~ServerLock();
  ServerLock(const ServerLock&) = delete;
  ServerLock& operator=(const ServerLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace rave::study
