#include "jobs/dataset_manifest.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string_view>
#include <system_error>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"
#include "engine/formats/zip.hpp"

namespace rave::jobs {
using namespace rave::engine;  // jobs work on their values
namespace {

using Json = nlohmann::ordered_json;

std::string hex32(std::uint32_t v) {
  char buffer[9];
  std::snprintf(buffer, sizeof buffer, "%08x", v);
  return buffer;
}

std::uint32_t parse_hex32(const std::string& text) {
  std::size_t used = 0;
  const unsigned long v = text.size() == 8 ? std::stoul(text, &used, 16) : 0;
  if (text.size() != 8 || used != 8)
    throw std::invalid_argument("crc32 must be 8 hex digits, not '" + text + "'");
  return static_cast<std::uint32_t>(v);
}

Json files_json(const std::vector<ManifestFile>& files) {
  Json out = Json::array();
  for (const ManifestFile& f : files)
    out.push_back({{"path", f.path}, {"size", f.size}, {"crc32", hex32(f.crc32)}});
  return out;
}

Json variant_json(const ManifestVariant& v) {
  Json out{{"grid", v.grid},     {"values", v.values},     {"confounders", v.confounders},
           {"regime", v.regime}, {"hold_out", v.hold_out}, {"symbolic_only", v.symbolic_only}};
  if (!v.style.empty()) out["style"] = v.style;  // the original style's manifests stay as they were
  return out;
}

Json to_json(const DatasetManifest& m) {
  return Json{{"format", "rave dataset manifest"},
              {"manifest_version", m.manifest_version},
              {"rave_version", m.rave_version},
              {"command", m.command},
              {"seed", m.seed},
              {"answers", m.answers},
              {"configurations", m.configurations},
              {"num_samples", m.num_samples},
              {"val", m.val},
              {"test", m.test},
              {"compress", m.compress},
              {"accept", m.accept.empty() ? Json(nullptr) : Json(m.accept)},
              {"variant", variant_json(m.variant)},
              {"shard", m.shard.empty() ? Json(nullptr) : Json(m.shard)},
              {"complete", m.complete},
              {"counts",
               {{"problems", m.counts.problems},
                {"train", m.counts.train},
                {"val", m.counts.val},
                {"test", m.counts.test},
                {"redrawn", m.counts.redrawn}}},
              {"redraws", m.redraws},
              {"files", files_json(m.files)}};
}

// Reads fields by name and type; a wrong one is an error naming it ("counts.problems": expected a
// whole number >= 0, found 1e+30), never a library's message or a silent conversion.
class FieldReader {
 public:
  explicit FieldReader(std::string file) : file_(std::move(file)) {}
  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw InputError(file_, "\"" + path + "\"", what);
  }
  const Json& at(const Json& j, const std::string& key, const std::string& prefix = "") const {
    if (!j.is_object() || !j.contains(key)) fail(prefix + key, "missing");
    return j.at(key);
  }
  std::uint64_t whole(const Json& j, const std::string& key, const std::string& prefix = "") const {
    const Json& v = at(j, key, prefix);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
      fail(prefix + key, "expected a whole number >= 0, found " + v.dump());
    return v.get<std::uint64_t>();
  }
  int small(const Json& j, const std::string& key, const std::string& prefix = "") const {
    const std::uint64_t v = whole(j, key, prefix);
    if (v > 1'000'000) fail(prefix + key, "expected at most 1000000, found " + std::to_string(v));
    return static_cast<int>(v);
  }
  std::string text(const Json& j, const std::string& key, const std::string& prefix = "") const {
    const Json& v = at(j, key, prefix);
    if (!v.is_string()) fail(prefix + key, "expected a string, found " + v.dump());
    return v.get<std::string>();
  }
  std::string text_or_null(const Json& j, const std::string& key) const {
    return j.contains(key) && j.at(key).is_null() ? std::string() : text(j, key);
  }
  bool flag(const Json& j, const std::string& key, const std::string& prefix = "") const {
    const Json& v = at(j, key, prefix);
    if (!v.is_boolean()) fail(prefix + key, "expected true or false, found " + v.dump());
    return v.get<bool>();
  }
  std::vector<std::string> texts(const Json& j, const std::string& key) const {
    const Json& v = at(j, key);
    if (!v.is_array()) fail(key, "expected a list of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string()) fail(key + "[" + std::to_string(i) + "]", "expected a string");
      out.push_back(v[i].get<std::string>());
    }
    return out;
  }

 private:
  std::string file_;
};

// A manifest written before variants existed has no "variant": the original's.
ManifestVariant variant_from_json(const FieldReader& r, const Json& j) {
  ManifestVariant v;
  if (!j.contains("variant")) return v;
  const Json& o = j.at("variant");
  v.grid = r.small(o, "grid", "variant.");
  v.values = r.small(o, "values", "variant.");
  v.confounders = r.small(o, "confounders", "variant.");
  v.regime = r.text(o, "regime", "variant.");
  v.hold_out = r.text(o, "hold_out", "variant.");
  v.symbolic_only = r.flag(o, "symbolic_only", "variant.");
  if (o.contains("style")) v.style = r.text(o, "style", "variant.");
  return v;
}

ManifestCounts counts_from_json(const FieldReader& r, const Json& j) {
  const Json& c = r.at(j, "counts");
  return {r.whole(c, "problems", "counts."), r.whole(c, "train", "counts."),
          r.whole(c, "val", "counts."), r.whole(c, "test", "counts."),
          r.whole(c, "redrawn", "counts.")};
}

std::vector<ManifestFile> files_from_json(const FieldReader& r, const Json& j) {
  const Json& files = r.at(j, "files");
  if (!files.is_array()) r.fail("files", "expected a list");
  std::vector<ManifestFile> out;
  out.reserve(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string at = "files[" + std::to_string(i) + "].";
    ManifestFile f{r.text(files[i], "path", at), r.whole(files[i], "size", at), 0};
    const std::string crc = r.text(files[i], "crc32", at);
    try {
      f.crc32 = parse_hex32(crc);
    } catch (const std::logic_error&) {
      r.fail(at + "crc32", "expected 8 hex digits, found \"" + crc + "\"");
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::map<std::string, std::uint64_t> redraws_from_json(const FieldReader& r, const Json& j) {
  const Json& redraws = r.at(j, "redraws");
  if (!redraws.is_object()) r.fail("redraws", "expected an object of problem -> attempt");
  std::map<std::string, std::uint64_t> out;
  for (const auto& [problem, attempt] : redraws.items())
    out[problem] = r.whole(redraws, problem, "redraws.");
  return out;
}

DatasetManifest from_json(const FieldReader& r, const Json& j) {
  DatasetManifest m;
  m.manifest_version = r.small(j, "manifest_version");
  m.rave_version = r.text(j, "rave_version");
  m.command = r.texts(j, "command");
  m.seed = r.whole(j, "seed");
  m.answers = r.text(j, "answers");
  m.configurations = r.texts(j, "configurations");
  m.num_samples = r.whole(j, "num_samples");
  m.val = r.small(j, "val");
  m.test = r.small(j, "test");
  m.compress = r.flag(j, "compress");
  m.accept = r.text_or_null(j, "accept");
  m.variant = variant_from_json(r, j);
  if (j.contains("shard")) m.shard = r.text_or_null(j, "shard");
  m.complete = r.flag(j, "complete");
  m.counts = counts_from_json(r, j);
  m.redraws = redraws_from_json(r, j);
  m.files = files_from_json(r, j);
  return m;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ',';
    out += w;
  }
  return out;
}

}  // namespace

std::string manifest_json(const DatasetManifest& manifest) {
  return to_json(manifest).dump(2) + "\n";
}

DatasetManifest parse_manifest(const std::string& text, const std::string& file) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file, "byte " + std::to_string(e.byte), "not JSON");
  }
  if (!j.is_object() || !j.contains("format") || j.at("format") != "rave dataset manifest")
    throw InputError(file, "",
                     "not a rave dataset manifest (no \"format\": \"rave dataset manifest\")");
  return from_json(FieldReader(file), j);
}

void write_manifest(const std::filesystem::path& path, const DatasetManifest& manifest) {
  write_file_atomic(path, manifest_json(manifest));
}

std::optional<DatasetManifest> read_manifest(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return std::nullopt;
  return parse_manifest(read_file(path), path.string());
}

std::vector<std::string> manifest_differences(const DatasetManifest& existing,
                                              const DatasetManifest& wanted,
                                              const std::string& source) {
  std::vector<std::string> out;
  const auto differ = [&](const char* what, const std::string& have, const std::string& want) {
    if (have != want)
      out.push_back(std::string(what) + ": " + have + " in " + source + ", " + want +
                    " in this run");
  };
  differ("rave version", existing.rave_version, wanted.rave_version);
  differ("seed", std::to_string(existing.seed), std::to_string(wanted.seed));
  differ("answers", existing.answers, wanted.answers);
  differ("configurations", joined(existing.configurations), joined(wanted.configurations));
  differ("num_samples", std::to_string(existing.num_samples), std::to_string(wanted.num_samples));
  differ("val", std::to_string(existing.val), std::to_string(wanted.val));
  differ("test", std::to_string(existing.test), std::to_string(wanted.test));
  differ("compress", existing.compress ? "yes" : "no", wanted.compress ? "yes" : "no");
  differ("accept", existing.accept.empty() ? "none" : existing.accept,
         wanted.accept.empty() ? "none" : wanted.accept);
  const ManifestVariant &a = existing.variant, &b = wanted.variant;
  differ("grid", std::to_string(a.grid), std::to_string(b.grid));
  differ("values", std::to_string(a.values), std::to_string(b.values));
  differ("confounders", std::to_string(a.confounders), std::to_string(b.confounders));
  differ("regime", a.regime, b.regime);
  differ("hold-out", a.hold_out.empty() ? "none" : a.hold_out,
         b.hold_out.empty() ? "none" : b.hold_out);
  differ("symbolic-only", a.symbolic_only ? "yes" : "no", b.symbolic_only ? "yes" : "no");
  differ("style", a.style.empty() ? "original" : a.style, b.style.empty() ? "original" : b.style);
  differ("shard", existing.shard.empty() ? "none" : existing.shard,
         wanted.shard.empty() ? "none" : wanted.shard);
  return out;
}

namespace {

// What is wrong with one listed file, or "" when it is there with its size and CRC-32.
std::string file_mismatch(const std::filesystem::path& root, const ManifestFile& f, bool crc) {
  thread_local std::string buffer;  // one per worker, its capacity reused file after file
  std::error_code ec;
  const std::filesystem::path path = root / f.path;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (std::filesystem::is_symlink(status))
    return f.path + ": a symbolic link, not a file of the dataset; not read";
  if (!std::filesystem::is_regular_file(status)) return f.path + ": listed in rave.json, missing";
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (size != f.size)
    return f.path + ": " + std::to_string(f.size) + " bytes listed, " + std::to_string(size) +
           " found";
  if (!crc) return {};
  read_file_into(path, buffer, f.size + 1);
  return crc32(buffer) != f.crc32 ? f.path + ": CRC-32 differs from rave.json" : std::string();
}

}  // namespace

std::vector<std::string> manifest_mismatches(const std::filesystem::path& root,
                                             const DatasetManifest& manifest, int threads,
                                             bool crc) {
  std::vector<std::string> found(manifest.files.size());
  parallel_for_index(found.size(), threads, [&](std::size_t i) {
    found[i] = file_mismatch(root, manifest.files[i], crc);
  });
  std::erase_if(found, [](const std::string& s) { return s.empty(); });
  return found;
}

std::optional<std::string> dataset_identity(const std::filesystem::path& root) {
  const auto manifest = read_manifest(root / kManifestName);
  if (!manifest || !manifest->complete || !manifest->shard.empty()) return std::nullopt;
  std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a, 64 bits
  const auto mix = [&hash](std::string_view bytes) {
    for (const unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ULL;
  };
  for (const ManifestFile& f : manifest->files)
    mix(f.path + '\t' + std::to_string(f.size) + '\t' + hex32(f.crc32) + '\n');
  std::string command;
  for (const std::string& word : manifest->command) command += (command.empty() ? "" : " ") + word;
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(hash));
  return command + "; " + std::to_string(manifest->files.size()) + " files, fnv1a64 " + digest;
}

}  // namespace rave::jobs
