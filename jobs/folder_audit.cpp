#include "jobs/folder_audit.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <unordered_map>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/folder_lock.hpp"
#include "engine/answers/answer_set.hpp"
#include "engine/formats/layout.hpp"
#include "jobs/internal/dataset_shards.hpp"
#include "jobs/internal/dataset_state.hpp"

namespace rave::jobs {
using namespace rave::engine;  // jobs work on their values
namespace {

namespace fs = std::filesystem;

// A listed path inside the layout: "<configuration>/RAVEN_<k>_<split>.<npz|xml>".
struct ListedProblem {
  std::size_t config = 0;  ///< position in the manifest's configurations
  std::uint64_t k = 0;
  bool npz = false;
};

// What a path names, or nullopt when it leaves the layout (another folder, "..", another name,
// a k beyond num_samples or a split other than k's).
std::optional<ListedProblem> parse_listed(const std::string& path, const DatasetManifest& m) {
  const std::size_t slash = path.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string folder = path.substr(0, slash), name = path.substr(slash + 1);
  const auto at = std::find(m.configurations.begin(), m.configurations.end(), folder);
  const ProblemName parsed = parse_problem_name(name);
  if (at == m.configurations.end() || !parsed.k) return std::nullopt;
  ListedProblem p{static_cast<std::size_t>(at - m.configurations.begin()), *parsed.k, false};
  if (p.k >= m.num_samples || m.val < 0 || m.test < 0 || m.val + m.test > 10) return std::nullopt;
  const std::string stem = problem_stem(p.k, split_of(p.k, m.val, m.test));  // the only spelling
  p.npz = name == stem + ".npz";
  if (!p.npz && name != stem + ".xml") return std::nullopt;
  return p;
}

// rave.json's own fields, each within its range.
void check_fields(const DatasetManifest& m, std::vector<std::string>& out) {
  std::set<std::string> seen;
  for (const std::string& c : m.configurations) {
    if (!find_configuration(c) || configuration(*find_configuration(c)).folder != c)
      out.push_back("configurations: '" + c + "' is no configuration's folder name");
    if (!seen.insert(c).second) out.push_back("configurations: '" + c + "' named twice");
  }
  if (m.configurations.empty()) out.push_back("configurations: none");
  if (!parse_strategy(m.answers)) out.push_back("answers: '" + m.answers + "' is no strategy");
  if (m.val < 0 || m.test < 0 || m.val + m.test > 10)
    out.push_back("val, test: " + std::to_string(m.val) + " and " + std::to_string(m.test) +
                  " tenths are no split");
  try {
    check_variant(variant_from_options(
        m.variant.grid, m.variant.values ? std::optional(m.variant.values) : std::nullopt,
        m.variant.confounders, m.variant.regime, m.variant.hold_out));
  } catch (const UsageError& e) {
    out.push_back(std::string("variant: ") + e.what());
  }
}

// The counts a complete listing gives, against the manifest's.
void check_counts(const DatasetManifest& m, const std::map<std::string, ListedProblem>& problems,
                  std::vector<std::string>& out) {
  ManifestCounts c;
  for (const auto& [stem, p] : problems) {
    const Split s = split_of(p.k, m.val, m.test);
    ++(s == Split::kTrain ? c.train : s == Split::kVal ? c.val : c.test);
    ++c.problems;
  }
  c.redrawn = m.redraws.size();
  const auto differ = [&](const char* what, std::uint64_t listed, std::uint64_t said) {
    if (listed != said)
      out.push_back(std::string("counts.") + what + ": " + std::to_string(said) + " said, " +
                    std::to_string(listed) + " listed");
  };
  differ("problems", c.problems, m.counts.problems);
  differ("train", c.train, m.counts.train);
  differ("val", c.val, m.counts.val);
  differ("test", c.test, m.counts.test);
  differ("redrawn", c.redrawn, m.counts.redrawn);
  const std::uint64_t whole = m.num_samples * m.configurations.size();
  if (m.complete && m.shard.empty() && c.problems != whole)
    out.push_back("files: " + std::to_string(c.problems) + " problems listed, " +
                  std::to_string(whole) + " made (num_samples x configurations)");
  for (const auto& [problem, attempt] : m.redraws)
    if (!problems.contains(problem) || attempt == 0)
      out.push_back("redraws: '" + problem + "' is no listed problem redrawn");
}

// Every entry inside the layout and once, both files of each problem; the good entries by problem
// stem ("center_single/RAVEN_3_train"), and the manifest reduced to them (what may be opened).
std::map<std::string, ListedProblem> check_listing(const DatasetManifest& m, DatasetManifest& safe,
                                                   std::vector<std::string>& out) {
  std::map<std::string, ListedProblem> problems;
  std::map<std::string, int> halves;
  std::set<std::string> seen;
  safe.files.clear();
  for (const ManifestFile& f : m.files) {
    const auto p = parse_listed(f.path, m);
    if (!p) {
      out.push_back("files: '" + f.path + "' lies outside the dataset's layout; not read");
      continue;
    }
    if (!seen.insert(f.path).second) {
      out.push_back("files: '" + f.path + "' listed twice");
      continue;
    }
    const std::string stem = f.path.substr(0, f.path.size() - 4);
    problems[stem] = *p;
    halves[stem] += p->npz ? 1 : 2;
    safe.files.push_back(f);
  }
  for (const auto& [stem, h] : halves)
    if (h != 3) out.push_back("files: " + stem + (h == 1 ? ".xml" : ".npz") + " not listed");
  return problems;
}

// The listed entries by path.
using Index = std::unordered_map<std::string, const ManifestFile*>;

Index index_of(const DatasetManifest& m) {
  Index index;
  index.reserve(m.files.size());
  for (const ManifestFile& f : m.files) index.emplace(f.path, &f);
  return index;
}

// The writers' own files at the root, and their temporary ones.
bool state_file(const std::string& name) {
  return name == kManifestName || name == FolderLock::kFileName ||
         name.starts_with(internal::kJournalName) || name == internal::kParametersName ||
         (name.starts_with("rave.shard-") && name.ends_with(".json")) ||
         (name.starts_with(".rave.shard-") && name.ends_with(".lock"));
}

// The entries of one folder, each as "<prefix><name>", with whether it is a folder (not a link).
template <class Visit>
void for_each_entry(const fs::path& folder, const std::string& prefix,
                    std::vector<std::string>& out, Visit&& visit) {
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const bool dir = it->is_directory(ec) && !it->is_symlink(ec);
    visit(prefix + it->path().filename().string(), dir);
  }
  if (ec) out.push_back(folder.string() + ": " + ec.message());
}

// Files and folders under the root rave.json does not account for: the root's own files other
// than the writers', the configurations' files other than the listed ones, every other folder.
std::vector<std::string> unlisted_entries(const fs::path& root, const DatasetManifest& m,
                                          const Index& index) {
  std::vector<std::string> out;
  for_each_entry(root, "", out, [&](const std::string& name, bool dir) {
    const bool config = dir && std::find(m.configurations.begin(), m.configurations.end(), name) !=
                                   m.configurations.end();
    if (dir && !config) out.push_back(name + "/");
    if (!dir && !state_file(name)) out.push_back(name);
    if (!config) return;
    for_each_entry(root / name, name + "/", out, [&](const std::string& path, bool inner) {
      if (inner)
        out.push_back(path + "/");
      else if (!index.contains(path))
        out.push_back(path);
    });
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

FolderAudit audit_folder(const fs::path& root, const DatasetManifest& manifest, int threads,
                         bool crc) {
  FolderAudit a;
  a.listed = manifest.files.size();
  check_fields(manifest, a.defects);
  DatasetManifest safe = manifest;
  const auto problems = check_listing(manifest, safe, a.defects);
  check_counts(manifest, problems, a.defects);
  for (std::string& line : manifest_mismatches(root, safe, threads, crc))
    a.defects.push_back(std::move(line));
  if (!manifest.complete)
    a.defects.push_back("complete: false (the run did not finish: resume it)");
  const Index index = index_of(safe);
  a.unlisted = unlisted_entries(root, manifest, index);
  return a;
}

}  // namespace rave::jobs
