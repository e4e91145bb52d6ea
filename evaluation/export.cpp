#include "evaluation/export.hpp"

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "evaluation/internal/problem_json.hpp"
#include "evaluation/shuffle.hpp"

namespace rave::evaluation {
namespace {

using Ordered = nlohmann::ordered_json;

void append_text(Ordered& out, const TextPrompt& t) {
  out["prompt"] = t.prompt;
  out["context"] = t.context;
  out["choices"] = t.choices;
}

void append_payload(Ordered& out, const engine::Problem& problem, const ExportOptions& o) {
  switch (o.format) {
    case ExportFormat::kText: append_text(out, entangled_prompt(problem, o.text)); return;
    case ExportFormat::kTextDisentangled: {
      Ordered prompts = Ordered::array();
      for (const AttributePrompt& a : disentangled_prompts(problem, o.text)) {
        Ordered p{{"component", a.component}, {"attribute", a.attribute}};
        append_text(p, a.text);
        prompts.push_back(std::move(p));
      }
      out["prompts"] = std::move(prompts);
      return;
    }
    case ExportFormat::kJson:
      internal::append_problem_fields(out, problem, !o.no_answer, o.text.smooth);
      return;
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

std::string export_line(const Item& item, const engine::Problem& problem, const ExportOptions& o) {
  const engine::Problem shown =
      o.shuffle_seed ? shuffled(problem, candidate_order(*o.shuffle_seed, item.id, item.candidates))
                     : problem;
  Ordered out{{"id", item.id},
              {"configuration", engine::configuration(item.config).folder},
              {"split", item.split}};
  if (!o.no_answer) out["answer"] = shown.target ? Ordered(*shown.target) : Ordered(nullptr);
  out["verdict"] = solver::verdict_name(item.verdict);
  append_payload(out, shown, o);
  return out.dump();
}

ExportCounts export_set(const std::filesystem::path& root, const ExportOptions& o, int threads,
                        std::string& out) {
  ExportCounts n;
  for_each_item(root, threads, [&](const Item& item, const engine::Problem& problem) {
    if (o.drop_ambiguous && item.verdict != solver::Verdict::kUnique) {
      ++n.dropped;
      return;
    }
    out += export_line(item, problem, o);
    out += '\n';
    ++n.written;
  });
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
