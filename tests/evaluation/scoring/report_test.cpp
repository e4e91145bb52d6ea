// The report: a seeds row's mean, sd and interval per column against a hand computation, and the
// table, CSV and JSON renderings.
#include "evaluation/scoring/report.hpp"
#include "evaluation/scoring/report_chart.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace rave::evaluation {
namespace {

// A score whose Center column is `center` correct of 10 and whose other columns are empty.
FileScore center_score(const std::string& label, int center, int unique) {
  FileScore s{.label = label};
  s.per_config[0] = {.correct = static_cast<double>(center), .scored = 10, .missing = 0};
  s.total = s.per_config[0];
  s.unique = {.correct = static_cast<double>(unique), .scored = 5, .missing = 0};
  return s;
}

TEST(Report, SeedsRowByHand) {
  // Center 3, 4 and 5 correct of 10: 30, 40, 50 %. Mean 40, sd 10,
  // half-width t(0.975, 2) * 10 / sqrt(3) = 4.302652730 * 5.773502692 = 24.841377.
  const ReportRow r =
      seeds_row("CNN", {center_score("a", 3, 1), center_score("b", 4, 2), center_score("c", 5, 3)});
  EXPECT_EQ(r.seeds, 3);
  EXPECT_EQ(r.note, "3 seeds");
  ASSERT_EQ(r.columns.size(), 8u);
  EXPECT_NEAR(r.columns[0].mean, 40, 1e-12);
  EXPECT_NEAR(r.columns[1].sd, 10, 1e-12);
  EXPECT_NEAR(r.columns[1].half_width, 24.841377, 1e-6);
  EXPECT_EQ(r.columns[2].n, 0);           // 2x2Grid had no items
  EXPECT_NEAR(r.unique.mean, 40, 1e-12);  // 20, 40, 60 %
  EXPECT_NEAR(r.unique.sd, 20, 1e-12);
  EXPECT_EQ(r.scored, 30);
}

// Study participants are a row's participants, not its seeds: the note says how many and how many
// answers the row rests on, and what was shown and not answered.
TEST(Report, ParticipantsRowSaysWhatItRestsOn) {
  FileScore a = center_score("participant-1.jsonl", 10, 5), b = center_score("p2", 5, 2);
  a.participant = 1, b.participant = 2;
  b.unanswered = 4;
  const ReportRow r = seeds_row("Human", {a, b});
  EXPECT_EQ(r.note, "2 participants, 20 answers, 4 shown unanswered");
  EXPECT_EQ(r.participants, 2);
  EXPECT_EQ(r.unanswered, 4);
  EXPECT_NEAR(r.columns[0].mean, 75, 1e-12);  // the mean over participants of 100 and 50
  EXPECT_EQ(file_row(a, "participant-1.jsonl").note,
            "1 participant, 10 answers; participant-1.jsonl");
  EXPECT_EQ(participants_note(1, 1, 0), "1 participant, 1 answer");
}

Report sample_report() {
  Report report{.protocol = "multiple-choice", .data = "d", .rows = {}, .outside = 0};
  report.rows.push_back(seeds_row(
      "CNN, seeded", {center_score("a", 3, 1), center_score("b", 4, 2), center_score("c", 5, 3)}));
  report.rows.push_back(file_row(center_score("Solver", 10, 5), "rave solve (heuristic)"));
  return report;
}

TEST(Report, TableCells) {
  const std::string table = report_table(sample_report());
  EXPECT_NE(table.find("| model | Avg | Center | 2x2Grid | 3x3Grid | L-R | U-D | O-IC | O-IG | "
                       "unique | scored |"),
            std::string::npos);
  // 40 +- 24.84 over seeds; unique 40 +- 49.68 clipped below at 0; the Solver's 10 of 10 has the
  // Wilson interval [72.25, 100].
  EXPECT_NE(table.find("| CNN, seeded | 40.00 [15.16, 64.84] | 40.00 [15.16, 64.84] | - | - | - | "
                       "- | - | - | 40.00 [0.00, 89.68] | 30 | 0 | 0 | 3 seeds |"),
            std::string::npos);
  EXPECT_NE(table.find("| Solver | 100.00 [72.25, 100.00] | 100.00 [72.25, 100.00] | - |"),
            std::string::npos);
  Report plain = sample_report();
  plain.intervals = false;
  EXPECT_NE(report_table(plain).find("| CNN, seeded | 40.00 | 40.00 | - |"), std::string::npos);
}

TEST(Report, CsvQuotesAndIntervals) {
  const std::string csv = report_csv(sample_report());
  EXPECT_EQ(csv.substr(0, csv.find('\n')).substr(0, 55),
            "model,note,seeds,Avg,Avg_sd,Avg_ci95_low,Avg_ci95_high,");
  EXPECT_NE(
      csv.find("\"CNN, seeded\",3 seeds,3,40.00,10.00,15.16,64.84,40.00,10.00,15.16,64.84,,,,,"),
      std::string::npos);
  EXPECT_NE(
      csv.find("Solver,rave solve (heuristic),1,100.00,,72.25,100.00,100.00,,72.25,100.00,,,,"),
      std::string::npos);
  EXPECT_NE(csv.find(",0.00,89.68,30,0,0,t\n"), std::string::npos);  // unique, clipped at 0
  EXPECT_NE(csv.find(",10,0,0,wilson\n"), std::string::npos);
}

TEST(Report, JsonHasTheFirstRowsFiguresOnTop) {
  const auto j = nlohmann::json::parse(report_json(sample_report()));
  EXPECT_DOUBLE_EQ(j["accuracy"].get<double>(), 40.0);
  EXPECT_DOUBLE_EQ(j["per_configuration"]["Center"].get<double>(), 40.0);
  EXPECT_TRUE(j["per_configuration"]["O-IG"].is_null());
  EXPECT_EQ(j["scored"], 30);
  EXPECT_EQ(j["missing"], 0);
  EXPECT_EQ(j["protocol"], "multiple-choice");
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_NEAR(j["rows"][0]["accuracy"]["ci95"][0].get<double>(), 40 - 24.841377, 1e-6);
  EXPECT_EQ(j["rows"][0]["accuracy"]["interval"], "t");
  EXPECT_NEAR(j["rows"][0]["unique_accuracy"]["ci95"][0].get<double>(), 0.0, 1e-12);  // clipped
  EXPECT_EQ(j["rows"][1]["accuracy"]["interval"], "wilson");
  EXPECT_NEAR(j["rows"][1]["accuracy"]["ci95"][0].get<double>(), 72.2467, 1e-4);
  EXPECT_DOUBLE_EQ(j["rows"][1]["accuracy"]["ci95"][1].get<double>(), 100.0);
}

// A report of one row whose every column is `value` (one run, no interval: no whiskers).
Report flat_report(double value) {
  Summary s{.n = 1, .mean = value};
  ReportRow row{.label = "m", .columns = std::vector<Summary>(report_columns().size(), s)};
  return Report{.protocol = "multiple-choice", .data = "d", .rows = {row}};
}

int pixel(const engine::GrayImage& image, int x, int y) {
  return image.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) +
                      static_cast<std::size_t>(x)];
}

TEST(ReportChart, AZeroBarIsVisibleAndNumbered) {
  // Against the same chart without values, a 0% bar changes more than the axis row: a sliver of a
  // few pixels and the "0" above it (a bar of height 0 changed one or two rows).
  const auto zero = report_chart_image(flat_report(0), "t");
  const auto none = report_chart_image(flat_report(NAN), "t");
  ASSERT_EQ(zero.width, none.width);
  ASSERT_EQ(zero.height, none.height);
  int first = zero.height, last = -1;
  for (int y = 0; y < zero.height; ++y)
    for (int x = 0; x < zero.width; ++x)
      if (pixel(zero, x, y) != pixel(none, x, y)) first = std::min(first, y), last = y;
  ASSERT_GE(last, 0) << "a 0% bar drew nothing";
  EXPECT_GE(last - first, 8) << "rows " << first << ".." << last;
}

TEST(ReportChart, TheChanceLabelLeavesTheFirstBarWhole) {
  // A 100% bar is filled top to bottom in series 0's gray (40); the chance line crosses it in its
  // gray, but no white label patch may cover it.
  const auto chart = report_chart_image(flat_report(100), "t");
  const int mid = chart.height * 6 / 10;
  int x = 0;
  while (x < chart.width && pixel(chart, x, mid) != 40) ++x;
  int end = x;
  while (end < chart.width && pixel(chart, end, mid) == 40) ++end;
  ASSERT_GT(end - x, 20) << "no first bar found";
  const int centre = (x + end) / 2;
  int top = mid, bottom = mid;
  while (top > 0 && pixel(chart, centre, top - 1) != 0) --top;  // up to the bar's outline
  while (bottom + 1 < chart.height && pixel(chart, centre, bottom + 1) != 0) ++bottom;
  ASSERT_GT(bottom - top, 100);
  int white = 0;
  for (int y = top; y <= bottom; ++y) white += pixel(chart, centre, y) == 255 ? 1 : 0;
  EXPECT_EQ(white, 0) << "white pixels over the first bar at x " << centre;
}

}  // namespace
}  // namespace rave::evaluation
