#pragma once
// Disk caches of tables a process would otherwise rebuild at every start (the renderer's entity
// templates, perception's slot tables: docs/perception.md#speed). A cache file is versioned and
// checksummed: a header (magic, format version, kind, payload size, a 64-bit checksum of the
// checked part of the payload) before the payload, and it is keyed by the build of the program
// reading it (the GNU build-id of the object holding this code, else its path, size and time), so
// a rebuilt rave never reads tables another build wrote. Files are written to a temporary name and renamed into
// place, so concurrent processes only ever see whole files; a file that fails any check is
// ignored (and rewritten). The folder is $RAVE_CACHE_DIR, else $XDG_CACHE_HOME/rave, else
// ~/.cache/rave; RAVE_CACHE_DIR=off turns caching off. Failing to write is never an error.
//
//   if (auto path = cache_path("perception-center_single")) {
//     CacheMapping file;
//     if (auto bytes = read_cache(*path, "perception", file)) use(*bytes);
//     else write_cache(*path, "perception", build());
//   }
//   ByteWriter w;  w.u32(7);  w.bytes(data);            // the payload's own fields
//   ByteReader r(payload);  std::uint32_t n = r.u32();   // throws CacheError past the end
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rave {

/// The file of cache `name` for this build, or nullopt when caching is off or no folder is known.
std::optional<std::filesystem::path> cache_path(std::string_view name);
/// A cache file mapped into memory (read-only), unmapped when it goes.
class CacheMapping {
 public:
  CacheMapping() = default;
  CacheMapping(const CacheMapping&) = delete;
  CacheMapping& operator=(const CacheMapping&) = delete;
  ~CacheMapping();
  /// Maps `path`; false when it cannot.
  bool map(const std::filesystem::path& path);
  std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

/// The payload of a cache file of `kind`, mapped by `file` (a view into it), or nullopt when the
/// file is missing or fails a check.
std::optional<std::string_view> read_cache(const std::filesystem::path& path, std::string_view kind,
                                           CacheMapping& file);
/// Writes a cache file atomically (temporary file, then rename); false when it could not. The
/// header's checksum covers the payload's first `checked` bytes (all by default): a payload of
/// many parts read on demand checks its index there and each part itself (checksum()).
bool write_cache(const std::filesystem::path& path, std::string_view kind, std::string_view payload,
                 std::size_t checked = static_cast<std::size_t>(-1));
/// The 64-bit checksum cache files use.
std::uint64_t checksum(std::string_view bytes);

/// A payload that ends early or holds an impossible count.
class CacheError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Appends fixed-size little-endian fields and arrays of trivially copyable values.
class ByteWriter {
 public:
  void u32(std::uint32_t v) { raw(&v, sizeof v); }
  void u64(std::uint64_t v) { raw(&v, sizeof v); }
  template <class T>
  void array(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    u64(values.size());
    raw(values.data(), values.size() * sizeof(T));
  }
  void text(std::string_view s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
  std::string& bytes() { return out_; }

 private:
  void raw(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }
  std::string out_;
};

/// Reads what ByteWriter wrote; CacheError past the end.
class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : rest_(bytes) {}
  std::uint32_t u32() { return scalar<std::uint32_t>(); }
  std::uint64_t u64() { return scalar<std::uint64_t>(); }
  template <class T>
  std::vector<T> array() {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::uint64_t n = u64();
    if (n > rest_.size() / sizeof(T)) throw CacheError("cache: an array runs past the end");
    std::vector<T> out(static_cast<std::size_t>(n));
    take(out.data(), out.size() * sizeof(T));
    return out;
  }
  std::string text() {
    const std::uint64_t n = u64();
    if (n > rest_.size()) throw CacheError("cache: a text runs past the end");
    std::string out(rest_.substr(0, static_cast<std::size_t>(n)));
    rest_.remove_prefix(static_cast<std::size_t>(n));
    return out;
  }
  bool done() const { return rest_.empty(); }

 private:
  template <class T>
  T scalar() {
    T v;
    take(&v, sizeof v);
    return v;
  }
  void take(void* p, std::size_t n) {
    if (n > rest_.size()) throw CacheError("cache: the payload ends early");
    if (n > 0) std::memcpy(p, rest_.data(), n);
    rest_.remove_prefix(n);
  }
  std::string_view rest_;
};

}  // namespace rave
