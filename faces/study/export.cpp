#include "study/export.hpp"

#include <map>
#include <set>
#include <system_error>
#include <utility>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace rave::study {
namespace {

// One participant's test problems in the order shown, with the answers they gave.
evaluation::PredictionFile file_of(const Participant& p,
                                   const std::map<int, const Answer*>& by_position) {
  evaluation::PredictionFile f{.file = "participant-" + std::to_string(p.id) + ".jsonl",
                               .model = "Human",
                               .participant = p.id};
  for (std::size_t k = static_cast<std::size_t>(p.practice); k < p.sequence.size(); ++k) {
    evaluation::Prediction line{.id = p.sequence[k], .line = f.predictions.size() + 1};
    if (const auto a = by_position.find(static_cast<int>(k)); a != by_position.end()) {
      line.answer = a->second->answer;
      line.seconds = static_cast<double>(a->second->milliseconds) / 1000.0;
    }
    f.predictions.push_back(std::move(line));
  }
  return f;
}

std::size_t answered(const evaluation::PredictionFile& f) {
  std::size_t n = 0;
  for (const auto& p : f.predictions) n += p.answer ? 1 : 0;
  return n;
}

}  // namespace

std::vector<evaluation::PredictionFile> participant_files(const Store& store) {
  std::map<std::int64_t, std::map<int, const Answer*>> answers;
  const std::vector<Answer> all = store.answers();
  for (const Answer& a : all)
    if (!a.practice) answers[a.participant][a.position] = &a;
  std::vector<evaluation::PredictionFile> out;
  for (const Participant& p : store.participants())
    if (const auto it = answers.find(p.id); it != answers.end())
      out.push_back(file_of(p, it->second));
  return out;
}

ExportCounts export_predictions(const Store& store, const std::filesystem::path& out) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw InputError(out.string(), "", "cannot create the folder: " + ec.message());
  ExportCounts counts;
  std::set<std::string> problems;
  for (const Participant& p : store.participants())
    for (std::size_t k = static_cast<std::size_t>(p.practice); k < p.sequence.size(); ++k)
      problems.insert(p.sequence[k]);
  for (const auto& f : participant_files(store)) {
    std::string text;
    for (const auto& p : f.predictions)
      text += evaluation::prediction_line(p, f.model, f.participant) + "\n";
    write_file_atomic(out / f.file, std::string_view(text));
    ++counts.participants;
    counts.answers += answered(f);
    counts.unanswered += f.predictions.size() - answered(f);
  }
  counts.without = store.participants().size() - counts.participants;
  std::string list =
      "# the study's test problems (rave score --subset " + (out / "problems.txt").string() + ")\n";
  for (const auto& id : problems) list += id + "\n";
  write_file_atomic(out / "problems.txt", std::string_view(list));
  return counts;
}

}  // namespace rave::study
