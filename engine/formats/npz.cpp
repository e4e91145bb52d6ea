#include "engine/formats/npz.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/text.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/zip.hpp"
#include "engine/model/structure.hpp"

namespace rave::engine {
namespace {

constexpr std::size_t kPanelBytes = static_cast<std::size_t>(kPanelSize) * kPanelSize;

std::string int64_le(std::int64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[static_cast<std::size_t>(i)] =
        static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xFF);
  return out;
}

// numpy's <U{n}: each token as n little-endian UTF-32 code units, zero padded.
std::string utf32_tokens(const std::vector<std::string>& tokens, std::size_t& width) {
  width = 1;
  for (const auto& t : tokens) width = std::max(width, t.size());
  std::string out(tokens.size() * width * 4, '\0');
  for (std::size_t i = 0; i < tokens.size(); ++i)
    for (std::size_t j = 0; j < tokens[i].size(); ++j) {
      RAVE_CHECK(static_cast<unsigned char>(tokens[i][j]) < 0x80, "structure tokens are ASCII");
      out[(i * width + j) * 4] = tokens[i][j];
    }
  return out;
}

std::string_view bytes_of(const void* data, std::size_t n) {
  return {static_cast<const char*>(data), n};
}

}  // namespace

NpzContents npz_contents(const Problem& problem, std::span<const Image> images) {
  RAVE_CHECK(images.empty() || static_cast<int>(images.size()) == problem.panel_count(),
             "one image per panel of the problem");
  RAVE_CHECK(problem.target.has_value(), "npz needs the problem's target");
  NpzContents c;
  c.image.resize(images.size() * kPanelBytes);
  for (std::size_t i = 0; i < images.size(); ++i)
    std::memcpy(c.image.data() + i * kPanelBytes, images[i].data(), kPanelBytes);
  c.target = *problem.target;
  c.predict = problem.predict.value_or(*problem.target);
  c.meta_matrix = meta_matrix(problem.rules);
  c.meta_target = meta_target(problem.rules);
  c.structure = structure_tokens(problem.config);
  c.meta_structure = meta_structure(problem.config);
  return c;
}

namespace {

// Writes the seven members in numpy.savez's order (six without `image`: a symbolic-only problem).
// `image` is the (P, 160, 160) payload in pieces: stored members take them as they are; deflated
// ones get them as one buffer, because numpy hands the whole array to one write() and
// byte-identical deflate output follows the calls.
void encode_members(std::string& out, const NpzContents& c, std::span<const std::string_view> image,
                    bool compress) {
  using Shape = std::vector<std::size_t>;
  std::size_t image_bytes = 0;
  for (std::string_view piece : image) image_bytes += piece.size();
  const auto side = static_cast<std::size_t>(c.image_side);
  RAVE_CHECK(image_bytes % (side * side) == 0, "image must be whole square panels");
  const Shape image_shape{image_bytes / (side * side), side, side}, scalar{}, one{1},
      matrix_shape{8, 9}, nine{9}, tokens{c.structure.size()}, bits{21};
  std::size_t width = 0;
  const std::string structure = utf32_tokens(c.structure, width);
  const std::string target = int64_le(c.target), predict = int64_le(c.predict);
  const std::string headers[] = {npy_header("|u1", image_shape),
                                 npy_header("<i8", scalar),
                                 npy_header("<i8", c.predict_as_vector ? one : scalar),
                                 npy_header("|u1", matrix_shape),
                                 npy_header("|u1", nine),
                                 npy_header("<U" + std::to_string(width), tokens),
                                 npy_header("|u1", bits)};
  std::vector<std::string_view> image_chunks{headers[0]};
  thread_local std::string joined;
  if (compress && image.size() > 1) {
    joined.clear();
    for (std::string_view piece : image) joined += piece;
    image_chunks.push_back(joined);
  } else {
    image_chunks.insert(image_chunks.end(), image.begin(), image.end());
  }
  const ZipSource members[] = {
      {"image.npy", std::move(image_chunks)},
      {"target.npy", {headers[1], target}},
      {"predict.npy", {headers[2], predict}},
      {"meta_matrix.npy", {headers[3], bytes_of(c.meta_matrix.data(), 72)}},
      {"meta_target.npy", {headers[4], bytes_of(c.meta_target.data(), 9)}},
      {"structure.npy", {headers[5], structure}},
      {"meta_structure.npy", {headers[6], bytes_of(c.meta_structure.data(), 21)}},
  };
  write_zip(out, std::span(members).subspan(image_bytes == 0 ? 1 : 0), compress);
}

}  // namespace

std::string encode_npz(const NpzContents& c, bool compress) {
  const std::string_view image = bytes_of(c.image.data(), c.image.size());
  std::string out;
  encode_members(out, c, std::span(&image, c.image.empty() ? 0 : 1), compress);
  return out;
}

void encode_problem_npz(std::string& out, const Problem& problem, std::span<const Image> images,
                        bool compress, bool predict_as_vector) {
  RAVE_CHECK(images.empty() || static_cast<int>(images.size()) == problem.panel_count(),
             "one image per panel of the problem");
  std::vector<std::string_view> pieces;
  for (const Image& panel : images) pieces.push_back(bytes_of(panel.data(), panel.size()));
  NpzContents fields = npz_contents(problem, {});
  fields.predict_as_vector = predict_as_vector;
  encode_members(out, fields, pieces, compress);
}

void encode_stack_npz(std::string& out, const Problem& problem, const PanelStack& panels,
                      bool compress, bool predict_as_vector) {
  RAVE_CHECK(panels.pixels.empty() || panels.count() == problem.panel_count(),
             "one image per panel of the problem");
  const std::string_view piece = bytes_of(panels.pixels.data(), panels.pixels.size());
  NpzContents fields = npz_contents(problem, {});
  fields.predict_as_vector = predict_as_vector;
  fields.image_side = panels.side;
  encode_members(out, fields, std::span(&piece, panels.pixels.empty() ? 0 : 1), compress);
}

NpzContents stack_npz_contents(const Problem& problem, const PanelStack& panels) {
  RAVE_CHECK(panels.pixels.empty() || panels.count() == problem.panel_count(),
             "one image per panel of the problem");
  NpzContents c = npz_contents(problem, {});
  c.image = panels.pixels;
  c.image_side = panels.side;
  return c;
}

std::string encode_problem_npz(const Problem& problem, std::span<const Image> images,
                               bool compress) {
  std::string out;
  encode_problem_npz(out, problem, images, compress);
  return out;
}

NpzFile::NpzFile(std::string file, std::vector<std::pair<std::string, NpyArray>> members)
    : file_(std::move(file)) {
  for (auto& [key, array] : members) {
    keys_.push_back(key);
    arrays_.insert_or_assign(key, std::move(array));
  }
}

const NpyArray& NpzFile::array(const std::string& key) const {
  auto it = arrays_.find(key);
  if (it == arrays_.end())
    throw InputError(file_, key + ".npy", "missing member '" + key + ".npy'");
  return it->second;
}

namespace {

// What the member holds where it differs from `want`: its dtype when `dtype_ok` is false, else its
// shape (numpy's spelling), so the message names the real mismatch.
[[noreturn]] void wrong(const NpzFile& f, const std::string& key, const NpyArray& a,
                        const std::string& want, bool dtype_ok) {
  std::string shape = "(";
  for (std::size_t i = 0; i < a.shape.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(a.shape[i]);
  shape += a.shape.size() == 1 ? ",)" : ")";
  const std::string found =
      dtype_ok ? "shape " + shape : "dtype " + quote_value(a.descr) + " of shape " + shape;
  throw InputError(f.file(), key + ".npy", "expected " + want + ", found " + found);
}

const NpyArray& typed(const NpzFile& f, const std::string& key, std::string_view descr,
                      std::vector<std::size_t> shape, const std::string& want) {
  const NpyArray& a = f.array(key);
  if (a.descr != descr || a.shape != shape) wrong(f, key, a, want, a.descr == descr);
  return a;
}

// A candidate index (target, predict): int64 of shape () or (1,) as the originals write it, 0..7.
std::int64_t candidate_index(const NpzFile& f, const std::string& key) {
  const NpyArray& a = f.array(key);
  const bool shape_ok = a.shape.empty() || a.shape == std::vector<std::size_t>{1};
  if (a.descr != "<i8" || !shape_ok)
    wrong(f, key, a, "int64 of shape () or (1,)", a.descr == "<i8");
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(a.data[static_cast<std::size_t>(i)]);
  const auto value = static_cast<std::int64_t>(v);
  if (value < 0 || value >= kCandidates)
    throw InputError(f.file(), key + ".npy",
                     key + " " + std::to_string(value) + " is not a candidate index 0..7");
  return value;
}

// A uint8 array of bits (meta_matrix, meta_target, meta_structure): every value 0 or 1.
const NpyArray& bits(const NpzFile& f, const std::string& key, std::vector<std::size_t> shape,
                     const std::string& want) {
  const NpyArray& a = typed(f, key, "|u1", std::move(shape), want);
  for (std::size_t i = 0; i < a.data.size(); ++i)
    if (static_cast<unsigned char>(a.data[i]) > 1)
      throw InputError(f.file(), key + ".npy",
                       key + " holds " + std::to_string(static_cast<unsigned char>(a.data[i])) +
                           " at index " + std::to_string(i) + "; its values are bits (0 or 1)");
  return a;
}

template <std::size_t N>
std::array<std::uint8_t, N> bytes_array(const NpyArray& a) {
  std::array<std::uint8_t, N> out{};
  std::memcpy(out.data(), a.data.data(), N);
  return out;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6)), out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12)),
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18)),
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
        out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

std::span<const std::uint8_t> NpzFile::image() const {
  const NpyArray& a =
      typed(*this, "image", "|u1", {16, kPanelSize, kPanelSize}, "uint8 (16, 160, 160)");
  return {reinterpret_cast<const std::uint8_t*>(a.data.data()), a.data.size()};
}

std::span<const std::uint8_t> NpzFile::grid_image(int& grid) const {
  const NpyArray& a = array("image");
  grid = 0;
  for (int n = kMinGrid; n <= kMaxGrid && a.shape.size() == 3; ++n)
    if (a.shape[0] == static_cast<std::size_t>(panel_count(n))) grid = n;
  if (a.descr != "|u1" || grid == 0 || a.shape[1] != kPanelSize || a.shape[2] != kPanelSize)
    wrong(*this, "image", a, "uint8 (N*N+7, 160, 160) with N in 3..10", a.descr == "|u1");
  return {reinterpret_cast<const std::uint8_t*>(a.data.data()), a.data.size()};
}
std::span<const std::uint8_t> NpzFile::panels(int& grid, int& side) const {
  const NpyArray& a = array("image");
  grid = 0;
  side = a.shape.size() == 3 ? static_cast<int>(a.shape[1]) : 0;
  for (int n = kMinGrid; n <= kMaxGrid && a.shape.size() == 3; ++n)
    if (a.shape[0] == static_cast<std::size_t>(panel_count(n))) grid = n;
  if (a.descr != "|u1" || grid == 0 || a.shape[2] != a.shape[1] || side < kMinStyleSize ||
      side > kMaxStyleSize)
    wrong(*this, "image", a,
          "uint8 (16, 160, 160), or (N*N+7, S, S) with N in 3..10 and S in 32..1024",
          a.descr == "|u1");
  return {reinterpret_cast<const std::uint8_t*>(a.data.data()), a.data.size()};
}

std::int64_t NpzFile::target() const { return candidate_index(*this, "target"); }
std::int64_t NpzFile::predict() const { return candidate_index(*this, "predict"); }

std::array<std::array<std::uint8_t, 9>, 8> NpzFile::meta_matrix() const {
  const NpyArray& a = bits(*this, "meta_matrix", {8, 9}, "uint8 (8, 9)");
  std::array<std::array<std::uint8_t, 9>, 8> out{};
  for (std::size_t r = 0; r < 8; ++r) std::memcpy(out[r].data(), a.data.data() + 9 * r, 9);
  return out;
}
std::array<std::uint8_t, 9> NpzFile::meta_target() const {
  return bytes_array<9>(bits(*this, "meta_target", {9}, "uint8 (9,)"));
}
std::array<std::uint8_t, 21> NpzFile::meta_structure() const {
  return bytes_array<21>(bits(*this, "meta_structure", {21}, "uint8 (21,)"));
}

std::vector<std::string> NpzFile::structure() const {
  const NpyArray& a = array("structure");
  const bool unicode = a.descr.rfind("<U", 0) == 0, bytes = a.descr.rfind("|S", 0) == 0;
  if ((!unicode && !bytes) || a.shape.size() != 1)
    wrong(*this, "structure", a, "<U{n} or |S{n} of shape (T,)", unicode || bytes);
  const std::size_t item = a.item_size();
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < a.shape[0]; ++i) {
    std::string token;
    for (std::size_t j = 0; j < item; j += unicode ? 4 : 1) {
      std::uint32_t cp = static_cast<unsigned char>(a.data[i * item + j]);
      if (unicode)
        for (std::size_t b = 1; b < 4; ++b)
          cp |= static_cast<std::uint32_t>(static_cast<unsigned char>(a.data[i * item + j + b]))
                << (8 * b);
      if (cp == 0) break;
      if (unicode)
        append_utf8(token, cp);
      else
        token += static_cast<char>(cp);
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

NpzContents NpzFile::contents() const {
  NpzContents c;
  if (contains("image")) {  // a symbolic-only problem has none
    int grid = 0;
    const auto img = panels(grid, c.image_side);
    c.image.assign(img.begin(), img.end());
  }
  c.target = target();
  c.predict = predict();
  c.predict_as_vector = !array("predict").shape.empty();
  c.meta_matrix = meta_matrix();
  c.meta_target = meta_target();
  c.structure = structure();
  c.meta_structure = meta_structure();
  return c;
}

namespace {

std::string key_of(std::string_view member) {
  if (member.size() > 4 && member.substr(member.size() - 4) == ".npy") member.remove_suffix(4);
  return std::string(member);
}

// Parses each member `visit_zip` hands over.
struct MemberParser {
  const std::string& file_name;
  std::vector<std::pair<std::string, NpyArray>> members;
  void operator()(std::string_view name, std::string_view data) {
    members.emplace_back(key_of(name), parse_npy(data, file_name, std::string(name)));
  }
};

NpzFile parse_members(std::string_view bytes, const std::string& file_name,
                      const std::function<bool(std::string_view)>& wanted) {
  MemberParser parser{file_name, {}};
  visit_zip(bytes, file_name, std::ref(parser), wanted, kMaxProblemFileBytes);
  return NpzFile(file_name, std::move(parser.members));
}

std::function<bool(std::string_view)> only(std::initializer_list<std::string_view> keys) {
  std::vector<std::string> wanted(keys.begin(), keys.end());
  return [wanted = std::move(wanted)](std::string_view member) {
    return std::find(wanted.begin(), wanted.end(), key_of(member)) != wanted.end();
  };
}

}  // namespace

NpzFile parse_npz(std::string_view bytes, const std::string& file_name) {
  return parse_members(bytes, file_name, {});
}

NpzFile parse_npz(std::string_view bytes, const std::string& file_name,
                  std::initializer_list<std::string_view> keys) {
  return parse_members(bytes, file_name, only(keys));
}

NpzFile read_npz(const std::filesystem::path& path) {
  return parse_npz(read_file(path, kMaxProblemFileBytes), path.string());
}

// numpy writes the small members after the 400 KB image, so the last few KB of the file usually
// hold them and the central directory (2.1-2.6 KB in RAVEN's files): read 4 KB first, then 64 KB,
// and the whole file only when a wanted member lies before those (another writer's member order).
std::optional<NpzFile> read_npz_if_present(const std::filesystem::path& path,
                                           std::initializer_list<std::string_view> keys) {
  thread_local std::string tail;
  const std::string name = path.string();
  const auto wanted = only(keys);
  for (const std::size_t window : {std::size_t{4} << 10, std::size_t{64} << 10}) {
    const std::optional<std::uint64_t> size = read_file_tail_if_present(path, window, tail);
    if (!size) return std::nullopt;
    MemberParser parser{name, {}};
    if (visit_zip_tail(tail, *size - tail.size(), name, std::ref(parser), wanted,
                       kMaxProblemFileBytes))
      return NpzFile(name, std::move(parser.members));
    if (tail.size() == *size) break;  // the window held the whole file
  }
  return parse_npz(read_file(path, kMaxProblemFileBytes), name, keys);
}

NpzFile read_npz(const std::filesystem::path& path, std::initializer_list<std::string_view> keys) {
  std::optional<NpzFile> file = read_npz_if_present(path, keys);
  if (!file) return read_npz(path);  // the whole-file reader names what the path is instead
  return std::move(*file);
}

}  // namespace rave::engine
