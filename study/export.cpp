#include "study/export.hpp"

#include <map>
#include <system_error>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "evaluation/predictions.hpp"

namespace rave::study {

ExportCounts export_predictions(const Store& store, const std::filesystem::path& out) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw InputError(out.string(), "", "cannot create the folder: " + ec.message());
  std::map<std::int64_t, std::string> files;
  ExportCounts counts;
  for (const Answer& a : store.answers()) {
    if (a.practice) continue;
    evaluation::Prediction p{.id = a.problem, .answer = a.answer};
    p.seconds = static_cast<double>(a.milliseconds) / 1000.0;
    files[a.participant] += evaluation::prediction_line(p, "Human") + "\n";
    ++counts.answers;
  }
  for (const auto& [participant, text] : files)
    write_file_atomic(out / ("participant-" + std::to_string(participant) + ".jsonl"),
                      std::string_view(text));
  counts.participants = files.size();
  return counts;
}

}  // namespace rave::study
