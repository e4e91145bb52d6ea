// The shared-memory sums of data-parallel training on one machine: exact sums over three ranks
// for arrays of many sizes split into parts, chunk borders included, with and without per-rank
// factors; the sharded update (each rank updates its own share of every sum and receives the
// others'); a rank whose process is gone
// or silent stops the others with an error naming it instead of hanging; a segment that is not the
// run's is refused. The peers are this test binary started again (SharedMemoryTest.Peer, listed
// only in the processes the tests start).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/error.hpp"
#include "neural/internal/shared_memory.hpp"
#include "tests/neural/neural_support.hpp"

namespace rave::neural::internal {
namespace {

using Clock = std::chrono::steady_clock;

// Part sizes: empty parts, single elements, and a total of several 1 MiB chunks of floats.
const std::vector<std::size_t> kSizes{0, 1, 17, 262'143, 0, 262'145, 600'001, 5};

// Rank r's element i of part p: small integers, so every sum is exact in float.
template <typename T>
T value(int rank, std::size_t part, std::size_t i) {
  return static_cast<T>(rank * 1000 + static_cast<int>((i * 7 + part) % 997));
}

// Each rank's factor in round `round` of a sum: 1, then (rank + 1) / 2.
double scale_of(int rank, int round) { return round == 0 ? 1.0 : (rank + 1) * 0.5; }

// Sums rank `rank`'s arrays, times its scale, over `world` ranks; true when every element is the
// expected sum.
template <typename T>
bool sums_are_exact(SharedMemoryGroup& group, int rank, int world, int round = 0) {
  std::vector<std::vector<T>> arrays;
  std::vector<Span<T>> parts;
  for (std::size_t p = 0; p < kSizes.size(); ++p) {
    arrays.emplace_back(kSizes[p]);
    for (std::size_t i = 0; i < kSizes[p]; ++i) arrays[p][i] = value<T>(rank, p, i);
  }
  for (auto& a : arrays) parts.push_back({a.data(), a.size()});
  group.all_reduce_sum(std::span<const Span<T>>(parts), scale_of(rank, round));
  for (std::size_t p = 0; p < kSizes.size(); ++p)
    for (std::size_t i = 0; i < kSizes[p]; ++i) {
      T expected = 0;
      for (int r = 0; r < world; ++r)
        expected += value<T>(r, p, i) * static_cast<T>(scale_of(r, round));
      if (arrays[p][i] != expected) return false;
    }
  return true;
}

// Float arrays of kSizes with rank `rank`'s values, and their spans.
struct Arrays {
  std::vector<std::vector<float>> data;
  std::vector<Span<float>> parts;
  Arrays(int rank, float fill_or_nan) {
    for (std::size_t p = 0; p < kSizes.size(); ++p) {
      data.emplace_back(kSizes[p]);
      for (std::size_t i = 0; i < kSizes[p]; ++i)
        data[p][i] = std::isnan(fill_or_nan) ? value<float>(rank, p, i) : fill_or_nan;
    }
    for (auto& a : data) parts.push_back({a.data(), a.size()});
  }
  std::span<const Span<float>> span() const { return parts; }
};

// reduce_update then gather_shares on `world` ranks; true when, as seen from rank `rank`, the
// update got the exact sums of its share, every element was updated by exactly one rank (each
// writes sum + (rank + 1) / 4, so every rank reads who owns what), and gather_shares gave every
// element its owner's value.
bool shares_are_disjoint_and_gathered(SharedMemoryGroup& group, int rank, int world) {
  std::vector<std::pair<std::size_t, std::size_t>> where;  // flat offset -> (part, index)
  for (std::size_t p = 0; p < kSizes.size(); ++p)
    for (std::size_t i = 0; i < kSizes[p]; ++i) where.emplace_back(p, i);
  const auto sum_at = [&](std::size_t flat) {
    float expected = 0;
    for (int r = 0; r < world; ++r)
      expected += value<float>(r, where[flat].first, where[flat].second);
    return expected;
  };
  const Arrays in(rank, NAN), out(-1, -1.0f);
  std::vector<std::uint8_t> mine(where.size(), 0);
  bool sums_right = true;
  group.reduce_update(in.span(), out.span(), 1.0, [&](std::size_t at, float* sums, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      sums_right = sums_right && sums[k] == sum_at(at + k);
      sums[k] += static_cast<float>(rank + 1) / 4, mine[at + k] = 1;
    }
  });
  std::vector<int> owner(where.size(), -1);
  for (std::size_t f = 0; f < where.size(); ++f) {
    const float code = (out.data[where[f].first][where[f].second] - sum_at(f)) * 4 - 1;
    owner[f] = code == 0 || code == 1 || code == 2 ? static_cast<int>(code) : -1;
    if (owner[f] < 0 || owner[f] >= world || (owner[f] == rank) != (mine[f] == 1)) return false;
  }
  Arrays gathered(rank, NAN);
  group.gather_shares(gathered.span());
  for (std::size_t f = 0; f < where.size(); ++f) {
    const auto [p, i] = where[f];
    if (gathered.data[p][i] != value<float>(owner[f], p, i)) return false;
  }
  return sums_right;
}

// A peer rank, in a process a test started: RAVE_TEST_SHM="name rank world mode".
class PeerTest : public ::testing::Test {
 public:
  explicit PeerTest(std::string spec) : spec_(std::move(spec)) {}
  void TestBody() override {
    std::istringstream in(spec_);
    std::string name, mode;
    int rank = 0, world = 0;
    in >> name >> rank >> world >> mode;
    auto group = SharedMemoryGroup::open(rank, world, name);
    if (mode == "exit") std::_Exit(0);  // mapped, then gone without a word
    if (mode == "sleep") std::this_thread::sleep_for(std::chrono::seconds(20));
    group.start(std::vector<pid_t>(static_cast<std::size_t>(world), ::getppid()),
                std::chrono::seconds(60));
    if (mode == "shares") {
      EXPECT_TRUE(shares_are_disjoint_and_gathered(group, rank, world));
      return;
    }
    for (int round = 0; round < 2; ++round) {
      EXPECT_TRUE(sums_are_exact<float>(group, rank, world, round));
      EXPECT_TRUE(sums_are_exact<double>(group, rank, world, round));
    }
  }

 private:
  std::string spec_;
};

[[maybe_unused]] const bool kPeerRegistered = [] {
  const char* spec = std::getenv("RAVE_TEST_SHM");
  if (spec == nullptr) return false;
  ::testing::RegisterTest(
      "SharedMemoryTest", "Peer", nullptr, nullptr, __FILE__, __LINE__,
      [s = std::string(spec)]() -> ::testing::Test* { return new PeerTest(s); });
  return true;
}();

pid_t start_peer(const std::string& name, int rank, int world, const std::string& mode) {
  return testing::start_test_process("SharedMemoryTest.Peer",
                                     {"RAVE_TEST_SHM=" + name + " " + std::to_string(rank) + " " +
                                      std::to_string(world) + " " + mode});
}

bool exited_cleanly(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool listed_in_dev_shm(const std::string& name) {
  return std::filesystem::exists("/dev/shm" + name);
}

TEST(SharedMemoryTest, ThreeRanksSumExactlyAcrossChunksAndParts) {
  const std::string name = SharedMemoryGroup::unique_name();
  auto group = SharedMemoryGroup::create(3, name);
  const pid_t peers[] = {start_peer(name, 1, 3, "sum"), start_peer(name, 2, 3, "sum")};
  group.start({::getpid(), peers[0], peers[1]}, std::chrono::seconds(60));
  for (int round = 0; round < 2; ++round) {  // the buffers alternate across calls too
    EXPECT_TRUE(sums_are_exact<float>(group, 0, 3, round));
    EXPECT_TRUE(sums_are_exact<double>(group, 0, 3, round));
  }
  EXPECT_TRUE(listed_in_dev_shm(name));
  SharedMemoryGroup::unlink(name);
  EXPECT_FALSE(listed_in_dev_shm(name));
  for (pid_t pid : peers) EXPECT_TRUE(exited_cleanly(pid)) << "a peer's sums were wrong";
}

TEST(SharedMemoryTest, EachRankUpdatesItsOwnShareAndReceivesTheOthers) {
  const std::string name = SharedMemoryGroup::unique_name();
  auto group = SharedMemoryGroup::create(3, name);
  const pid_t peers[] = {start_peer(name, 1, 3, "shares"), start_peer(name, 2, 3, "shares")};
  group.start({::getpid(), peers[0], peers[1]}, std::chrono::seconds(60));
  EXPECT_TRUE(shares_are_disjoint_and_gathered(group, 0, 3));
  SharedMemoryGroup::unlink(name);
  for (pid_t pid : peers) EXPECT_TRUE(exited_cleanly(pid)) << "a peer saw wrong shares";
}

TEST(SharedMemoryTest, AGoneRankStopsTheOthersWithItsName) {
  const std::string name = SharedMemoryGroup::unique_name();
  auto group = SharedMemoryGroup::create(2, name);
  const pid_t peer = start_peer(name, 1, 2, "exit");
  ASSERT_TRUE(exited_cleanly(peer));
  SharedMemoryGroup::unlink(name);
  group.start({::getpid(), peer}, std::chrono::minutes(5));
  const auto t0 = Clock::now();
  try {
    (void)sums_are_exact<float>(group, 0, 2);
    ADD_FAILURE() << "the sum returned without its peer";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "rank 1 (pid " + std::to_string(peer) + ") is gone");
  }
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(5));  // noticed long before the timeout
}

TEST(SharedMemoryTest, ASilentRankTimesOut) {
  const std::string name = SharedMemoryGroup::unique_name();
  auto group = SharedMemoryGroup::create(2, name);
  const pid_t peer = start_peer(name, 1, 2, "sleep");
  group.start({::getpid(), peer}, std::chrono::milliseconds(300));
  try {
    (void)sums_are_exact<double>(group, 0, 2);
    ADD_FAILURE() << "the sum returned without its peer";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no answer from the other ranks"), std::string::npos)
        << e.what();
  }
  ::kill(peer, SIGKILL);
  ::waitpid(peer, nullptr, 0);
  SharedMemoryGroup::unlink(name);
}

TEST(SharedMemoryTest, OnlyTheRunsOwnSegmentIsMapped) {
  const std::string name = SharedMemoryGroup::unique_name();
  EXPECT_THROW(SharedMemoryGroup::open(1, 2, name), Error);  // not created yet
  auto group = SharedMemoryGroup::create(2, name);
  EXPECT_THROW(SharedMemoryGroup::create(2, name), Error);   // one run, one segment
  EXPECT_THROW(SharedMemoryGroup::open(1, 4, name), Error);  // made for another world size
  EXPECT_EQ(SharedMemoryGroup::open(1, 2, name).rank(), 1);
  SharedMemoryGroup::unlink(name);
  EXPECT_THROW(SharedMemoryGroup::open(1, 2, name), Error);  // unlinked: no newcomer
  EXPECT_FALSE(shared_memory_host_key().empty());
}

}  // namespace
}  // namespace rave::neural::internal
