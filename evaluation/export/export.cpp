#include "evaluation/export/export.hpp"

#include <nlohmann/json.hpp>

#include <optional>

#include "common/error.hpp"
#include "evaluation/internal/json_writer.hpp"
#include "evaluation/internal/problem_json.hpp"
#include "evaluation/shuffle.hpp"

namespace rave::evaluation {
namespace {

using internal::JsonWriter;

void write_strings(JsonWriter& w, const std::vector<std::string>& texts) {
  w.begin_array();
  for (const std::string& t : texts) w.value(t);
  w.end_array();
}

// IBM's styles: the system prompt and the query; lm-raven's: one prompt per candidate.
void write_text(JsonWriter& w, const TextPrompt& t, PromptStyle style) {
  if (style != PromptStyle::kLmRaven)
    w.key("system").value(system_prompt(style)).key("prompt").value(t.prompt);
  w.key("context").value(t.context);
  write_strings(w.key("choices"), t.choices);
  if (style == PromptStyle::kLmRaven) write_strings(w.key("choice_prompts"), t.choice_prompts);
}

void write_payload(JsonWriter& w, const engine::Problem& problem, const ExportOptions& o,
                   const TextOptions& text) {
  switch (o.format) {
    case ExportFormat::kText: write_text(w, entangled_prompt(problem, text), text.style); return;
    case ExportFormat::kTextDisentangled:
      w.key("prompts").begin_array();
      for (const AttributePrompt& a : disentangled_prompts(problem, text)) {
        w.begin_object().key("component").value(a.component).key("attribute").value(a.attribute);
        write_text(w, a.text, text.style);
        w.end_object();
      }
      w.end_array();
      // Solver_pred._split returns the entangled candidates too: both its results match them.
      if (text.classmode == ClassMode::kPred)
        write_strings(w.key("choices"), entangled_prompt(problem, text).choices);
      return;
    case ExportFormat::kJson: internal::write_problem_fields(w, problem, !o.no_answer); return;
  }
}

}  // namespace

std::string_view format_name(ExportFormat format) {
  switch (format) {
    case ExportFormat::kText: return "text";
    case ExportFormat::kTextDisentangled: return "text-disentangled";
    case ExportFormat::kJson: return "json";
  }
  return "";
}

std::optional<ExportFormat> parse_format(std::string_view name) {
  for (auto f : {ExportFormat::kText, ExportFormat::kTextDisentangled, ExportFormat::kJson})
    if (format_name(f) == name) return f;
  return std::nullopt;
}

void append_export_line(std::string& out, const Item& item, const engine::Problem& problem,
                        const ExportOptions& o) {
  std::optional<engine::Problem> reordered;
  if (o.shuffle_seed)
    reordered = shuffled(problem, candidate_order(*o.shuffle_seed, item.id, item.candidates));
  else if (o.answer_first && problem.target)
    reordered = shuffled(problem, answer_first_order(*problem.target, item.candidates));
  const engine::Problem& shown = reordered ? *reordered : problem;
  TextOptions text = o.text;
  text.uncertainty_seed = numpy_seed(o.uncertainty_seed, item.id);
  JsonWriter w(out);
  w.begin_object().key("id").value(item.id);
  w.key("configuration").value(engine::configuration(item.config).folder);
  w.key("split").value(item.split);
  if (!o.no_answer) {
    w.key("answer");
    if (shown.target)
      w.value(*shown.target);
    else
      w.null();
  }
  w.key("verdict").value(solver::verdict_name(item.verdict));
  if (o.shuffle_seed) w.key("answers_shuffled").value(static_cast<std::size_t>(*o.shuffle_seed));
  if (o.answer_first) w.key("answer_first").value(true);
  if (o.format != ExportFormat::kJson) {
    w.key("style").value(style_name(text.style));
    if (text.classmode == ClassMode::kPred)
      w.key("classmode").value(classmode_name(text.classmode));
    if (text.uncertainty)
      w.key("uncertainty_seed").value(static_cast<std::int64_t>(text.uncertainty_seed));
  }
  write_payload(w, shown, o, text);
  w.end_object();
}

std::string export_line(const Item& item, const engine::Problem& problem, const ExportOptions& o) {
  std::string out;
  append_export_line(out, item, problem, o);
  return out;
}

ExportCounts export_set(const std::filesystem::path& root, const ExportOptions& o, int threads,
                        std::string& out) {
  return export_set(root, o, threads, [&](std::string_view piece) { out.append(piece); });
}

ExportCounts export_set(const std::filesystem::path& root, const ExportOptions& o, int threads,
                        const std::function<void(std::string_view)>& sink) {
  constexpr std::size_t kPieceBytes = std::size_t{1} << 20;
  ExportCounts n;
  std::string out;
  for_each_item(root, threads, [&](const Item& item, const engine::Problem& problem) {
    if (o.drop_ambiguous && item.verdict != solver::Verdict::kUnique) {
      ++n.dropped;
      return;
    }
    append_export_line(out, item, problem, o);
    out += '\n';
    ++n.written;
    if (out.size() >= kPieceBytes) sink(out), out.clear();
  });
  if (!out.empty()) sink(out);
  return n;
}

ExportedProblem parse_json_export_line(std::string_view line, const std::string& file,
                                       std::size_t line_number) {
  const internal::JsonPlace place{file, line_number};
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file, "line " + std::to_string(line_number),
                     "not a JSON object (syntax error at column " + std::to_string(e.byte) + ")");
  }
  ExportedProblem out;
  out.problem = internal::problem_from_fields(j, place);
  out.id = j.value("id", "");
  out.split = j.value("split", "");
  return out;
}

}  // namespace rave::evaluation
