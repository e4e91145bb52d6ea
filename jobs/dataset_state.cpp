#include "jobs/internal/dataset_state.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <system_error>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/lines.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/zip.hpp"

namespace rave::jobs::internal {
using namespace rave::engine;  // jobs work on their values
namespace {

namespace fs = std::filesystem;

template <class T>
bool parse_number(std::string_view text, T& value, int base = 10) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return ec == std::errc() && ptr == text.data() + text.size() && !text.empty();
}

// One journal line without its newline; false when it does not parse.
bool parse_line(std::string_view line, std::string& problem, PairRecord& r) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0; start <= line.size();) {
    const std::size_t space = std::min(line.find(' ', start), line.size());
    fields.push_back(line.substr(start, space - start));
    start = space + 1;
  }
  if (fields.size() != 6 || fields[0].empty()) return false;
  problem = std::string(fields[0]);
  return parse_number(fields[1], r.attempt) && parse_number(fields[2], r.npz_size) &&
         parse_number(fields[3], r.npz_crc, 16) && fields[3].size() == 8 &&
         parse_number(fields[4], r.xml_size) && parse_number(fields[5], r.xml_crc, 16) &&
         fields[5].size() == 8;
}

std::string hex32(std::uint32_t v) {
  char buffer[9];
  std::snprintf(buffer, sizeof buffer, "%08x", v);
  return buffer;
}

bool file_matches(const fs::path& path, std::uint64_t size, std::uint32_t crc) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) != size || ec) return false;
  try {
    return crc32(read_file(path, kMaxProblemFileBytes)) == crc;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace

std::string journal_line(const std::string& problem, const PairRecord& r) {
  return problem + " " + std::to_string(r.attempt) + " " + std::to_string(r.npz_size) + " " +
         hex32(r.npz_crc) + " " + std::to_string(r.xml_size) + " " + hex32(r.xml_crc) + "\n";
}

std::map<std::string, PairRecord> read_journal(const fs::path& path) {
  std::map<std::string, PairRecord> out;
  std::error_code ec;
  if (!fs::exists(path, ec)) return out;
  const std::string text = read_file(path, std::size_t{1} << 30);
  for (const TextLine& line : text_lines(text)) {
    if (!line.ended) break;  // the last line was cut short
    std::string problem;
    PairRecord record;
    if (parse_line(line.text, problem, record)) out[problem] = record;
  }
  return out;
}

std::map<std::string, PairRecord> records_of(const DatasetManifest& manifest) {
  std::map<std::string, PairRecord> out;
  std::map<std::string, int> seen;  // 1: npz, 2: xml
  for (const ManifestFile& f : manifest.files) {
    const fs::path path(f.path);
    const std::string ext = path.extension().string();
    const std::string problem = fs::path(path).replace_extension().generic_string();
    PairRecord& r = out[problem];
    if (ext == ".npz") {
      r.npz_size = f.size;
      r.npz_crc = f.crc32;
      seen[problem] |= 1;
    }
    if (ext == ".xml") {
      r.xml_size = f.size;
      r.xml_crc = f.crc32;
      seen[problem] |= 2;
    }
  }
  for (auto it = out.begin(); it != out.end();) {
    if (seen[it->first] != 3) {
      it = out.erase(it);
      continue;
    }
    if (const auto redraw = manifest.redraws.find(it->first); redraw != manifest.redraws.end())
      it->second.attempt = redraw->second;
    ++it;
  }
  return out;
}

void list_records(const std::vector<std::pair<std::string, PairRecord>>& records,
                  DatasetManifest& manifest) {
  manifest.files.clear();
  manifest.redraws.clear();
  for (const auto& [problem, r] : records) {
    manifest.files.push_back({problem + ".npz", r.npz_size, r.npz_crc});
    manifest.files.push_back({problem + ".xml", r.xml_size, r.xml_crc});
    if (r.attempt > 0) manifest.redraws[problem] = r.attempt;
  }
}

Journal::Journal(const fs::path& path, const std::map<std::string, PairRecord>& records)
    : path_(path) {
  std::string text;
  for (const auto& [problem, record] : records) text += journal_line(problem, record);
  write_file_atomic(path, text);
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0)
    throw InputError(path.string(), "",
                     std::string("cannot open the journal: ") + std::strerror(errno));
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const std::string& problem, const PairRecord& record) {
  const std::string line = journal_line(problem, record);
  std::lock_guard lock(mutex_);
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw InputError(path_.string(), "",
                       std::string("cannot write the journal: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

void Journal::remove() {
  std::lock_guard lock(mutex_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::error_code ec;
  fs::remove(path_, ec);
}

bool pair_matches(const fs::path& root, const std::string& problem, const PairRecord& r) {
  const fs::path base = root / problem;
  return file_matches(fs::path(base).concat(".npz"), r.npz_size, r.npz_crc) &&
         file_matches(fs::path(base).concat(".xml"), r.xml_size, r.xml_crc);
}

bool pair_partly_exists(const fs::path& root, const std::string& problem) {
  const fs::path base = root / problem;
  std::error_code ec;
  return fs::exists(fs::path(base).concat(".npz"), ec) ||
         fs::exists(fs::path(base).concat(".xml"), ec);
}

std::uint64_t remove_temporary_files(const std::vector<fs::path>& folders,
                                     const std::function<bool(std::string_view name)>& ours) {
  std::uint64_t removed = 0;
  for (const fs::path& folder : folders) {
    std::error_code ec;
    std::vector<fs::path> found;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
      if (const std::string name = it->path().filename().string();
          is_temporary_name(name) && (!ours || ours(name)))
        found.push_back(it->path());
    for (const fs::path& path : found) removed += fs::remove(path, ec) ? 1 : 0;
  }
  return removed;
}

bool holds_problem_files(const fs::path& folder) {
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".npz" && p.extension() != ".xml") continue;
    const ProblemName name = parse_problem_name(p);
    if (name.prefix == "RAVEN" && name.k) return true;
  }
  return false;
}

namespace {

// What the dataset is, not how far a run has come.
DatasetManifest parameters_of(const DatasetManifest& manifest) {
  DatasetManifest parameters = manifest;
  parameters.shard.clear();
  parameters.complete = false;
  parameters.counts = {};
  parameters.files.clear();
  parameters.redraws.clear();
  return parameters;
}

// Whether the folder has a record (then `parameters` agrees with it, or InputError).
bool agrees_with_record(const fs::path& dir, const DatasetManifest& parameters) {
  const std::optional<DatasetManifest> kept = read_manifest(dir / kParametersName);
  if (!kept) return false;
  const auto differences = manifest_differences(*kept, parameters, kParametersName);
  if (differences.empty()) return true;
  std::string what;
  for (const std::string& d : differences) what += (what.empty() ? "" : "; ") + d;
  throw InputError(dir.string(), "",
                   "another writer began this dataset with other parameters (" + what +
                       "); run with the same ones, or choose another folder");
}

}  // namespace

void check_parameters(const fs::path& dir, const DatasetManifest& manifest) {
  agrees_with_record(dir, parameters_of(manifest));
}

void claim_parameters(const fs::path& dir, const DatasetManifest& manifest) {
  const DatasetManifest parameters = parameters_of(manifest);
  const fs::path record = dir / kParametersName;
  for (int tries = 0; tries < 2; ++tries) {
    if (agrees_with_record(dir, parameters)) return;
    if (create_file_exclusive(record, manifest_json(parameters))) return;
  }
  throw InputError(record.string(), "", "appeared and went while this run started; run it again");
}

void release_parameters(const fs::path& dir) {
  std::error_code ec;
  fs::remove(dir / kParametersName, ec);
}

}  // namespace rave::jobs::internal
