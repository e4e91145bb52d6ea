#pragma once
// The members of a file's top-level JSON object, one at a time, so that a file of any size is read
// in the memory of its largest member (IBM's problem files, ibm_json.hpp). The file is read in
// chunks from a ByteSource (a file read by offset, or text in memory); each member comes with its
// key as written, where the key and the value start (offset, line, column) and the value's text.
// The walk checks the object's structure (braces, brackets, strings, commas) and that every value
// is an object; the values' own syntax is the caller's to check (nlohmann's parse of the text).
//
//   const ByteSource source = ByteSource::file("center_single.json");
//   for_each_member(source, [&](const Member& m, const std::string& value) { ... });
//   source.read(m.value_at.offset, m.length, text);   // a member's value again, from any thread
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "common/lines.hpp"

namespace rave::evaluation::internal {

/// Where a piece of text starts: byte offset, and line and column (common/lines.hpp).
struct TextPlace {
  std::uint64_t offset = 0;
  TextPosition position;
};

/// Bytes by offset from a file (pread: safe from many threads at once) or from text.
class ByteSource {
 public:
  /// The file at `path`; InputError when it cannot be opened or is not a regular file.
  static ByteSource file(const std::filesystem::path& path);
  /// `text`, named `name` in errors.
  static ByteSource text(std::string text, std::string name);
  /// The name errors give (the path, or the text's name).
  const std::string& name() const { return name_; }
  std::uint64_t size() const { return size_; }
  /// Bytes [offset, offset + n) into `out` (replacing it); fewer than n is an InputError.
  void read(std::uint64_t offset, std::size_t n, std::string& out) const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
  std::string name_;
  std::uint64_t size_ = 0;
};

/// One member of the top-level object.
struct Member {
  std::string key;       ///< as written between the quotes (escapes kept), at most 64 bytes kept
  TextPlace key_at;      ///< its opening quote
  TextPlace value_at;    ///< the value's first byte ('{')
  std::uint64_t length;  ///< the value's length in bytes
};

/// Calls `visit(member, value_text)` for each member in file order. InputError ("file:line:col:
/// ...") when the text is not one object of objects (a value that is no object, a missing comma,
/// text after the object, the file ending inside a value) or when one value exceeds `max_value`
/// bytes.
void for_each_member(const ByteSource& source, std::size_t max_value,
                     const std::function<void(const Member&, const std::string&)>& visit);

}  // namespace rave::evaluation::internal
