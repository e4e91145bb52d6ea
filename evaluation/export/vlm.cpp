// One problem of an image benchmark (evaluation/export/vlm.hpp): its answer-free sheet, its panels, the
// prompts and its JSON line.
#include "evaluation/export/vlm.hpp"

#include <string>
#include <vector>

#include "common/error.hpp"
#include "engine/formats/png.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/style_limits.hpp"
#include "engine/render/render.hpp"
#include "engine/render/sheet.hpp"
#include "evaluation/internal/json_writer.hpp"
#include "evaluation/shuffle.hpp"

namespace rave::evaluation {
namespace {

using internal::JsonWriter;

std::string matrix_words(int grid) {
  const std::string n = std::to_string(grid);
  return n + "x" + n + " matrix";
}

// What both prompts say after naming the images: the task and the answer's form.
std::string question() {
  return "Every row of the matrix follows the same rules over the number, position, shape, size "
         "and color of its objects. Which candidate completes the matrix? Answer with the number "
         "of the candidate (1-8) only.";
}

std::string panel_path(const std::string& id, const char* kind, int number) {
  return id + "/" + kind + "-" + std::to_string(number) + ".png";
}

void add_panels(VlmEntry& entry, const std::string& id, const engine::PanelStack& images,
                int context) {
  for (int i = 0; i < images.count(); ++i) {
    const bool candidate = i >= context;
    const int number = candidate ? candidate_label(i - context) : i + 1;
    const std::span<const std::uint8_t> panel(images.panel(i), images.panel_bytes());
    entry.files.push_back({panel_path(id, candidate ? "candidate" : "context", number),
                           engine::encode_gray_png(panel, images.side, images.side)});
  }
}

void write_line(VlmEntry& entry, const VlmSource& source, const engine::Problem& problem,
                const VlmOptions& options) {
  JsonWriter w(entry.line);
  w.begin_object().key("id").value(source.id);
  w.key("configuration").value(engine::configuration(problem.config).folder);
  w.key("split").value(source.split).key("grid").value(problem.grid());
  if (options.shuffle_seed)
    w.key("answers_shuffled").value(static_cast<std::size_t>(*options.shuffle_seed));
  w.key("sheet")
      .value(entry.files.front().path)
      .key("sheet_prompt")
      .value(sheet_prompt(problem.grid()));
  if (options.panels) {
    w.key("panels").begin_array();
    for (std::size_t i = 1; i < entry.files.size(); ++i) w.value(entry.files[i].path);
    w.end_array().key("panels_prompt").value(panels_prompt(problem.grid()));
  }
  if (options.with_answer) {
    if (problem.target)
      w.key("answer").value(candidate_label(*problem.target)).key("target").value(*problem.target);
    else
      w.key("answer").null().key("target").null();
  }
  w.end_object();
}

}  // namespace

std::string sheet_description(int grid) {
  return "The image is a visual reasoning puzzle. At the top is a " + matrix_words(grid) +
         " of panels whose last panel (bottom right) is missing and marked with \"?\". Below it "
         "are 8 candidate panels labelled 1 to 8.";
}

std::string panels_description(int grid) {
  const int context = grid * grid - 1;
  return "The images are a visual reasoning puzzle. Images 1 to " + std::to_string(context) +
         " are the panels of a " + matrix_words(grid) +
         " in reading order (row 1 from left to right, then row 2, and so on) without its last "
         "panel (bottom right), which is missing. Images " +
         std::to_string(context + 1) + " to " + std::to_string(context + engine::kCandidates) +
         " are the candidates 1 to 8 for the missing panel, in order.";
}

std::string sheet_prompt(int grid) { return sheet_description(grid) + " " + question(); }

std::string panels_prompt(int grid) { return panels_description(grid) + " " + question(); }

void check_drawable(const engine::Problem& problem, const std::string& file) {
  if (!problem.style.is_original()) {
    const std::string why = engine::style_defect(problem.style, problem.variant, problem.config);
    if (!why.empty()) throw InputError(file, "", why);
    return;
  }
  if (problem.variant.drawable()) return;
  throw InputError(file, "",
                   "has " + std::to_string(problem.variant.values) +
                       " levels per attribute; images need at most " +
                       std::to_string(engine::kMaxDrawableValues) +
                       ", and rave draws no lossy picture of more; --style NAME draws more "
                       "(docs/rendering.md)");
}

VlmEntry vlm_entry(const VlmSource& source, const engine::Problem& given,
                   const VlmOptions& options) {
  std::optional<engine::Problem> restyled;
  if (options.style) {
    restyled = given;
    restyled->style = *options.style;
  }
  const engine::Problem& original = restyled ? *restyled : given;
  check_drawable(original, source.file.empty() ? source.id : source.file);
  std::optional<engine::Problem> reordered;
  if (options.shuffle_seed)
    reordered = shuffled(original, candidate_order(*options.shuffle_seed, source.id,
                                                   static_cast<int>(original.candidates.size())));
  const engine::Problem& problem = reordered ? *reordered : original;
  thread_local engine::PanelStack images;  // 400 KB and more: reused, not reallocated
  engine::render_problem(problem, images);
  VlmEntry entry;
  const engine::SheetOptions answer_free{.answer = std::nullopt, .first_label = candidate_label(0)};
  entry.files.push_back(
      {source.id + ".png", engine::encode_gray_png(engine::problem_sheet(images, answer_free))});
  if (options.panels)
    add_panels(entry, source.id, images, static_cast<int>(problem.context.size()));
  write_line(entry, source, problem, options);
  return entry;
}

}  // namespace rave::evaluation
