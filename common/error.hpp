#pragma once
// The three error channels of rave (DESIGN.md, "House style"):
//  - outcomes are values (never exceptions);
//  - bad input or I/O throws rave::InputError with the file and the place (line:col or element
//  path);
//  - broken invariants are bugs: RAVE_CHECK throws std::logic_error, always on.
// apps/ catches once and prints `rave: error: <what()>`.
//
//   throw rave::InputError("a.xml", "Data/Panels/Panel[3]", "missing attribute 'Type'");
//   RAVE_CHECK(level >= 0, "level out of range");
#include <stdexcept>
#include <string>

namespace rave {

/// Base of every error rave throws on purpose.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input or failed I/O: names the file and the place inside it.
class InputError : public Error {
 public:
  /// `place` is "line:col", an element path, a byte offset..., or empty when the whole file is
  /// meant.
  InputError(std::string file, std::string place, const std::string& message);
  const std::string& file() const { return file_; }
  const std::string& place() const { return place_; }
  /// The message without the "file:place: " prefix.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  std::string place_;
  std::string message_;
};

/// A wrong command-line value found after parsing (exit code 2 in apps/).
class UsageError : public Error {
 public:
  using Error::Error;
};

[[noreturn]] void check_failed(const char* condition, const std::string& message, const char* file,
                               int line);

}  // namespace rave

/// Always-on precondition / invariant check; a failure is a bug in rave, not bad input.
#define RAVE_CHECK(cond, msg)                                            \
  do {                                                                   \
    if (!(cond)) ::rave::check_failed(#cond, (msg), __FILE__, __LINE__); \
  } while (false)
