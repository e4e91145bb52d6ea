#pragma once
// A file written in pieces, atomically (atomic_file.hpp's rule for a file too large to hold): the
// pieces go to a temporary file beside the destination as they come, so memory holds none of
// them, and commit() renames it into place; a writer destroyed before commit() (an exception)
// removes the temporary file. Failures throw InputError naming the destination. Defined in
// atomic_file.cpp, beside the temporary names it shares.
//
//   AtomicFileWriter out("out/export.jsonl");
//   for (...) out.write(line);
//   out.commit();
#include <cstdio>
#include <filesystem>
#include <string_view>

namespace rave {

/// A file written piece by piece, renamed into place by commit().
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::filesystem::path path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  /// Appends `bytes`.
  void write(std::string_view bytes);
  /// Closes the file and renames it into place.
  void commit();

 private:
  std::filesystem::path path_, temp_;
  std::FILE* out_ = nullptr;
};

}  // namespace rave
