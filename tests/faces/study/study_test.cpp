// The study's draw and orders (study_set.hpp) and its database (store.hpp): the same problems for
// everyone, each participant's order a balanced shuffle of them; answers stored once, kept across
// a reopen, a database of another study refused; participant numbers unique by the database, one
// server per database.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "study/export.hpp"
#include "study/store.hpp"
#include "study/study_set.hpp"
#include "tests/support/test_support.hpp"

namespace rave::study {
namespace {

using engine::ConfigId;

// 10 problems per configuration, k mod 10 deciding the split as the original.
std::vector<evaluation::Item> items() {
  std::vector<evaluation::Item> out;
  for (const auto& c : engine::all_configurations())
    for (int k = 0; k < 10; ++k)
      out.push_back({.id = std::string(c.folder) + "/RAVEN_" + std::to_string(k),
                     .config = c.id,
                     .split = k < 6   ? "train"
                              : k < 8 ? "val"
                                      : "test",
                     .answer = k % 8});
  return out;
}

TEST(StudySet, EveryoneGetsTheSameProblemsInABalancedOrderOfTheirOwn) {
  const StudyOptions o{.per_config = 2, .practice = 3, .seed = 7};
  const StudySet set = choose_problems(items(), o);
  ASSERT_EQ(set.test.size(), 14u);
  ASSERT_EQ(set.practice.size(), 3u);
  std::map<ConfigId, int> per_config;
  for (const auto& p : set.test) {
    ++per_config[p.config];
    const int k = std::stoi(p.id.substr(p.id.rfind('_') + 1));
    EXPECT_TRUE(k == 8 || k == 9) << p.id << " is not a test problem";
  }
  for (const auto& [config, n] : per_config) EXPECT_EQ(n, 2);
  for (const auto& p : set.practice) EXPECT_LT(std::stoi(p.id.substr(p.id.rfind('_') + 1)), 6);
  EXPECT_EQ(choose_problems(items(), o).test.size(), set.test.size());

  const auto a = participant_sequence(set, 7, 1), b = participant_sequence(set, 7, 2);
  EXPECT_EQ(a, participant_sequence(set, 7, 1)) << "a function of (seed, participant)";
  EXPECT_NE(a, b);
  ASSERT_EQ(a.size(), 17u);
  std::multiset<std::string> test_ids(a.begin() + 3, a.end()), expected;
  for (const auto& p : set.test) expected.insert(p.id);
  EXPECT_EQ(test_ids, expected);
  for (int block = 0; block < 2; ++block) {  // each block of 7 holds every configuration once
    std::set<std::string> folders;
    for (int i = 0; i < 7; ++i) {
      const std::string& id = a[static_cast<std::size_t>(3 + 7 * block + i)];
      folders.insert(id.substr(0, id.find('/')));
    }
    EXPECT_EQ(folders.size(), 7u);
  }
}

TEST(StudySet, TooFewProblemsAreUsageErrors) {
  EXPECT_THROW(choose_problems(items(), {.per_config = 3}), UsageError);  // 2 test problems each
  EXPECT_THROW(choose_problems(items(), {.per_config = 1, .practice = 43}), UsageError);
  EXPECT_THROW(choose_problems({}, {}), UsageError);
}

TEST(Store, AnswersAreStoredOnceAndSurviveAReopen) {
  const auto db = rave::testing::scratch_dir("study-store") / "study.sqlite";
  std::int64_t id = 0;
  {
    Store store(db, "data=x; seed=1");
    const Participant p = store.add_participant("ada", "token-a", {"p/1", "t/2", "t/3"}, 1);
    id = p.id;
    EXPECT_FALSE(store.find("token-b"));
    ASSERT_TRUE(store.find("token-a"));
    EXPECT_EQ(store.find("token-a")->sequence, (std::vector<std::string>{"p/1", "t/2", "t/3"}));
    const Answer a{.participant = id,
                   .position = 0,
                   .problem = "p/1",
                   .answer = 3,
                   .correct = true,
                   .practice = true,
                   .milliseconds = 1500};
    EXPECT_EQ(store.save_answer(a), Saved::kSaved);
    Answer again = a;
    again.answer = 5;
    EXPECT_EQ(store.save_answer(again), Saved::kAlreadyAnswered);
  }
  Store reopened(db, "data=x; seed=1");
  const auto answers = reopened.answers(id);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0].answer, 3) << "the second submit changed nothing";
  EXPECT_EQ(answers[0].milliseconds, 1500);
  EXPECT_TRUE(answers[0].practice);
  EXPECT_EQ(reopened.participants().size(), 1u);
  EXPECT_THROW(Store(db, "data=y; seed=1"), InputError);
  EXPECT_THROW(Store(rave::testing::scratch_dir("study-store") / "no" / "such" / "dir.sqlite", "s"),
               InputError);
}

// The export lists every test problem shown to a participant, "answer": null where they stopped,
// so that rave score scores them on what they answered (issue 41, H1); practice is left out, and a
// participant without a test answer gets no file.
TEST(Export, CarriesTheProblemsShownToEachParticipant) {
  const auto dir = rave::testing::scratch_dir("study-export");
  Store store(dir / "study.sqlite", "data=x; seed=1");
  const Participant p = store.add_participant("ada", "token-a", {"p/1", "t/2", "t/3", "t/4"}, 1);
  store.add_participant("bob", "token-b", {"p/1", "t/4", "t/3", "t/2"}, 1);
  store.save_answer({.participant = p.id, .position = 0, .problem = "p/1", .answer = 3});
  store.save_answer({.participant = p.id,
                     .position = 1,
                     .problem = "t/2",
                     .answer = 5,
                     .correct = true,
                     .milliseconds = 2500});
  export_predictions(store, dir / "out");
  EXPECT_EQ(read_file(dir / "out" / "participant-1.jsonl"),
            "{\"id\":\"t/2\",\"answer\":5,\"seconds\":2.5,\"model\":\"Human\",\"participant\":1}\n"
            "{\"id\":\"t/3\",\"answer\":null,\"model\":\"Human\",\"participant\":1}\n"
            "{\"id\":\"t/4\",\"answer\":null,\"model\":\"Human\",\"participant\":1}\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "participant-2.jsonl"));
  const std::string problems = read_file(dir / "out" / "problems.txt");
  EXPECT_NE(problems.find("\nt/2\nt/3\nt/4\n"), std::string::npos) << problems;
  EXPECT_EQ(problems.find("p/1"), std::string::npos) << "practice is not the study's test";
}

// Participant numbers come from the database: two connections to one file (two processes, say)
// enrolling in turn never share a number, so never an order.
TEST(Store, ParticipantNumbersAreUniqueByTheDatabase) {
  const auto db = rave::testing::scratch_dir("study-enrol") / "study.sqlite";
  Store a(db, "data=x; seed=1"), b(db, "data=x; seed=1");
  std::set<std::int64_t> numbers;
  std::set<std::vector<std::string>> sequences;
  for (int k = 0; k < 6; ++k) {
    Store& store = k % 2 == 0 ? a : b;
    const Participant p = store.enrol(
        "p" + std::to_string(k), "token-" + std::to_string(k), 0,
        [](std::int64_t n) { return std::vector<std::string>{"t/" + std::to_string(n)}; });
    numbers.insert(p.id);
    sequences.insert(p.sequence);
    EXPECT_EQ(p.sequence, std::vector<std::string>{"t/" + std::to_string(p.id)});
  }
  EXPECT_EQ(numbers, (std::set<std::int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(sequences.size(), 6u);
  EXPECT_EQ(a.participants().size(), 6u);
  a.check_writable();
}

// One server per database: a second lock on it is refused, naming the holder; released with it.
TEST(ServerLock, ASecondServerOnOneDatabaseIsRefused) {
  const auto db = rave::testing::scratch_dir("study-lock") / "study.sqlite";
  {
    const ServerLock first(db, "rave study serve set");
    try {
      const ServerLock second(db, "rave study serve set");
      ADD_FAILURE() << "a second lock was granted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("another server has this study database (pid "),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("rave study serve set"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(ServerLock(db, "again")) << "released with its holder";
}

}  // namespace
}  // namespace rave::study
