#include "study/store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>

#include "common/error.hpp"

namespace rave::study {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS study (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS participants (
  id INTEGER PRIMARY KEY,
  token TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  sequence TEXT NOT NULL,
  practice INTEGER NOT NULL,
  created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
  participant INTEGER NOT NULL REFERENCES participants(id),
  position INTEGER NOT NULL,
  problem TEXT NOT NULL,
  answer INTEGER NOT NULL,
  correct INTEGER NOT NULL,
  practice INTEGER NOT NULL,
  milliseconds INTEGER NOT NULL,
  answered TEXT NOT NULL,
  PRIMARY KEY (participant, position));
)sql";

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// One prepared statement; every failure is an InputError naming the database.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& file, const char* sql) : db_(db), file_(file) {
    check(sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& v) {
    check(sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind(int i, std::int64_t v) {
    check(sqlite3_bind_int64(stmt_, i, v));
    return *this;
  }
  /// true while there is a row; the last call returns false (done).
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) check(rc);
    return false;
  }
  /// SQLITE_DONE or the constraint error, other errors thrown.
  int step_or_constraint() {
    const int rc = sqlite3_step(stmt_);
    if (rc != SQLITE_DONE && (rc & 0xff) != SQLITE_CONSTRAINT) check(rc);
    return rc;
  }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }

 private:
  void check(int rc) const {
    if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
      throw InputError(file_, "", std::string("database: ") + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  std::string file_;
  sqlite3_stmt* stmt_ = nullptr;
};

void exec(sqlite3* db, const std::string& file, const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error ? error : sqlite3_errmsg(db);
    sqlite3_free(error);
    throw InputError(file, "", "database: " + message);
  }
}

Participant participant_of(const Statement& s, const std::string& file) {
  Participant p{s.integer(0), s.text(1), s.text(2), {}, static_cast<int>(s.integer(4)), s.text(5)};
  try {
    p.sequence = nlohmann::json::parse(s.text(3)).get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(
        file, "participants",
        "participant " + std::to_string(p.id) + ": sequence is not a JSON list of problem ids");
  }
  return p;
}

constexpr const char* kParticipantColumns =
    "SELECT id, token, name, sequence, practice, created FROM participants";

}  // namespace

Store::Store(const std::filesystem::path& path, const std::string& study) : path_(path) {
  const std::string file = path.string();
  if (sqlite3_open_v2(file.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw InputError(file, "", "cannot open the study database: " + message);
  }
  try {
    sqlite3_busy_timeout(db_, 5000);
    exec(db_, file, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;");
    exec(db_, file, kSchema);
    Statement get(db_, file, "SELECT value FROM study WHERE key = 'study'");
    if (get.step()) {
      if (get.text(0) != study)
        throw InputError(file, "study",
                         "the database belongs to another study: \"" + get.text(0) + "\", not \"" +
                             study + "\" (use another --db)");
    } else {
      Statement put(db_, file, "INSERT INTO study (key, value) VALUES ('study', ?)");
      put.bind(1, study).step();
    }
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

Store::~Store() { sqlite3_close(db_); }

Participant Store::enrol(const std::string& name, const std::string& token, int practice,
                         const std::function<std::vector<std::string>(std::int64_t)>& sequence_of) {
  const std::lock_guard lock(mutex_);
  const std::string file = path_.string();
  Participant p{0, token, name, {}, practice, now_utc()};
  exec(db_, file, "BEGIN IMMEDIATE");  // the write lock: no other connection numbers in between
  try {
    {
      Statement next(db_, file, "SELECT COALESCE(MAX(id), 0) + 1 FROM participants");
      next.step();
      p.id = next.integer(0);
    }
    p.sequence = sequence_of(p.id);
    Statement s(db_, file,
                "INSERT INTO participants (id, token, name, sequence, practice, created) "
                "VALUES (?, ?, ?, ?, ?, ?)");
    s.bind(1, p.id).bind(2, token).bind(3, name).bind(4, nlohmann::json(p.sequence).dump());
    s.bind(5, std::int64_t{practice}).bind(6, p.created).step();
    exec(db_, file, "COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return p;
}

Participant Store::add_participant(const std::string& name, const std::string& token,
                                   const std::vector<std::string>& sequence, int practice) {
  return enrol(name, token, practice, [&](std::int64_t) { return sequence; });
}

void Store::check_writable() {
  const std::lock_guard lock(mutex_);
  const std::string file = path_.string();
  if (sqlite3_db_readonly(db_, "main") == 1)
    throw InputError(file, "", "the study database cannot be written here (a read-only file)");
  try {
    Statement s(db_, file, "INSERT OR REPLACE INTO study (key, value) VALUES ('served', ?)");
    s.bind(1, now_utc()).step();
  } catch (const InputError& e) {
    throw InputError(file, "", "the study database cannot be written here: " + e.message());
  }
}

std::optional<Participant> Store::find(const std::string& token) const {
  const std::lock_guard lock(mutex_);
  Statement s(db_, path_.string(), (std::string(kParticipantColumns) + " WHERE token = ?").c_str());
  s.bind(1, token);
  if (!s.step()) return std::nullopt;
  return participant_of(s, path_.string());
}

std::vector<Participant> Store::participants() const {
  const std::lock_guard lock(mutex_);
  Statement s(db_, path_.string(), (std::string(kParticipantColumns) + " ORDER BY id").c_str());
  std::vector<Participant> out;
  while (s.step()) out.push_back(participant_of(s, path_.string()));
  return out;
}

Saved Store::save_answer(const Answer& a) {
  const std::lock_guard lock(mutex_);
  Statement s(db_, path_.string(),
              "INSERT INTO answers (participant, position, problem, answer, correct, practice, "
              "milliseconds, answered) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, a.participant).bind(2, std::int64_t{a.position}).bind(3, a.problem);
  s.bind(4, std::int64_t{a.answer}).bind(5, std::int64_t{a.correct});
  s.bind(6, std::int64_t{a.practice}).bind(7, a.milliseconds).bind(8, now_utc());
  return s.step_or_constraint() == SQLITE_DONE ? Saved::kSaved : Saved::kAlreadyAnswered;
}

std::vector<Answer> Store::answers(std::int64_t participant) const {
  const std::lock_guard lock(mutex_);
  Statement s(db_, path_.string(),
              "SELECT participant, position, problem, answer, correct, practice, milliseconds, "
              "answered FROM answers WHERE ? = 0 OR participant = ? ORDER BY participant, "
              "position");
  s.bind(1, participant).bind(2, participant);
  std::vector<Answer> out;
  while (s.step())
    out.push_back({s.integer(0), static_cast<int>(s.integer(1)), s.text(2),
                   static_cast<int>(s.integer(3)), s.integer(4) != 0, s.integer(5) != 0,
                   s.integer(6), s.text(7)});
  return out;
}

void refuse_unwritable(const std::filesystem::path& path) {
  const auto writable = [](const std::filesystem::path& p) {
    return ::faccessat(AT_FDCWD, p.c_str(), W_OK, AT_EACCESS) == 0;
  };
  const std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
  if (std::filesystem::exists(path) && !writable(path))
    throw InputError(path.string(), "", "the study database cannot be written here (read-only)");
  if (std::filesystem::is_directory(folder) && !writable(folder))
    throw InputError(path.string(), "",
                     "the study database cannot be written here (its folder " + folder.string() +
                         " is read-only)");
}

ServerLock::ServerLock(const std::filesystem::path& database, const std::string& command) {
  const std::string file = database.string(), lock = file + ".lock";
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw InputError(file, "", "cannot make its lock file " + lock + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char holder[512] = {};
    const ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
    std::string who(holder, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!who.empty() && (who.back() == '\n' || who.back() == '\0')) who.pop_back();
    ::close(fd_);
    if (err != EWOULDBLOCK)
      throw InputError(file, "", "cannot lock " + lock + ": " + std::strerror(err));
    throw InputError(file, "",
                     "another server has this study database (" +
                         (who.empty() ? std::string("pid unknown") : who) +
                         "); stop it, or give this one another --db");
  }
  const std::string who = "pid " + std::to_string(::getpid()) + ": " + command + "\n";
  // The note is for whoever is refused next; the lock holds without it.
  [[maybe_unused]] const bool noted =
      ::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, who.data(), who.size(), 0) >= 0;
}

ServerLock::~ServerLock() { ::close(fd_); }

}  // namespace rave::study
