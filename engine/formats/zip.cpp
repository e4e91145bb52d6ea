#include "engine/formats/zip.hpp"

#include <zlib.h>

#include <cstdint>

#include "common/error.hpp"
#include "engine/formats/internal/crc32.hpp"

namespace rave::engine {
namespace {

constexpr std::uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEndSig = 0x06054b50;
constexpr std::uint16_t kVersion = 20;  // zipfile.DEFAULT_VERSION
constexpr std::uint16_t kCreateSystemUnix = 3;
constexpr std::uint16_t kDosDate19800101 = (0 << 9) | (1 << 5) | 1;
constexpr std::uint32_t kExternalAttr = 0600u << 16;  // ?rw-------
constexpr std::uint16_t kStored = 0, kDeflated = 8;

void put16(std::string& out, std::uint32_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>((v >> 8) & 0xFF);
}
void put32(std::string& out, std::uint32_t v) {
  put16(out, v & 0xFFFF);
  put16(out, v >> 16);
}
void put64(std::string& out, std::uint64_t v) {
  put32(out, static_cast<std::uint32_t>(v));
  put32(out, static_cast<std::uint32_t>(v >> 32));
}
void patch32(std::string& out, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
void patch64(std::string& out, std::size_t at, std::uint64_t v) {
  patch32(out, at, static_cast<std::uint32_t>(v));
  patch32(out, at + 4, static_cast<std::uint32_t>(v >> 32));
}

struct Written {
  std::uint32_t crc = 0;
  std::uint64_t size = 0, compressed = 0, offset = 0;
};

// Appends a member's data exactly as zipfile._ZipWriteFile does: one compress() per write(),
// then flush(); returns the compressed size.
std::uint64_t append_deflated(std::string& out, const ZipSource& member, std::uint64_t size) {
  z_stream z{};
  RAVE_CHECK(
      deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK,
      "deflateInit2 failed");
  const std::size_t start = out.size();
  out.resize(start + deflateBound(&z, static_cast<uLong>(size)) + 64 * (member.chunks.size() + 1));
  z.next_out = reinterpret_cast<Bytef*>(out.data() + start);
  z.avail_out = static_cast<uInt>(out.size() - start);
  for (std::string_view chunk : member.chunks) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data()));
    z.avail_in = static_cast<uInt>(chunk.size());
    RAVE_CHECK(deflate(&z, Z_NO_FLUSH) == Z_OK && z.avail_in == 0, "deflate ran out of space");
  }
  RAVE_CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate did not finish");
  const std::uint64_t compressed = z.total_out;
  deflateEnd(&z);
  out.resize(start + compressed);
  return compressed;
}

Written append_member(std::string& out, const ZipSource& member, bool deflate) {
  Written w;
  w.offset = out.size();
  for (std::string_view chunk : member.chunks) {
    w.crc = internal::crc32_update(w.crc, chunk.data(), chunk.size());
    w.size += chunk.size();
  }
  put32(out, kLocalSig);
  put16(out, kVersion);
  put16(out, 0);  // flags
  put16(out, deflate ? kDeflated : kStored);
  put16(out, 0);  // time 00:00:00
  put16(out, kDosDate19800101);
  put32(out, w.crc);
  const std::size_t sizes_at = out.size();
  put32(out, 0);
  put32(out, static_cast<std::uint32_t>(w.size));
  put16(out, static_cast<std::uint32_t>(member.name.size()));
  put16(out, 20);  // zip64 extra: tag, length, file size, compressed size
  out += member.name;
  put16(out, 1);
  put16(out, 16);
  put64(out, w.size);
  const std::size_t extra_compressed_at = out.size();
  put64(out, 0);
  if (deflate) {
    w.compressed = append_deflated(out, member, w.size);
  } else {
    for (std::string_view chunk : member.chunks) out.append(chunk);
    w.compressed = w.size;
  }
  RAVE_CHECK(w.compressed <= 0xFFFFFFFFu && w.offset <= 0xFFFFFFFFu,
             "npz members must stay below 4 GiB");
  patch32(out, sizes_at, static_cast<std::uint32_t>(w.compressed));
  patch64(out, extra_compressed_at, w.compressed);
  return w;
}

void append_central_entry(std::string& out, const ZipSource& member, const Written& w,
                          bool deflate) {
  put32(out, kCentralSig);
  put16(out, (kCreateSystemUnix << 8) | kVersion);
  put16(out, kVersion);
  put16(out, 0);
  put16(out, deflate ? kDeflated : kStored);
  put16(out, 0);
  put16(out, kDosDate19800101);
  put32(out, w.crc);
  put32(out, static_cast<std::uint32_t>(w.compressed));
  put32(out, static_cast<std::uint32_t>(w.size));
  put16(out, static_cast<std::uint32_t>(member.name.size()));
  put16(out, 0);  // extra
  put16(out, 0);  // comment
  put16(out, 0);  // disk
  put16(out, 0);  // internal attributes
  put32(out, kExternalAttr);
  put32(out, static_cast<std::uint32_t>(w.offset));
  out += member.name;
}

}  // namespace

std::string write_zip(std::span<const ZipSource> members, bool deflate) {
  std::string out;
  write_zip(out, members, deflate);
  return out;
}

void write_zip(std::string& out, std::span<const ZipSource> members, bool deflate) {
  std::size_t estimate = 22;
  for (const auto& m : members) {
    estimate += 30 + 20 + 46 + 2 * m.name.size();
    for (std::string_view chunk : m.chunks) estimate += chunk.size();
  }
  out.clear();
  out.reserve(deflate ? estimate / 4 : estimate);
  std::vector<Written> written;
  written.reserve(members.size());
  for (const auto& m : members) written.push_back(append_member(out, m, deflate));
  const std::size_t directory_at = out.size();
  for (std::size_t i = 0; i < members.size(); ++i)
    append_central_entry(out, members[i], written[i], deflate);
  const std::size_t directory_size = out.size() - directory_at;
  RAVE_CHECK(members.size() < 0xFFFF && out.size() <= 0xFFFFFFFFu,
             "archive needs zip64 end records");
  put32(out, kEndSig);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<std::uint32_t>(members.size()));
  put16(out, static_cast<std::uint32_t>(members.size()));
  put32(out, static_cast<std::uint32_t>(directory_size));
  put32(out, static_cast<std::uint32_t>(directory_at));
  put16(out, 0);
}

}  // namespace rave::engine
