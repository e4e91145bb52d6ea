#include "common/cache_file.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <system_error>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace rave {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'R', 'A', 'V', 'E', 'C', 'A', 'C', 'H'};
constexpr std::uint32_t kFormat = 1;
// magic, format, kind hash, payload size, checked size, checksum
constexpr std::size_t kHeader = 8 + 4 + 4 + 8 + 8 + 8;

}  // namespace

std::uint64_t checksum(std::string_view bytes) {
  std::uint64_t h = 0xCBF29CE484222325ull ^ bytes.size();
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, bytes.data() + i, 8);
    h = (h ^ w) * 0x100000001B3ull;
    h ^= h >> 31;
  }
  for (; i < bytes.size(); ++i) h = (h ^ static_cast<unsigned char>(bytes[i])) * 0x100000001B3ull;
  return h ^ (h >> 29);
}

namespace {

std::uint32_t kind_hash(std::string_view kind) {
  return static_cast<std::uint32_t>(checksum(kind));
}

// The GNU build-id of the loaded object that holds `address`, as hex ("" when it has none).
struct BuildIdSearch {
  const void* address;
  std::string id;
};

int find_build_id(dl_phdr_info* info, std::size_t, void* data) {
  auto* search = static_cast<BuildIdSearch*>(data);
  const auto target = reinterpret_cast<ElfW(Addr)>(search->address);
  bool holds = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    const ElfW(Addr) start = info->dlpi_addr + ph.p_vaddr;
    holds = holds || (ph.p_type == PT_LOAD && target >= start && target < start + ph.p_memsz);
  }
  if (!holds) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    // The loader gives the note's place as an address.
    const char* p = reinterpret_cast<const char*>(  // NOLINT(performance-no-int-to-ptr)
        info->dlpi_addr + ph.p_vaddr);
    const char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const char* desc = p + sizeof(ElfW(Nhdr)) + ((note->n_namesz + 3) & ~3u);
      if (note->n_type == NT_GNU_BUILD_ID && desc + note->n_descsz <= end) {
        static const char kHex[] = "0123456789abcdef";
        for (std::uint32_t k = 0; k < note->n_descsz; ++k) {
          const auto b = static_cast<unsigned char>(desc[k]);
          search->id += kHex[b >> 4];
          search->id += kHex[b & 15];
        }
        return 1;
      }
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return 1;
}

// What identifies this build: its build-id, else the file's path, size and time.
std::string fingerprint() {
  static const std::string value = [] {
    BuildIdSearch search{reinterpret_cast<const void*>(&fingerprint), {}};
    dl_iterate_phdr(find_build_id, &search);
    if (!search.id.empty()) return search.id.substr(0, 24);
    Dl_info info{};
    struct stat st {};
    if (dladdr(reinterpret_cast<const void*>(&fingerprint), &info) == 0 ||
        info.dli_fname == nullptr || stat(info.dli_fname, &st) != 0)
      return std::string();
    const std::string key = std::string(info.dli_fname) + "/" + std::to_string(st.st_size) + "/" +
                            std::to_string(st.st_mtim.tv_sec) + "." +
                            std::to_string(st.st_mtim.tv_nsec);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(checksum(key)));
    return std::string(hex);
  }();
  return value;
}

std::optional<fs::path> cache_folder() {
  if (const char* dir = std::getenv("RAVE_CACHE_DIR"); dir != nullptr && *dir != '\0')
    return std::string_view(dir) == "off" ? std::nullopt : std::optional<fs::path>(dir);
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return fs::path(xdg) / "rave";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/')
    return fs::path(home) / ".cache" / "rave";
  return std::nullopt;
}

}  // namespace

std::optional<fs::path> cache_path(std::string_view name) {
  const auto folder = cache_folder();
  const std::string id = fingerprint();
  if (!folder || id.empty()) return std::nullopt;
  return *folder / (std::string(name) + "-" + id + ".bin");
}

CacheMapping::~CacheMapping() {
  if (data_ != nullptr) munmap(data_, size_);
}

bool CacheMapping::map(const fs::path& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  void* data = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    data = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (data == MAP_FAILED) return false;
  data_ = data;
  size_ = static_cast<std::size_t>(st.st_size);
  return true;
}

std::optional<std::string_view> read_cache(const fs::path& path, std::string_view kind,
                                           CacheMapping& file) {
  if (!file.map(path)) return std::nullopt;
  const std::string_view bytes = file.bytes();
  if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, 8) != 0) return std::nullopt;
  ByteReader header(bytes.substr(8, kHeader - 8));
  const std::uint32_t format = header.u32(), hashed_kind = header.u32();
  const std::uint64_t size = header.u64(), checked = header.u64(), sum = header.u64();
  const std::string_view payload = bytes.substr(kHeader);
  if (format != kFormat || hashed_kind != kind_hash(kind) || size != payload.size() ||
      checked > size || sum != checksum(payload.substr(0, static_cast<std::size_t>(checked))))
    return std::nullopt;
  return payload;
}

namespace {

// Keeps the newest few files of this cache's name (other builds' among them) and removes the rest,
// so that rebuilding rave does not pile up stale tables.
void prune_siblings(const fs::path& path) {
  constexpr std::size_t kKept = 4;
  const std::string file = path.filename().string();
  const std::string stem = file.substr(0, file.rfind('-') + 1);  // "name-"
  std::vector<std::pair<fs::file_time_type, fs::path>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(path.parent_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > stem.size() && name.starts_with(stem) && name.ends_with(".bin"))
      found.emplace_back(entry.last_write_time(ec), entry.path());
  }
  if (found.size() <= kKept) return;
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = kKept; i < found.size(); ++i)
    if (found[i].second != path) fs::remove(found[i].second, ec);
}

}  // namespace

bool write_cache(const fs::path& path, std::string_view kind, std::string_view payload,
                 std::size_t checked) {
  checked = std::min(checked, payload.size());
  ByteWriter w;
  w.bytes().append(kMagic, 8);
  w.u32(kFormat);
  w.u32(kind_hash(kind));
  w.u64(payload.size());
  w.u64(checked);
  w.u64(checksum(payload.substr(0, checked)));
  w.bytes().append(payload);
  try {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    write_file_atomic(path, w.bytes());
    prune_siblings(path);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace rave
