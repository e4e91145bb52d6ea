#pragma once
// RAVEN problem .npz files (docs/format.md#npz), both ways. The encoder writes the bytes
// numpy.savez (or, with `compress`, numpy.savez_compressed) wrote under Python 3.11 and numpy
// 1.24: a ZIP with zip64 local extras, members `<key>.npy` in the order image, target, predict,
// meta_matrix, meta_target, structure, meta_structure. An N x N problem (docs/variants.md) stores
// its N*N-1 context panels then the 8 candidates as image (N*N+7, 160, 160); a symbolic-only one
// has no image member. The reader accepts what numpy and the
// original Python 2 tools wrote (stored or deflated members, .npy v1/v2/v3, `|S` or `<U`
// structure, predict of shape () or (1,)) and throws rave::InputError naming the file and the
// member or byte offset on anything else.
//
//   std::string bytes = encode_problem_npz(problem, render_problem(problem), /*compress=*/false);
//   NpzFile f = read_npz("RAVEN_0_train.npz");
//   std::int64_t answer = f.target();  const std::uint8_t* panel3 = f.image().data() + 3 * 25600;
#include <array>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/formats/npy.hpp"
#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// Everything a RAVEN npz holds.
struct NpzContents {
  std::vector<std::uint8_t> image;  ///< P x side x side, file order; empty: no member
  int image_side = kPanelSize;      ///< panel side of `image` (160 but for a render style's)
  std::int64_t target = 0;          ///< index 0..7 of the answer
  std::int64_t predict = 0;         ///< the generator's solver choice
  bool predict_as_vector = false;   ///< shape (1,) as RAVEN-FAIR writes it
  std::array<std::array<std::uint8_t, 9>, 8> meta_matrix{};
  std::array<std::uint8_t, 9> meta_target{};
  std::vector<std::string> structure;  ///< tokens (ASCII), stored as <U{n}
  std::array<std::uint8_t, 21> meta_structure{};
  friend bool operator==(const NpzContents&, const NpzContents&) = default;
};

/// The npz contents of a problem and its rendered panels (no panels: everything but the image).
/// Precondition: problem.target is set; predict defaults to the target (the original's solver,
/// given the true rules, picks it).
NpzContents npz_contents(const Problem& problem, std::span<const Image> images);
/// The same from panels of any side (a render style's, engine/model/style.hpp).
NpzContents stack_npz_contents(const Problem& problem, const PanelStack& panels);
/// The npz bytes (numpy.savez, or numpy.savez_compressed when `compress`).
std::string encode_npz(const NpzContents& contents, bool compress);
/// npz_contents + encode_npz, without copying the panels first.
std::string encode_problem_npz(const Problem& problem, std::span<const Image> images,
                               bool compress);
/// The same into `out` (replaced; its capacity is reused). `predict_as_vector` writes predict with
/// shape (1,) as the RAVEN-FAIR generator does.
void encode_problem_npz(std::string& out, const Problem& problem, std::span<const Image> images,
                        bool compress, bool predict_as_vector = false);
/// The same from panels of any side (empty pixels: no `image` member).
void encode_stack_npz(std::string& out, const Problem& problem, const PanelStack& panels,
                      bool compress, bool predict_as_vector = false);

/// A parsed npz: its members by key (without `.npy`) and typed accessors for the RAVEN keys. The
/// accessors throw InputError naming the file and the member when a key is missing or has the
/// wrong dtype or shape.
class NpzFile {
 public:
  /// Members in file order, keys without `.npy`.
  NpzFile(std::string file, std::vector<std::pair<std::string, NpyArray>> members);
  const std::string& file() const { return file_; }
  /// Keys in file order.
  const std::vector<std::string>& keys() const { return keys_; }
  bool contains(const std::string& key) const { return arrays_.count(key) != 0; }
  /// The member `key`; throws InputError when absent.
  const NpyArray& array(const std::string& key) const;

  std::span<const std::uint8_t> image() const;  ///< (16, 160, 160) uint8, valid while *this lives
  /// `image` of an N x N problem, (N*N+7, 160, 160) uint8 with N in 3..10; `grid` gets N.
  std::span<const std::uint8_t> grid_image(int& grid) const;
  /// `image` of any problem: (N*N+7, S, S) uint8, N in 3..10 and S in kMinStyleSize..
  /// kMaxStyleSize (160 but for a render style's); `grid` gets N and `side` S.
  std::span<const std::uint8_t> panels(int& grid, int& side) const;
  std::int64_t target() const;   ///< () or (1,) int64, 0..7
  std::int64_t predict() const;  ///< () or (1,) int64, 0..7
  std::array<std::array<std::uint8_t, 9>, 8> meta_matrix()
      const;  ///< bits (0 or 1), as meta_target, meta_structure
  std::array<std::uint8_t, 9> meta_target() const;
  std::vector<std::string> structure() const;  ///< <U{n} or |S{n}
  std::array<std::uint8_t, 21> meta_structure() const;
  /// All RAVEN keys at once (`image` of any matrix side, empty when absent).
  NpzContents contents() const;

 private:
  std::string file_;
  std::vector<std::string> keys_;
  std::map<std::string, NpyArray> arrays_;
};

/// Reads and parses an npz file (CRC checked; at most kMaxProblemFileBytes read and unpacked).
NpzFile read_npz(const std::filesystem::path& path);
/// Reads only the members `keys` (e.g. {"target", "predict"}), skipping the others unchecked:
/// what a reader that needs no pixels wants.
NpzFile read_npz(const std::filesystem::path& path, std::initializer_list<std::string_view> keys);
/// The same, or nullopt when `path` names nothing or no regular file (an optional sibling file).
std::optional<NpzFile> read_npz_if_present(const std::filesystem::path& path,
                                           std::initializer_list<std::string_view> keys);
/// Parses npz bytes; `file_name` is only used in error messages.
NpzFile parse_npz(std::string_view bytes, const std::string& file_name);
/// Parses only the members `keys`.
NpzFile parse_npz(std::string_view bytes, const std::string& file_name,
                  std::initializer_list<std::string_view> keys);

}  // namespace rave::engine
