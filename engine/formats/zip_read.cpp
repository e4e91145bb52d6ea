// ZIP reader of engine/formats/zip.hpp: central directory first (zip64 end records and extras
// honoured), then each local header, then the member data, inflated and CRC-checked. Every offset
// is bounds checked before use, so truncated or corrupt input throws InputError and never reads out
// of range.
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/error.hpp"
#include "common/text.hpp"
#include "engine/formats/internal/crc32.hpp"
#include "engine/formats/zip.hpp"

namespace rave::engine {
namespace {

constexpr std::uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEndSig = 0x06054b50;
constexpr std::uint32_t kZip64EndSig = 0x06064b50, kZip64LocatorSig = 0x07064b50;
constexpr std::size_t kEndSize = 22, kCentralSize = 46, kLocalSize = 30;

// Thrown when a record lies before the window a Cursor holds (visit_zip_tail then reports false).
struct OutsideWindow {};

// The archive's bytes, or its last bytes: `bytes` holds [base, base + bytes.size()), the end of the
// file.
class Cursor {
 public:
  Cursor(std::string_view bytes, const std::string& file, std::uint64_t base = 0)
      : bytes_(bytes), file_(file), base_(base) {}

  [[noreturn]] void fail(std::uint64_t at, const std::string& message) const {
    throw InputError(file_, "byte " + std::to_string(at), message);
  }
  void need(std::uint64_t at, std::uint64_t n, const char* what) const {
    if (at > size() || n > size() - at)
      fail(at, std::string(what) + " extends past the end of the file (" + std::to_string(size()) +
                   " bytes; truncated?)");
    if (at < base_) throw OutsideWindow{};
  }
  std::uint64_t le(std::uint64_t at, int width) const {
    std::uint64_t v = 0;
    for (int i = 0; i < width; ++i)
      v |= static_cast<std::uint64_t>(
               static_cast<unsigned char>(bytes_[at - base_ + static_cast<std::uint64_t>(i)]))
           << (8 * i);
    return v;
  }
  std::string_view slice(std::uint64_t at, std::uint64_t n) const {
    return bytes_.substr(at - base_, n);
  }
  std::uint64_t size() const { return base_ + bytes_.size(); }
  std::uint64_t base() const { return base_; }
  const std::string& file() const { return file_; }

 private:
  std::string_view bytes_;
  const std::string& file_;
  std::uint64_t base_;
};

struct Directory {
  std::uint64_t entries = 0, offset = 0, size = 0;
};

Directory find_directory(const Cursor& c) {
  if (c.size() < kEndSize)
    c.fail(0, "not a zip file (too short for an end of central directory record)");
  std::uint64_t at = c.size() - kEndSize;
  const std::uint64_t lowest = c.size() > kEndSize + 0xFFFF ? c.size() - kEndSize - 0xFFFF : 0;
  while (c.le(at, 4) != kEndSig) {
    if (at == lowest) c.fail(0, "not a zip file (no end of central directory record; truncated?)");
    if (at == c.base()) throw OutsideWindow{};
    --at;
  }
  Directory d{c.le(at + 10, 2), c.le(at + 16, 4), c.le(at + 12, 4)};
  if (d.entries == 0xFFFF || d.offset == 0xFFFFFFFF || d.size == 0xFFFFFFFF) {
    if (at < 20) c.fail(at, "zip64 end locator missing");
    c.need(at - 20, 20, "zip64 end locator");
    if (c.le(at - 20, 4) != kZip64LocatorSig) c.fail(at, "zip64 end locator missing");
    const std::uint64_t end64 = c.le(at - 12, 8);
    c.need(end64, 56, "zip64 end of central directory record");
    if (c.le(end64, 4) != kZip64EndSig)
      c.fail(end64, "bad zip64 end of central directory signature");
    d = {c.le(end64 + 32, 8), c.le(end64 + 48, 8), c.le(end64 + 40, 8)};
  }
  c.need(d.offset, d.size, "central directory");
  return d;
}

struct Entry {
  std::string name;
  std::uint64_t flags = 0, method = 0, crc = 0, compressed = 0, size = 0, local = 0;
  std::uint64_t attributes = 0;  ///< external file attributes (MS-DOS in the low byte)
  std::uint64_t data_at = 0;     ///< first byte of the member's data (after its local header)
};

// Replaces 0xFFFFFFFF fields with the values of a zip64 extra field (in the order the spec gives).
void apply_zip64(const Cursor& c, std::uint64_t extra, std::uint64_t extra_len, Entry& e) {
  for (std::uint64_t p = extra; p + 4 <= extra + extra_len;) {
    const std::uint64_t tag = c.le(p, 2), len = c.le(p + 2, 2);
    if (p + 4 + len > extra + extra_len) c.fail(p, "extra field overruns its header");
    if (tag == 1) {
      std::uint64_t q = p + 4;
      for (std::uint64_t* field : {&e.size, &e.compressed, &e.local}) {
        if (*field != 0xFFFFFFFF) continue;
        if (q + 8 > p + 4 + len) c.fail(q, "zip64 extra field too short");
        *field = c.le(q, 8);
        q += 8;
      }
    }
    p += 4 + len;
  }
}

Entry read_entry(const Cursor& c, std::uint64_t& at) {
  c.need(at, kCentralSize, "central directory entry");
  if (c.le(at, 4) != kCentralSig) c.fail(at, "bad central directory signature");
  Entry e;
  e.flags = c.le(at + 8, 2);
  e.method = c.le(at + 10, 2);
  e.crc = c.le(at + 16, 4);
  e.compressed = c.le(at + 20, 4);
  e.size = c.le(at + 24, 4);
  const std::uint64_t name_len = c.le(at + 28, 2), extra_len = c.le(at + 30, 2),
                      comment_len = c.le(at + 32, 2);
  e.attributes = c.le(at + 38, 4);
  e.local = c.le(at + 42, 4);
  c.need(at + kCentralSize, name_len + extra_len + comment_len, "central directory entry");
  e.name = std::string(c.slice(at + kCentralSize, name_len));
  apply_zip64(c, at + kCentralSize + name_len, extra_len, e);
  at += kCentralSize + name_len + extra_len + comment_len;
  return e;
}

std::string inflate_member(const Cursor& c, std::uint64_t at, const Entry& e) {
  std::string out(e.size, '\0');
  z_stream z{};
  RAVE_CHECK(inflateInit2(&z, -15) == Z_OK, "inflateInit2 failed");
  std::string_view in = c.slice(at, e.compressed);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int status = inflate(&z, Z_FINISH);
  const std::uint64_t produced = z.total_out;
  const std::string reason = z.msg != nullptr ? z.msg : "size mismatch";
  inflateEnd(&z);
  if (status != Z_STREAM_END || produced != e.size)
    c.fail(at, "member " + quote_value(e.name) + ": corrupt deflate data (" + reason + ")");
  return out;
}

// Reads the local header of `e` (its name must be the central directory's, as numpy's zipfile
// requires) and sets e.data_at.
void read_local_header(const Cursor& c, Entry& e) {
  c.need(e.local, kLocalSize, "local header");
  if (c.le(e.local, 4) != kLocalSig)
    c.fail(e.local, "bad local header signature for member " + quote_value(e.name));
  const std::uint64_t name_len = c.le(e.local + 26, 2);
  c.need(e.local + kLocalSize, name_len, "local header name");
  if (c.slice(e.local + kLocalSize, name_len) != e.name)
    c.fail(e.local, "member " + quote_value(e.name) + " has another name in its local header (" +
                        quote_value(c.slice(e.local + kLocalSize, name_len)) + ")");
  if ((e.flags & 1) != 0) c.fail(e.local, "member " + quote_value(e.name) + " is encrypted");
  e.data_at = e.local + kLocalSize + name_len + c.le(e.local + 28, 2);
  c.need(e.data_at, e.compressed, "member data");
}

// Members whose bytes (local header and data) overlap each other or the central directory are the
// trick of "overlapping" zip bombs, which expand one small compressed kernel many times over;
// numpy never writes them. Throws for any overlap; also caps the total unpacked size.
void check_layout(const Cursor& c, std::vector<Entry>& entries, const Directory& d,
                  std::uint64_t max_unpacked) {
  std::uint64_t unpacked = 0;
  for (const Entry& e : entries)
    if (__builtin_add_overflow(unpacked, e.size, &unpacked) || unpacked > max_unpacked)
      c.fail(e.local, "the members unpack to more than " + std::to_string(max_unpacked) +
                          " bytes, more than a file of this kind ever holds");
  std::vector<const Entry*> order;
  for (const Entry& e : entries) order.push_back(&e);
  std::sort(order.begin(), order.end(),
            [](const Entry* a, const Entry* b) { return a->local < b->local; });
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::uint64_t end = order[i]->data_at + order[i]->compressed;
    const bool into_next = i + 1 < order.size() && end > order[i + 1]->local;
    if (into_next || (order[i]->local < d.offset + d.size && end > d.offset))
      c.fail(order[i]->local, "member " + quote_value(order[i]->name) + " overlaps " +
                                  (into_next ? "member " + quote_value(order[i + 1]->name)
                                             : "the central directory"));
  }
}

// Checks a member, inflates it into `buffer` when deflated, verifies its CRC and hands its bytes
// to `visit` (a view into the archive for stored members).
void visit_member(const Cursor& c, const Entry& e, std::string& buffer, const ZipVisitor& visit) {
  const std::uint64_t data_at = e.data_at;
  // Deflate expands at most ~1032:1, so a size beyond that is a corrupt header, not a reason to
  // allocate gigabytes.
  if (e.size > (std::uint64_t{1} << 32) || (e.method == 8 && e.size > e.compressed * 1032 + 1024))
    c.fail(e.local, "member " + quote_value(e.name) + " is implausibly large");
  // miniz (inside LibTorch) extracts nothing from a member that a trailing '/' or the MS-DOS
  // folder bit marks as a folder, so a changed attribute byte would hide a member's bytes from it.
  if (e.size > 0 && ((e.attributes & 0x10) != 0 || (!e.name.empty() && e.name.back() == '/')))
    c.fail(e.local, "member " + quote_value(e.name) + " is marked as a folder yet holds " +
                        std::to_string(e.size) + " bytes");
  std::string_view data;
  if (e.method == 0) {
    if (e.compressed != e.size)
      c.fail(e.local, "stored member " + quote_value(e.name) + " has mismatched sizes");
    data = c.slice(data_at, e.size);
  } else if (e.method == 8) {
    buffer = inflate_member(c, data_at, e);
    data = buffer;
  } else {
    c.fail(e.local, "member " + quote_value(e.name) + ": unsupported compression method " +
                        std::to_string(e.method));
  }
  const auto crc = internal::crc32_update(0, data.data(), data.size());
  if (crc != e.crc) c.fail(data_at, "CRC mismatch in member " + quote_value(e.name));
  visit(e.name, data);
}

std::vector<Entry> directory_entries(const Cursor& c, const Directory& d) {
  std::vector<Entry> entries;
  std::uint64_t at = d.offset;
  for (std::uint64_t i = 0; i < d.entries; ++i) {
    entries.push_back(read_entry(c, at));
    if (at > d.offset + d.size) c.fail(at, "central directory entry overruns the directory");
  }
  return entries;
}

}  // namespace

void visit_zip(std::string_view bytes, const std::string& file, const ZipVisitor& visit,
               const std::function<bool(std::string_view)>& wanted, std::uint64_t max_unpacked) {
  const Cursor c(bytes, file);
  const Directory d = find_directory(c);
  std::vector<Entry> entries =
      directory_entries(c, d);  // each entry takes >= 46 bytes: bounded by the file
  for (Entry& e : entries) read_local_header(c, e);
  check_layout(c, entries, d, max_unpacked);
  std::string buffer;
  for (const Entry& e : entries)
    if (!wanted || wanted(e.name)) visit_member(c, e, buffer, visit);
}

// Only the wanted members' local headers lie in the window: the layout check covers them (with the
// central directory) and the cap their unpacked sizes.
bool visit_zip_tail(std::string_view tail, std::uint64_t offset, const std::string& file,
                    const ZipVisitor& visit, const std::function<bool(std::string_view)>& wanted,
                    std::uint64_t max_unpacked) {
  const Cursor c(tail, file, offset);
  std::vector<Entry> entries;
  try {
    const Directory d = find_directory(c);
    for (Entry& e : directory_entries(c, d))
      if (!wanted || wanted(e.name)) entries.push_back(std::move(e));
    for (Entry& e : entries) read_local_header(c, e);
    check_layout(c, entries, d, max_unpacked);
  } catch (const OutsideWindow&) {
    return false;
  }
  std::string buffer;
  for (const Entry& e : entries) visit_member(c, e, buffer, visit);
  return true;
}

std::vector<ZipMember> read_zip(std::string_view bytes, const std::string& file) {
  std::vector<ZipMember> members;
  visit_zip(bytes, file, [&members](std::string_view name, std::string_view data) {
    members.push_back({std::string(name), std::string(data)});
  });
  return members;
}

}  // namespace rave::engine
