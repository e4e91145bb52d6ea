// The top-level members of a JSON file, one at a time (internal/json_members.hpp): a byte cursor
// over chunks of the file that counts lines and columns and can record the bytes it passes.
#include "evaluation/internal/json_members.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/error.hpp"

namespace rave::evaluation::internal {

struct ByteSource::Impl {
  int fd = -1;       // a file, read with pread
  std::string text;  // or text in memory
  ~Impl() {
    if (fd >= 0) ::close(fd);
  }
};

ByteSource ByteSource::file(const std::filesystem::path& path) {
  auto impl = std::make_shared<Impl>();
  impl->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (impl->fd < 0) throw InputError(path.string(), "", std::strerror(errno));
  struct stat st {};
  if (::fstat(impl->fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw InputError(path.string(), "", "not a regular file");
  ByteSource out;
  out.size_ = static_cast<std::uint64_t>(st.st_size);
  out.name_ = path.string();
  out.impl_ = std::move(impl);
  return out;
}

ByteSource ByteSource::text(std::string text, std::string name) {
  auto impl = std::make_shared<Impl>();
  impl->text = std::move(text);
  ByteSource out;
  out.size_ = impl->text.size();
  out.name_ = std::move(name);
  out.impl_ = std::move(impl);
  return out;
}

void ByteSource::read(std::uint64_t offset, std::size_t n, std::string& out) const {
  out.resize(n);
  std::size_t got = 0;
  if (impl_->fd < 0) {
    got = offset < size_ ? std::min<std::uint64_t>(n, size_ - offset) : 0;
    std::memcpy(out.data(), impl_->text.data() + offset, got);
  }
  while (impl_->fd >= 0 && got < n) {
    const ssize_t r =
        ::pread(impl_->fd, out.data() + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)
      throw InputError(name_, "byte " + std::to_string(offset + got), std::strerror(errno));
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  if (got < n) throw InputError(name_, "", "shorter than when it was opened (changed while read?)");
}

namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
constexpr std::size_t kKeyBytes = 64;

// Bytes in order, a chunk at a time; `at()` is where the next byte lies. While recording, the
// bytes passed are appended to the record (a chunk's worth at a time, not byte by byte).
class Cursor {
 public:
  explicit Cursor(const ByteSource& source) : source_(source) {}
  const TextPlace& at() const { return at_; }
  bool done() {
    if (pos_ < chunk_.size()) return false;
    refill();
    return chunk_.empty();
  }
  char peek() { return done() ? '\0' : chunk_[pos_]; }
  char next() {
    const char c = peek();
    ++pos_, ++at_.offset;
    if (c == '\n')
      ++at_.position.line, at_.position.column = 1;
    else
      ++at_.position.column;
    return c;
  }
  void skip_space() {
    while (!done() && std::strchr(" \t\r\n", chunk_[pos_]) && chunk_[pos_] != '\0') next();
  }
  void record(std::string* into) {
    if (record_) record_->append(chunk_, record_from_, pos_ - record_from_);
    record_ = into, record_from_ = pos_;
  }
  [[noreturn]] void fail(const TextPlace& where, const std::string& what) const {
    throw InputError(source_.name(), line_col(where.position), what);
  }

 private:
  void refill() {
    if (record_) record_->append(chunk_, record_from_, chunk_.size() - record_from_);
    const std::uint64_t left = source_.size() - std::min(source_.size(), at_.offset);
    source_.read(at_.offset, static_cast<std::size_t>(std::min<std::uint64_t>(left, kChunkBytes)),
                 chunk_);
    pos_ = record_from_ = 0;
  }
  const ByteSource& source_;
  std::string chunk_;
  std::size_t pos_ = 0;
  TextPlace at_;
  std::string* record_ = nullptr;
  std::size_t record_from_ = 0;
};

void expect(Cursor& in, char c, const std::string& what) {
  in.skip_space();
  if (in.peek() != c) in.fail(in.at(), in.done() ? "not JSON: the file ends before " + what : what);
  in.next();
}

// A key's text between its quotes (the opening one already passed), escapes kept.
std::string read_key(Cursor& in, const TextPlace& start) {
  std::string key;
  for (bool escaped = false;;) {
    if (in.done()) in.fail(start, "not JSON: the file ends inside a key");
    const char c = in.next();
    if (!escaped && c == '"') return key;
    escaped = !escaped && c == '\\';
    if (key.size() < kKeyBytes) key += c;
  }
}

// An object's text, from its '{' to the matching '}', into `text`.
void read_value(Cursor& in, const Member& m, std::size_t max_value, std::string& text) {
  text.clear();
  in.record(&text);
  int depth = 0;
  bool quoted = false, escaped = false;
  do {
    if (in.done()) in.fail(m.value_at, "not JSON: the file ends inside problem \"" + m.key + "\"");
    const char c = in.next();
    if (quoted) {
      quoted = escaped || c != '"';
      escaped = !escaped && c == '\\';
    } else {
      quoted = c == '"';
      depth += (c == '{' || c == '[') - (c == '}' || c == ']');
    }
    if (in.at().offset - m.value_at.offset > max_value)
      in.fail(m.value_at, "problem \"" + m.key + "\" is over " + std::to_string(max_value >> 20) +
                              " MiB (not an IBM problem?)");
  } while (depth > 0);
  in.record(nullptr);
}

}  // namespace

void for_each_member(const ByteSource& source, std::size_t max_value,
                     const std::function<void(const Member&, const std::string&)>& visit) {
  Cursor in(source);
  expect(in, '{', "not an IBM problem file: expected an object of problems keyed by number");
  std::string text;
  in.skip_space();
  for (bool first = true; first ? in.peek() != '}' : true; first = false) {
    Member m{.key = {}, .key_at = {}, .value_at = {}, .length = 0};
    if (!first) expect(in, ',', "expected ',' or '}' after a problem");
    in.skip_space();
    m.key_at = in.at();
    expect(in, '"', "expected a problem's key in quotes");
    m.key = read_key(in, m.key_at);
    expect(in, ':', "expected ':' after the key \"" + m.key + "\"");
    in.skip_space();
    m.value_at = in.at();
    if (in.peek() != '{') in.fail(m.value_at, "problem \"" + m.key + "\": expected an object");
    read_value(in, m, max_value, text);
    m.length = in.at().offset - m.value_at.offset;
    visit(m, text);
    in.skip_space();
    if (in.peek() == '}') break;
  }
  in.next();  // the closing '}'
  in.skip_space();
  if (!in.done()) in.fail(in.at(), "text after the object of problems");
}

}  // namespace rave::evaluation::internal
