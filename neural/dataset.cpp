#include "neural/dataset.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "common/error.hpp"
#include "engine/formats/npz.hpp"
#include "engine/model/image.hpp"

namespace rave::neural {
namespace fs = std::filesystem;
namespace {

// Problem number k of `RAVEN_<k>_<split>`, for numeric ordering (files without one sort last).
std::uint64_t problem_number(const fs::path& file) {
  return engine::parse_problem_name(file).k.value_or(UINT64_MAX);
}

std::vector<fs::path> split_files(const fs::path& folder, engine::Split split) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && in_split(it->path(), split)) out.push_back(it->path());
  if (ec) throw InputError(folder.string(), "", "cannot list folder: " + ec.message());
  std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) {
    const auto ka = problem_number(a), kb = problem_number(b);
    return ka != kb ? ka < kb : a < b;
  });
  return out;
}

bool wanted(engine::ConfigId id, std::span<const engine::ConfigId> configs) {
  return configs.empty() || std::find(configs.begin(), configs.end(), id) != configs.end();
}

std::string describe(std::span<const engine::ConfigId> configs) {
  if (configs.empty()) return "any configuration folder";
  std::string s;
  for (auto id : configs)
    s += (s.empty() ? "" : ", ") + std::string(engine::configuration(id).folder);
  return s;
}

// The bytes of a file in a per-thread buffer that keeps its capacity, so reading problem after
// problem allocates (and page-faults in) no fresh 400 KB block each time.
std::string_view read_reused(const fs::path& path) {
  thread_local std::string buffer;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw InputError(path.string(), "", std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  std::size_t size = 0;
  if (::fstat(fd, &st) == 0) size = static_cast<std::size_t>(st.st_size);
  if (buffer.size() < size) buffer.resize(size);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, buffer.data() + done, size - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const int error = errno;
  ::close(fd);
  if (done != size)
    throw InputError(path.string(), "", std::string("read failed: ") + std::strerror(error));
  return {buffer.data(), size};
}

template <std::size_t N>
std::array<float, N> bits(const std::array<std::uint8_t, N>& in) {
  std::array<float, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = in[i] != 0 ? 1.0f : 0.0f;
  return out;
}

}  // namespace

bool in_split(const fs::path& file, engine::Split split) {
  return file.extension() == ".npz" && engine::parse_problem_name(file).split == split;
}

std::vector<DataFile> list_split(const fs::path& root, engine::Split split,
                                 std::span<const engine::ConfigId> configs) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw InputError(root.string(), "", "no such data folder");
  std::vector<DataFile> files;
  const auto self = engine::find_configuration(root.filename().string());
  for (const auto& c : engine::all_configurations()) {
    if (!wanted(c.id, configs)) continue;
    const fs::path folder =
        self ? (*self == c.id ? root : fs::path{}) : root / std::string(c.folder);
    if (folder.empty() || !fs::is_directory(folder, ec)) continue;
    for (auto& p : split_files(folder, split)) files.push_back({std::move(p), c.id});
  }
  if (files.empty())
    throw InputError(root.string(), "",
                     "empty split: no RAVEN_<k>_" + std::string(engine::split_name(split)) +
                         ".npz files in " + describe(configs));
  return files;
}

LoadedProblem load_problem(const DataFile& file, const PanelResizer& resize, bool candidates_only) {
  const std::string name = file.path.string();
  const engine::NpzFile npz =
      engine::parse_npz(read_reused(file.path), name,
                        {"image", "target", "meta_target", "structure", "meta_structure"});
  LoadedProblem p;
  p.config = file.config;
  p.target = npz.target();
  if (p.target < 0 || p.target > 7)
    throw InputError(name, "target.npy", "target " + std::to_string(p.target) + " is not in 0..7");
  p.meta_target = bits(npz.meta_target());
  p.meta_structure = bits(npz.meta_structure());
  p.drt = drt_input_from_tokens(npz.structure(), name);
  const auto image = npz.image();
  RAVE_CHECK(resize.in_size() == engine::kPanelSize, "the resizer must take 160x160 panels");
  const std::size_t in = static_cast<std::size_t>(engine::kPanelSize) * engine::kPanelSize;
  const std::size_t out = static_cast<std::size_t>(resize.out_size()) * resize.out_size();
  p.image.resize(16 * out);
  for (std::size_t panel = 0; panel < 16; ++panel) {
    if (candidates_only && panel < 8) continue;  // stays zero
    if (resize.out_size() == engine::kPanelSize)
      std::memcpy(&p.image[panel * out], image.data() + panel * in, in);
    else
      resize(image.data() + panel * in, &p.image[panel * out]);
  }
  return p;
}

void permute_candidates(LoadedProblem& p, const std::array<int, 8>& order) {
  const std::size_t panel = p.image.size() / 16;
  std::vector<std::uint8_t> old(p.image.begin() + 8 * static_cast<std::ptrdiff_t>(panel),
                                p.image.end());
  std::int64_t target = -1;
  for (std::size_t i = 0; i < 8; ++i) {
    const auto from = static_cast<std::size_t>(order[i]);
    RAVE_CHECK(from < 8, "candidate order must be a permutation of 0..7");
    std::memcpy(&p.image[(8 + i) * panel], &old[from * panel], panel);
    if (static_cast<std::int64_t>(from) == p.target) target = static_cast<std::int64_t>(i);
  }
  RAVE_CHECK(target >= 0, "candidate order must be a permutation of 0..7");
  p.target = target;
}

void mirror_panels(LoadedProblem& p, int side) {
  const auto s = static_cast<std::size_t>(side);
  RAVE_CHECK(s > 0 && p.image.size() % (s * s) == 0, "panels must be side x side");
  for (std::size_t row = 0; row < p.image.size(); row += s)
    std::reverse(p.image.begin() + static_cast<std::ptrdiff_t>(row),
                 p.image.begin() + static_cast<std::ptrdiff_t>(row + s));
}

}  // namespace rave::neural
