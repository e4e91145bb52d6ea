#pragma once
// The three error channels of rave (DESIGN.md, "House style"):
//  - outcomes are values (never exceptions);
//  - bad input or I/O throws rave::InputError with the file and the place (line:col or element
//  path);
//  - broken invariants are bugs: RAVE_CHECK throws std::logic_error, always on.
// faces/apps/ catches once and prints `rave: error: <what()>`.
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

/// A wrong option value (exit code 2 on the command line, ValueError in Python).
class UsageError : public Error {
 public:
  using Error::Error;
};

/// A wrong value of one parameter, named as the libraries name it (`grid`, `hold_out`); each face
/// spells the name its own way in front of the rest (`--grid 2 is out of range...` on the command
/// line, `grid 2 ...` as a Python keyword), so no library spells a face's option.
class ParameterError : public UsageError {
 public:
  ParameterError(std::string parameter, const std::string& rest)
      : UsageError(parameter + rest), parameter_(std::move(parameter)), rest_(rest) {}
  const std::string& parameter() const { return parameter_; }
  const std::string& rest() const { return rest_; }

 private:
  std::string parameter_;
  std::string rest_;
};

[[noreturn]] void check_failed(const char* condition, const std::string& message, const char* file,
                               int line);

}  // namespace rave

/// Always-on precondition / invariant check; a failure is a bug in rave, not bad input.
#define RAVE_CHECK(cond, msg)                                            \
  do {                                                                   \
    if (!(cond)) ::rave::check_failed(#cond, (msg), __FILE__, __LINE__); \
  } while (false)
