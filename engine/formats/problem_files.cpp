#include "engine/formats/problem_files.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "common/error.hpp"
#include "engine/formats/asig_io.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/xml_io.hpp"

namespace rave::engine {
namespace {

namespace fs = std::filesystem;

// target and predict of an npz (the 400 KB image is skipped), range-checked by NpzFile.
void set_answer(const NpzFile& file, Problem& problem) {
  problem.target = static_cast<int>(file.target());
  problem.predict = static_cast<int>(file.predict());
}

void read_answer(const fs::path& npz, Problem& problem) {
  set_answer(read_npz(npz, {"target", "predict"}), problem);
}

// The sibling npz is looked for by opening it (no stat first); without one, I-RAVEN's
// modifications may name the answer.
Problem read_xml(const fs::path& xml, TargetSource target) {
  Problem problem = read_problem_xml(xml);
  if (target == TargetSource::kNone) return problem;
  if (const auto file = read_npz_if_present(sibling_npz(xml), {"target", "predict"}))
    set_answer(*file, problem);
  else
    problem.target = target_from_modifications(problem);
  return problem;
}

Problem read_npz_problem(const fs::path& npz) {
  const fs::path xml = sibling_xml(npz);
  std::error_code ec;
  if (!fs::is_regular_file(xml, ec))
    throw InputError(npz.string(), "",
                     "the symbols of an npz live in the XML beside it, and there is none (" +
                         xml.filename().string() + ")");
  Problem problem = read_problem_xml(xml);
  read_answer(npz, problem);
  return problem;
}

}  // namespace

fs::path sibling_npz(const fs::path& xml) {
  auto npz = xml;
  return npz.replace_extension(".npz");
}

fs::path sibling_xml(const fs::path& npz) {
  auto xml = npz;
  return xml.replace_extension(".xml");
}

std::optional<int> target_from_modifications(const Problem& problem) {
  if (!problem.modified) return std::nullopt;
  std::optional<int> found;
  for (int i = 0; i < kCandidates; ++i) {
    if (!(*problem.modified)[static_cast<std::size_t>(i)].empty()) continue;
    if (found) return std::nullopt;
    found = i;
  }
  return found;
}

namespace {

// path::extension() of `path`'s file name, as a view of its text: from the name's last dot, unless
// the dot starts the name (".xml" is a hidden file without one) or the name is "..".
std::string_view extension_of(const fs::path& path) {
  std::string_view name(path.native());
  name.remove_prefix(std::min(name.size(), name.rfind('/') + 1));  // npos + 1 == 0
  const std::size_t dot = name.rfind('.');
  if (name == ".." || dot == std::string_view::npos || dot == 0) return {};
  return name.substr(dot);
}

// path::operator< for the paths of one folder walk (below one root, no redundant separators): the
// texts byte by byte with the separator before every other byte, which orders them component by
// component without splitting them into components.
bool walk_order(const fs::path& a, const fs::path& b) {
  const std::string& x = a.native();
  const std::string& y = b.native();
  const std::size_t n = std::min(x.size(), y.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (x[i] == y[i]) continue;
    const auto key = [](char c) { return c == '/' ? 0 : static_cast<unsigned char>(c) + 1; };
    return key(x[i]) < key(y[i]);
  }
  return x.size() < y.size();
}

}  // namespace

bool is_problem_file(const fs::path& path) {
  const std::string_view ext = extension_of(path);
  return ext == ".xml" || ext == ".asig";
}

std::vector<fs::path> collect_problem_files(const std::vector<fs::path>& inputs) {
  return collect_problem_files(inputs, is_problem_file);
}

std::vector<fs::path> collect_problem_files(const std::vector<fs::path>& inputs,
                                            const std::function<bool(const fs::path&)>& wanted) {
  std::vector<fs::path> out;
  for (const fs::path& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      std::vector<fs::path> found;
      for (fs::recursive_directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && wanted(it->path())) found.push_back(it->path());
      if (ec) throw InputError(input.string(), "", "cannot list folder: " + ec.message());
      std::sort(found.begin(), found.end(), walk_order);
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::exists(input, ec)) {
      out.push_back(input);
    } else {
      throw InputError(input.string(), "", "no such file or folder");
    }
  }
  return out;
}

Problem parse_problem_text(std::string_view text, const std::string& name) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  const bool xml = first != std::string_view::npos &&
                   (text[first] == '<' || text.substr(first, 3) == "\xEF\xBB\xBF");
  return xml ? parse_problem_xml(text, name) : parse_asig(text, name);
}

namespace {

Problem read_by_extension(const fs::path& path, TargetSource target) {
  const fs::path ext = path.extension();
  if (ext == ".xml") return read_xml(path, target);
  if (ext == ".asig") return read_asig(path);  // holds its target, if known
  if (ext == ".npz") return read_npz_problem(path);
  throw InputError(path.string(), "", "not a problem file (expected .xml, .asig or .npz)");
}

}  // namespace

Problem read_problem(const fs::path& path, TargetSource target) {
  try {
    return read_by_extension(path, target);
  } catch (const std::bad_alloc&) {  // the readers cap what they allocate; this is the last line
    throw InputError(path.string(), "", "out of memory while reading the problem");
  } catch (const std::length_error&) {
    throw InputError(path.string(), "", "out of memory while reading the problem");
  }
}

}  // namespace rave::engine
