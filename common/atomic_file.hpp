#pragma once
// Crash-safe output: bytes go to a temporary file beside the destination, which is renamed into
// place only after a successful write and flush. A failure (full disk, no permission) throws
// rave::InputError naming the destination and removes the temporary file, so nothing half-written
// survives.
//
//   rave::write_file_atomic("out/RAVEN_0_train.npz", bytes);
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace rave {

/// Writes `bytes` to `path` atomically (temp file + fsync-free flush + rename). The temporary file
/// is `.<name>.tmp.<pid>.<n>` beside `path`; a process killed by SIGKILL leaves it behind.
void write_file_atomic(const std::filesystem::path& path, std::span<const char> bytes);
/// Creates `path` with `text`, complete or not at all, unless it exists: returns false then (the
/// file is written beside it and hard-linked into place, so of several processes exactly one
/// creates it, local or NFS).
bool create_file_exclusive(const std::filesystem::path& path, std::string_view text);
/// Whether a file name (no folder) is one of write_file_atomic's temporary names.
bool is_temporary_name(std::string_view file_name);
/// Convenience overload for text.
void write_file_atomic(const std::filesystem::path& path, std::string_view text);
/// Convenience overload for strings (disambiguates span and string_view).
void write_file_atomic(const std::filesystem::path& path, const std::string& text);
/// Largest file read_file accepts unless told otherwise.
inline constexpr std::size_t kMaxReadBytes = std::size_t{64} << 20;
/// Reads a whole regular file; throws InputError when it cannot be opened or read, is not a regular
/// file (a FIFO, /dev/zero, a folder) or holds more than `max_bytes`.
std::string read_file(const std::filesystem::path& path, std::size_t max_bytes = kMaxReadBytes);
/// Reads a whole file into `text` (its capacity is reused: one open, fstat and read for a batch of
/// files); throws InputError like read_file.
void read_file_into(const std::filesystem::path& path, std::string& text,
                    std::size_t max_bytes = kMaxReadBytes);
/// Reads the last `max_bytes` bytes of a file (all of it when it is shorter) into `tail` and
/// returns the file's size; throws InputError like read_file (a file over kMaxReadBytes is
/// refused).
std::uint64_t read_file_tail(const std::filesystem::path& path, std::size_t max_bytes,
                             std::string& tail);
/// The same, or nullopt when `path` names nothing or no regular file (a folder, a FIFO): an
/// optional file checked by the open itself, without a stat before it.
std::optional<std::uint64_t> read_file_tail_if_present(const std::filesystem::path& path,
                                                       std::size_t max_bytes, std::string& tail);

}  // namespace rave
