#include "engine/model/style.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>

#include "common/error.hpp"
#include "common/random.hpp"

namespace rave::engine {
namespace {

// Salt of the stream `fresh` draws its parameters from.
constexpr std::uint64_t kFreshSalt = 0x5EED'57E1'0F12'E5A1ULL;

struct Preset {
  std::string_view name;
  RenderStyle style;
};

RenderStyle smooth(std::string_view name, int size, double stroke, int background, int line,
                   int first, int last) {
  return RenderStyle{.name = std::string(name),
                     .size = size,
                     .antialias = true,
                     .stroke = stroke,
                     .background = background,
                     .line = line,
                     .palette = Palette::kLstar,
                     .first = first,
                     .last = last,
                     .step = 0.25,
                     .gray_step = 4,
                     .seed = 0};
}

const std::array<Preset, 6>& presets() {
  static const std::array<Preset, 6> list{{
      {"original", RenderStyle{}},
      {"classic", RenderStyle{.name = "classic", .size = 480}},
      {"clean", smooth("clean", 224, 2, 255, 0, 230, 20)},
      {"bold", smooth("bold", 448, 2.5, 250, 20, 215, 30)},
      {"dark", smooth("dark", 224, 2, 20, 235, 60, 245)},
      {"fresh", smooth("fresh", 224, 2, 255, 0, 230, 20)},
  }};
  return list;
}

[[noreturn]] void bad(const std::string& what) { throw ParameterError("style", " " + what); }

// "'word'" followed by `rest` (built by appends: g++ 12 warns falsely on literal + string&&).
std::string quoted(std::string_view word, std::string_view rest) {
  std::string out = "'";
  out.append(word).append("'").append(rest);
  return out;
}

// `fresh`: a light look (3 in 4) or a dark one, every gray and the stroke drawn from the seed.
void draw_fresh(RenderStyle& s) {
  Rng rng(mix64(s.seed ^ kFreshSalt));
  const bool dark = rng.below(4) == 0;
  s.stroke = 1.5 + 0.25 * rng.below(5);
  if (dark) {
    s.background = rng.below(41);
    s.line = 215 + rng.below(41);
    s.first = s.background + 30 + rng.below(21);
    s.last = 215 + rng.below(41);
  } else {
    s.background = 225 + rng.below(31);
    s.line = rng.below(41);
    s.first = s.background - 30 - rng.below(21);
    s.last = rng.below(41);
  }
}

double number(const std::string& key, const std::string& value, double lo, double hi) {
  double v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || !(v >= lo && v <= hi)) {
    char range[64];
    std::snprintf(range, sizeof range, "%g..%g", lo, hi);
    bad(key + "=" + value + ": expected a number in " + range);
  }
  return v;
}

int whole(const std::string& key, const std::string& value, int lo, int hi) {
  const double v = number(key, value, lo, hi);
  if (v != std::floor(v)) bad(key + "=" + value + ": expected a whole number");
  return static_cast<int>(v);
}

void set(RenderStyle& s, const std::string& key, const std::string& value) {
  if (key == "size")
    s.size = whole(key, value, kMinStyleSize, kMaxStyleSize);
  else if (key == "aa")
    s.antialias = whole(key, value, 0, 1) == 1;
  else if (key == "stroke")
    s.stroke = number(key, value, 0.5, 8);
  else if (key == "background")
    s.background = whole(key, value, 0, 255);
  else if (key == "line")
    s.line = whole(key, value, 0, 255);
  else if (key == "first")
    s.first = whole(key, value, 0, 255);
  else if (key == "last")
    s.last = whole(key, value, 0, 255);
  else if (key == "step")
    s.step = number(key, value, 0.05, 16);
  else if (key == "gray_step")
    s.gray_step = whole(key, value, 1, 64);
  else if (key == "palette" && (value == "linear" || value == "lstar"))
    s.palette = value == "linear" ? Palette::kLinear : Palette::kLstar;
  else if (key == "palette")
    bad("palette=" + value + ": expected linear or lstar");
  else
    bad(quoted(key,
               ": unknown parameter (size, aa, stroke, background, line, palette, "
               "first, last, step, gray_step, seed)"));
}

std::map<std::string, std::string> parameters(std::string_view text) {
  std::map<std::string, std::string> out;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      bad(quoted(item, ": expected key=value"));
    if (!out.emplace(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))).second)
      bad(quoted(item.substr(0, eq), " given twice"));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return out;
}

std::string names_text() {
  std::string out;
  for (const Preset& p : presets()) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

std::string format_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  for (int digits = 1; digits <= 17; ++digits) {  // the shortest text that reads back as v
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, v);
    if (std::strtod(shorter, nullptr) == v) return shorter;
  }
  return buffer;
}

}  // namespace

std::vector<std::string_view> style_names() {
  std::vector<std::string_view> out;
  for (const Preset& p : presets()) out.push_back(p.name);
  return out;
}

RenderStyle parse_style(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  const Preset* preset = nullptr;
  for (const Preset& p : presets())
    if (p.name == name) preset = &p;
  if (preset == nullptr) bad(quoted(name, ": unknown style (" + names_text() + ")"));
  RenderStyle s = preset->style;
  auto given = colon == std::string_view::npos ? std::map<std::string, std::string>()
                                               : parameters(text.substr(colon + 1));
  if (s.is_original() && colon != std::string_view::npos)
    bad("'original' takes no parameters: it is the original generator's drawing, byte for byte");
  if (const auto seed = given.find("seed"); seed != given.end()) {
    const std::string& v = seed->second;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), s.seed);
    if (ec != std::errc() || end != v.data() + v.size()) bad("seed=" + v + ": expected 0..2^64-1");
    given.erase(seed);
  }
  if (s.name == "fresh") draw_fresh(s);
  for (const auto& [key, value] : given) set(s, key, value);
  return s;
}

std::string style_text(const RenderStyle& s) {
  if (s.is_original()) return s.name;
  return s.name + ":size=" + std::to_string(s.size) + ",aa=" + (s.antialias ? "1" : "0") +
         ",stroke=" + format_number(s.stroke) + ",background=" + std::to_string(s.background) +
         ",line=" + std::to_string(s.line) +
         ",palette=" + (s.palette == Palette::kLstar ? "lstar" : "linear") +
         ",first=" + std::to_string(s.first) + ",last=" + std::to_string(s.last) +
         ",step=" + format_number(s.step) + ",gray_step=" + std::to_string(s.gray_step) +
         ",seed=" + std::to_string(s.seed);
}

}  // namespace rave::engine
