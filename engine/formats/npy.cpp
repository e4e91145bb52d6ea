#include "engine/formats/npy.hpp"

#include <cctype>
#include <cstring>

#include "common/error.hpp"

namespace rave::engine {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kArrayAlign = 64;        // numpy.lib.format.ARRAY_ALIGN
constexpr std::size_t kGrowthAxisDigits = 21;  // numpy.lib.format.GROWTH_AXIS_MAX_DIGITS

// Python's repr of a shape tuple: (), (21,), (16, 160, 160).
std::string shape_repr(std::span<const std::size_t> shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ',';
  return out + ")";
}

// A cursor over the header dict literal; every failure names the byte offset in the member.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, std::size_t base, const std::string& file,
               const std::string& member)
      : text_(text), base_(base), file_(file), member_(member) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(file_, member_ + " byte " + std::to_string(base_ + pos_),
                     "bad .npy header: " + message);
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) return ++pos_, true;
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }
  std::string quoted() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      fail("expected a string");
    const char quote = text_[pos_++];
    const std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string out(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return out;
  }
  bool boolean() {
    skip_space();
    for (auto [word, value] : {std::pair{std::string_view("True"), true}, {"False", false}})
      if (text_.substr(pos_, word.size()) == word) return pos_ += word.size(), value;
    fail("expected True or False");
  }
  std::vector<std::size_t> tuple() {
    expect('(');
    std::vector<std::size_t> shape;
    while (!accept(')')) {
      skip_space();
      if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
        fail("expected a dimension");
      std::size_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        if (value > (std::size_t{1} << 40)) fail("dimension too large");
        value = value * 10 + static_cast<std::size_t>(text_[pos_++] - '0');
      }
      accept('L');  // Python 2 longs
      shape.push_back(value);
      if (!accept(',')) {
        expect(')');
        break;
      }
    }
    return shape;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t base_;
  const std::string& file_;
  const std::string& member_;
};

std::uint32_t read_le(std::string_view bytes, std::size_t at, std::size_t width) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < width; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  return v;
}

void parse_dict(HeaderParser& p, NpyArray& array) {
  bool has_descr = false, has_order = false, has_shape = false;
  p.expect('{');
  while (!p.accept('}')) {
    const std::string key = p.quoted();
    p.expect(':');
    if (key == "descr") {
      array.descr = p.quoted();
      has_descr = true;
    } else if (key == "fortran_order") {
      if (p.boolean()) p.fail("fortran_order True is not supported");
      has_order = true;
    } else if (key == "shape") {
      array.shape = p.tuple();
      has_shape = true;
    } else {
      p.fail("unexpected key '" + key + "'");
    }
    if (!p.accept(',')) {
      p.expect('}');
      break;
    }
  }
  if (!has_descr || !has_order || !has_shape) p.fail("descr, fortran_order and shape are required");
  if (array.item_size() == 0) p.fail("unsupported dtype '" + array.descr + "'");
}

}  // namespace

std::size_t NpyArray::item_size() const {
  if (descr.size() < 3 || std::strchr("<>|=", descr[0]) == nullptr) return 0;
  std::size_t n = 0;
  for (char c : descr.substr(2)) {
    if (!std::isdigit(static_cast<unsigned char>(c)) || n > 1000000) return 0;
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  switch (descr[1]) {
    case 'U': return 4 * n;
    case 'u':
    case 'i':
    case 'f':
    case 'b':
    case 'S': return n;
    default: return 0;
  }
}

std::size_t NpyArray::element_count() const {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  return n;
}

std::string npy_header(std::string_view descr, std::span<const std::size_t> shape) {
  // numpy.lib.format._write_array_header + _wrap_header (version 1.0).
  std::string dict = "{'descr': '" + std::string(descr) +
                     "', 'fortran_order': False, 'shape': " + shape_repr(shape) + ", }";
  if (!shape.empty()) dict.append(kGrowthAxisDigits - std::to_string(shape[0]).size(), ' ');
  const std::size_t hlen = dict.size() + 1;
  const std::size_t padlen = kArrayAlign - ((kMagic.size() + 2 + 2 + hlen) % kArrayAlign);
  const std::size_t total = hlen + padlen;
  RAVE_CHECK(total <= 0xFFFF, "npy header too long for version 1.0");
  std::string out(kMagic);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(total & 0xFF);
  out += static_cast<char>(total >> 8);
  out += dict;
  out.append(padlen, ' ');
  out += '\n';
  return out;
}

NpyArray parse_npy(std::string_view bytes, const std::string& file, const std::string& member) {
  if (bytes.size() < 10 || bytes.substr(0, kMagic.size()) != kMagic)
    throw InputError(file, member + " byte 0", "not a .npy array (bad magic)");
  const int major = static_cast<unsigned char>(bytes[6]);
  if (major < 1 || major > 3 || bytes[7] != 0)
    throw InputError(file, member + " byte 6", "unsupported .npy version " + std::to_string(major));
  const std::size_t width = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + width) throw InputError(file, member + " byte 8", "truncated .npy header");
  const std::size_t header_len = read_le(bytes, 8, width);
  const std::size_t header_at = 8 + width;
  if (header_len > bytes.size() - header_at)
    throw InputError(file, member + " byte 8",
                     "header length " + std::to_string(header_len) + " exceeds the member");
  NpyArray array;
  HeaderParser parser(bytes.substr(header_at, header_len), header_at, file, member);
  parse_dict(parser, array);
  const std::size_t data_at = header_at + header_len;
  std::size_t expected = array.item_size();
  for (std::size_t d : array.shape)
    if (__builtin_mul_overflow(expected, d, &expected))
      throw InputError(file, member + " byte " + std::to_string(header_at),
                       "array shape overflows");
  if (bytes.size() - data_at != expected)
    throw InputError(file, member + " byte " + std::to_string(data_at),
                     "payload has " + std::to_string(bytes.size() - data_at) +
                         " bytes, header says " + std::to_string(expected));
  array.data.assign(bytes.substr(data_at));
  return array;
}

}  // namespace rave::engine
