// The .asig problem format (engine/formats/asig_io.hpp, docs/asig.md): the writer and the line
// reader. Panel sentences are handled by engine/formats/asig_panel.cpp.
#include "engine/formats/asig_io.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/lines.hpp"
#include "common/text.hpp"
#include "engine/formats/internal/asig_panel.hpp"
#include "engine/formats/layout.hpp"
#include "engine/model/constraints.hpp"

namespace rave::engine {
namespace {

constexpr std::string_view kHeaderComment = "# rave A-SIG problem: docs/asig.md";
constexpr std::string_view kVersion = "1";

std::string parameter_text(const Rule& rule) {
  if (!rule.value_known) return "?";
  std::string text = rule.value > 0 ? "+" : "";
  return text.append(std::to_string(rule.value));
}

// Group position r of a rule group holds Number/Position rules (r = 0) or Type, Size, Color.
// A blank-separated field of a line and where it starts in the file.
struct Field {
  std::string_view text;
  std::size_t offset;
};

struct Line {
  std::string_view text;  ///< without the line break
  std::size_t offset;     ///< of the line's first byte in the file
  std::vector<Field> fields;
};

std::vector<Field> split_fields(std::string_view line, std::size_t offset) {
  std::vector<Field> out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ' || line[i] == '\t') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    out.push_back({line.substr(start, i - start), offset + start});
  }
  return out;
}

// The lines that carry content: blank lines and `#` comments are skipped, '\r' before '\n' dropped.
std::vector<Line> content_lines(std::string_view text) {
  std::vector<Line> out;
  for (const TextLine& line : text_lines(text)) {
    auto fields = split_fields(line.text, line.offset);
    if (!fields.empty() && !fields[0].text.starts_with('#'))
      out.push_back({line.text, line.offset, std::move(fields)});
  }
  return out;
}

class AsigReader {
 public:
  AsigReader(std::string_view text, std::string_view file) : text_(text), file_(file) {}
  Problem read();

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    throw InputError(std::string(file_), line_col(text_, offset), message);
  }
  int integer(const Field& field, int lo, int hi, std::string_view what) const;
  void expect_fields(const Line& line, std::size_t count, std::string_view form) const;
  void first_given(std::optional<std::size_t>& first, const Line& line,
                   const std::string& what) const;
  void read_header(const std::vector<Line>& lines);
  void read_line(const Line& line);
  void read_rule(const Line& line);
  void read_panel(const Line& line, int base);
  void read_modified(const Line& line);
  void read_answer(const Line& line, std::optional<int>& slot, std::optional<std::size_t>& first);
  void finish();

  std::string_view text_;
  std::string_view file_;
  Problem problem_;
  std::vector<std::vector<Rule>> rules_;                ///< per component, in file order
  std::array<std::optional<std::size_t>, 16> panels_;   ///< line offset where panel i was given
  std::array<std::optional<std::size_t>, 8> modified_;  ///< line offset of `modified i`
  std::optional<std::size_t> target_line_;
  std::optional<std::size_t> predict_line_;
};

int AsigReader::integer(const Field& field, int lo, int hi, std::string_view what) const {
  std::string_view digits = field.text;
  if (digits.starts_with('+') && digits.size() > 1 && digits[1] != '-') digits.remove_prefix(1);
  int value = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || ptr != digits.data() + digits.size() || value < lo || value > hi)
    fail(field.offset, "expected " + std::string(what) + " " + std::to_string(lo) + ".." +
                           std::to_string(hi) + ", got " + quote_value(field.text));
  return value;
}

void AsigReader::expect_fields(const Line& line, std::size_t count, std::string_view form) const {
  if (line.fields.size() < count)
    fail(line.offset + line.text.size(), "expected '" + std::string(form) + "', got end of line");
  if (line.fields.size() > count)
    fail(line.fields[count].offset, "expected end of line after '" + std::string(form) + "', got " +
                                        quote_value(line.fields[count].text));
}

void AsigReader::first_given(std::optional<std::size_t>& first, const Line& line,
                             const std::string& what) const {
  if (first) {
    const std::string place = line_col(text_, *first);
    fail(line.offset, "expected " + what + " once, got it again (first on line " +
                          place.substr(0, place.find(':')) + ")");
  }
  first = line.offset;
}

void AsigReader::read_header(const std::vector<Line>& lines) {
  if (lines.empty() || lines[0].fields[0].text != "asig")
    fail(lines.empty() ? text_.size() : lines[0].fields[0].offset,
         "expected 'asig " + std::string(kVersion) + "' as the first line");
  expect_fields(lines[0], 2, "asig <version>");
  if (lines[0].fields[1].text != kVersion)
    fail(lines[0].fields[1].offset, "expected format version " + std::string(kVersion) + ", got " +
                                        quote_value(lines[0].fields[1].text));
  if (lines.size() < 2 || lines[1].fields[0].text != "configuration")
    fail(lines.size() < 2 ? text_.size() : lines[1].fields[0].offset,
         "expected 'configuration <name>' after 'asig'");
  expect_fields(lines[1], 2, "configuration <name>");
  const auto config = find_configuration(lines[1].fields[1].text);
  if (!config)
    fail(lines[1].fields[1].offset, "expected a configuration (" + configuration_names() +
                                        "), got " + quote_value(lines[1].fields[1].text));
  problem_.config = *config;
  rules_.resize(configuration(*config).components.size());
}

void AsigReader::read_line(const Line& line) {
  const std::string_view key = line.fields[0].text;
  if (key == "rule") return read_rule(line);
  if (key == "context") return read_panel(line, 0);
  if (key == "candidate") return read_panel(line, 8);
  if (key == "modified") return read_modified(line);
  if (key == "target") return read_answer(line, problem_.target, target_line_);
  if (key == "predict") return read_answer(line, problem_.predict, predict_line_);
  fail(line.fields[0].offset,
       "expected rule, target, predict, context, candidate or modified, got " + quote_value(key));
}

void AsigReader::read_rule(const Line& line) {
  expect_fields(line, 5, "rule <component> <name> <attr> <parameter>");
  const auto& f = line.fields;
  const auto component =
      static_cast<std::size_t>(integer(f[1], 0, static_cast<int>(rules_.size()) - 1, "component"));
  auto& group = rules_[component];
  if (group.size() == 4) fail(line.offset, "expected 4 rules per component, got a fifth");
  const auto name = parse_rule_name(f[2].text);
  if (!name)
    fail(f[2].offset, "expected Constant, Progression, Arithmetic or Distribute_Three, got " +
                          quote_value(f[2].text));
  const auto attr = parse_rule_attr(f[3].text);
  if (!attr || !rule_attr_fits(group.size(), *attr))
    fail(f[3].offset,
         "expected the attr of rule " + std::to_string(group.size() + 1) +
             " of a group (Number/Position, Number or Position; then Type, Size, Color), got " +
             quote_value(f[3].text));
  Rule rule{.name = *name, .attr = *attr, .value = 0, .value_known = f[4].text != "?"};
  if (rule.value_known) rule.value = integer(f[4], -2, 2, "a parameter ('?' or an integer)");
  const LayoutSpec& layout = configuration(problem_.config).components[component].layout;
  const int position = static_cast<int>(group.size());
  const Rule any_parameter{.name = rule.name, .attr = rule.attr, .value = 0, .value_known = false};
  // Located at the rule when no parameter would do, else at the parameter.
  if (const std::string defect = rule_defect(position, any_parameter, layout); !defect.empty())
    fail(f[2].offset, defect);
  if (const std::string defect = rule_defect(position, rule, layout); !defect.empty())
    fail(f[4].offset, defect);
  group.push_back(rule);
}

void AsigReader::read_panel(const Line& line, int base) {
  const std::string kind(line.fields[0].text);
  if (line.fields.size() < 3) expect_fields(line, 3, kind + " <index> <sentence>");
  const int index = integer(line.fields[1], 0, 7, kind + " index");
  first_given(panels_[static_cast<std::size_t>(base + index)], line,
              kind + " " + std::to_string(index));
  const std::size_t start = line.fields[2].offset;
  problem_.panel(base + index) = internal::read_panel_sentence(
      problem_.config, text_, start, line.offset + line.text.size() - start, file_);
}

void AsigReader::read_modified(const Line& line) {
  if (line.fields.size() < 2)
    expect_fields(line, 2, "modified <candidate> [<component>:<attr> ...]");
  const int index = integer(line.fields[1], 0, 7, "candidate index");
  first_given(modified_[static_cast<std::size_t>(index)], line,
              "modified " + std::to_string(index));
  if (!problem_.modified) problem_.modified.emplace();
  auto& mods = (*problem_.modified)[static_cast<std::size_t>(index)];
  for (std::size_t i = 2; i < line.fields.size(); ++i) {
    const Field& f = line.fields[i];
    const std::size_t colon = f.text.find(':');
    const auto attr =
        colon == std::string_view::npos ? std::nullopt : parse_attr(f.text.substr(colon + 1));
    if (!attr || *attr == Attr::kAngle || *attr == Attr::kUniformity)
      fail(f.offset,
           "expected <component>:<Number|Position|Type|Size|Color>, got " + quote_value(f.text));
    const Field component{f.text.substr(0, colon), f.offset};
    mods.push_back(
        {integer(component, 0, static_cast<int>(rules_.size()) - 1, "component"), *attr});
  }
}

void AsigReader::read_answer(const Line& line, std::optional<int>& slot,
                             std::optional<std::size_t>& first) {
  const std::string key(line.fields[0].text);
  expect_fields(line, 2, key + " <candidate>");
  first_given(first, line, key);
  slot = integer(line.fields[1], 0, 7, "candidate index");
}

void AsigReader::finish() {
  for (std::size_t i = 0; i < panels_.size(); ++i)
    if (!panels_[i])
      fail(text_.size(), "expected a line '" + std::string(i < 8 ? "context " : "candidate ") +
                             std::to_string(i % 8) + " <sentence>', got end of file");
  const bool no_rules =
      std::all_of(rules_.begin(), rules_.end(), [](const auto& group) { return group.empty(); });
  for (std::size_t c = 0; c < rules_.size() && !no_rules;
       ++c) {  // no rule lines at all: rules unknown
    if (rules_[c].size() != 4)
      fail(text_.size(), "expected 4 rules for component " + std::to_string(c) + ", got " +
                             std::to_string(rules_[c].size()));
    problem_.rules.push_back(RuleGroup{{rules_[c][0], rules_[c][1], rules_[c][2], rules_[c][3]}});
  }
  for (std::size_t i = 0; i < modified_.size(); ++i)
    if (problem_.modified && !modified_[i])
      fail(text_.size(), "expected a line 'modified " + std::to_string(i) +
                             " ...' (all 8 candidates or none), got end of file");
}

Problem AsigReader::read() {
  const auto lines = content_lines(text_);
  read_header(lines);
  for (std::size_t i = 2; i < lines.size(); ++i) read_line(lines[i]);
  finish();
  return std::move(problem_);
}

}  // namespace

std::string write_asig(const Problem& problem) {
  if (!problem.variant.is_original())
    throw UsageError(
        "the .asig format holds the original 3x3 problems; this one is a variant "
        "(docs/variants.md): "
        "keep it as XML");
  const Configuration& config = configuration(problem.config);
  std::string out;
  out.append(kHeaderComment)
      .append("\nasig ")
      .append(kVersion)
      .append("\nconfiguration ")
      .append(config.folder);
  out += '\n';
  for (std::size_t c = 0; c < problem.rules.size(); ++c)
    for (const Rule& rule : problem.rules[c].rules)
      out.append("rule ")
          .append(std::to_string(c))
          .append(" ")
          .append(rule_name_text(rule.name))
          .append(" ")
          .append(rule_attr_text(rule.attr))
          .append(" ")
          .append(parameter_text(rule))
          .append("\n");
  if (problem.target) out.append("target ").append(std::to_string(*problem.target)).append("\n");
  if (problem.predict) out.append("predict ").append(std::to_string(*problem.predict)).append("\n");
  for (int i = 0; i < 16; ++i)
    out.append(i < 8 ? "context " : "candidate ")
        .append(std::to_string(i % 8))
        .append(" ")
        .append(panel_sentence(problem.config, problem.panel(i)))
        .append("\n");
  if (!problem.modified) return out;
  for (std::size_t i = 0; i < 8; ++i) {
    out.append("modified ").append(std::to_string(i));
    for (const Modification& m : (*problem.modified)[i])
      out.append(" ").append(std::to_string(m.component)).append(":").append(attr_name(m.attr));
    out += '\n';
  }
  return out;
}

Problem parse_asig(std::string_view text, std::string_view file_name) {
  return AsigReader(text, file_name).read();
}

Problem read_asig(const std::filesystem::path& path) {
  return parse_asig(read_file(path, kMaxProblemFileBytes), path.string());
}

}  // namespace rave::engine
