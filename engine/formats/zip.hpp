#pragma once
// The ZIP container of .npz files. The writer reproduces Python 3.11's zipfile as numpy.savez
// drives it (`ZipFile.open(name, 'w', force_zip64=True)` on a seekable file): version 2.0 headers,
// a zip64 extra field in every local header (none in the central directory), DOS time
// 1980-01-01 00:00, external attributes 0o600 << 16, created by Unix, no comment; members are
// stored or deflated (zlib level 6, raw deflate, the same compress/flush call sequence). The
// reader follows the central directory (zip64 records included), inflates deflated members and
// checks every CRC; anything malformed (overlapping members, names that differ between the central
// directory and the local header, a member with bytes marked as a folder, more unpacked bytes than a
// cap) throws InputError naming the file and the byte offset.
//
//   std::string z = write_zip({{"target.npy", {header, payload}}}, /*deflate=*/false);
//   std::vector<ZipMember> members = read_zip(z, "a.npz");
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rave::engine {

/// A member to write: its name and its bytes as consecutive chunks (each chunk is one write()
/// call of the original, which matters for byte-identical deflate output).
struct ZipSource {
  std::string name;
  std::vector<std::string_view> chunks;
};

/// A member read back: its name and its (decompressed) bytes.
struct ZipMember {
  std::string name;
  std::string data;
};

/// The bytes of a ZIP archive holding `members` in order.
std::string write_zip(std::span<const ZipSource> members, bool deflate);
/// The same into `out` (replaced; its capacity is reused).
void write_zip(std::string& out, std::span<const ZipSource> members, bool deflate);
/// Receives a member's name and its (decompressed, CRC-checked) bytes, valid during the call.
using ZipVisitor = std::function<void(std::string_view name, std::string_view data)>;

/// The CRC-32 of ZIP, zlib and PNG (zlib.crc32 in Python) of `bytes`.
std::uint32_t crc32(std::string_view bytes);

/// Largest total unpacked size of an archive's members that the reader accepts by default.
inline constexpr std::uint64_t kMaxZipUnpackedBytes = std::uint64_t{64} << 20;

/// Every member of a ZIP archive, in central-directory order; `file` names it in errors.
std::vector<ZipMember> read_zip(std::string_view bytes, const std::string& file);
/// Visits the members `wanted` accepts (all when empty) without copying stored ones; the others
/// are skipped (neither inflated nor CRC-checked). The central directory and every local header are
/// always checked: names must agree, members must not overlap (an "overlapping" zip bomb) and
/// their declared sizes must add up to at most `max_unpacked` bytes.
void visit_zip(std::string_view bytes, const std::string& file, const ZipVisitor& visit,
               const std::function<bool(std::string_view name)>& wanted = {},
               std::uint64_t max_unpacked = kMaxZipUnpackedBytes);
/// The same over the archive's last bytes: `tail` holds bytes [offset, offset + tail.size()) of the
/// archive, up to its end. Returns false, having visited nothing, when the central directory or a
/// wanted member starts before `offset` (read more of the file then); damage is an InputError as
/// above, the layout and the cap checked over the wanted members.
bool visit_zip_tail(std::string_view tail, std::uint64_t offset, const std::string& file,
                    const ZipVisitor& visit,
                    const std::function<bool(std::string_view name)>& wanted = {},
                    std::uint64_t max_unpacked = kMaxZipUnpackedBytes);

}  // namespace rave::engine
