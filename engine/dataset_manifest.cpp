#include "engine/dataset_manifest.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <system_error>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/zip.hpp"

namespace rave::engine {
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
  return Json{{"grid", v.grid},     {"values", v.values},     {"confounders", v.confounders},
              {"regime", v.regime}, {"hold_out", v.hold_out}, {"symbolic_only", v.symbolic_only}};
}

// A manifest written before variants existed has no "variant": the original's.
ManifestVariant variant_from_json(const Json& j) {
  ManifestVariant v;
  if (!j.contains("variant")) return v;
  const Json& o = j.at("variant");
  o.at("grid").get_to(v.grid);
  o.at("values").get_to(v.values);
  o.at("confounders").get_to(v.confounders);
  o.at("regime").get_to(v.regime);
  o.at("hold_out").get_to(v.hold_out);
  o.at("symbolic_only").get_to(v.symbolic_only);
  return v;
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

DatasetManifest from_json(const Json& j) {
  DatasetManifest m;
  j.at("manifest_version").get_to(m.manifest_version);
  j.at("rave_version").get_to(m.rave_version);
  j.at("command").get_to(m.command);
  j.at("seed").get_to(m.seed);
  j.at("answers").get_to(m.answers);
  j.at("configurations").get_to(m.configurations);
  j.at("num_samples").get_to(m.num_samples);
  j.at("val").get_to(m.val);
  j.at("test").get_to(m.test);
  j.at("compress").get_to(m.compress);
  if (!j.at("accept").is_null()) j.at("accept").get_to(m.accept);
  m.variant = variant_from_json(j);
  if (j.contains("shard") && !j.at("shard").is_null()) j.at("shard").get_to(m.shard);
  j.at("complete").get_to(m.complete);
  const Json& counts = j.at("counts");
  counts.at("problems").get_to(m.counts.problems);
  counts.at("train").get_to(m.counts.train);
  counts.at("val").get_to(m.counts.val);
  counts.at("test").get_to(m.counts.test);
  counts.at("redrawn").get_to(m.counts.redrawn);
  j.at("redraws").get_to(m.redraws);
  for (const Json& f : j.at("files"))
    m.files.push_back({f.at("path").get<std::string>(), f.at("size").get<std::uint64_t>(),
                       parse_hex32(f.at("crc32").get<std::string>())});
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
  try {
    const Json j = Json::parse(text);
    if (!j.is_object() || j.value("format", "") != "rave dataset manifest")
      throw InputError(file, "",
                       "not a rave dataset manifest (no \"format\": \"rave dataset manifest\")");
    return from_json(j);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file, "", std::string("not a readable rave dataset manifest: ") + e.what());
  } catch (const std::logic_error& e) {  // parse_hex32
    throw InputError(file, "", std::string("not a readable rave dataset manifest: ") + e.what());
  }
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
  differ("shard", existing.shard.empty() ? "none" : existing.shard,
         wanted.shard.empty() ? "none" : wanted.shard);
  return out;
}

std::vector<std::string> manifest_mismatches(const std::filesystem::path& root,
                                             const DatasetManifest& manifest) {
  std::vector<std::string> out;
  for (const ManifestFile& f : manifest.files) {
    std::error_code ec;
    const std::filesystem::path path = root / f.path;
    if (!std::filesystem::is_regular_file(path, ec)) {
      out.push_back(f.path + ": listed in rave.json, missing");
      continue;
    }
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    if (size != f.size) {
      out.push_back(f.path + ": " + std::to_string(f.size) + " bytes listed, " +
                    std::to_string(size) + " found");
      continue;
    }
    if (crc32(read_file(path, f.size + 1)) != f.crc32)
      out.push_back(f.path + ": CRC-32 differs from rave.json");
  }
  return out;
}

}  // namespace rave::engine
