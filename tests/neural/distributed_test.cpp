// Data-parallel training: the torch.distributed environment variables, the share of each rank in
// an epoch, and the equivalence the design promises: two processes (Gloo over loopback) with 8
// problems each make, step for step, the weights one process makes with the 16 problems together
// (gradients averaged over the ranks, batch-norm statistics over the global batch). The two ranks
// are this test binary started again (DistributedTest.Rank), writing their weights to a file.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <torch/optim/sgd.h>
#include <torch/serialize.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "common/local_port.hpp"
#include "engine/model/structure.hpp"
#include "neural/distributed.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/internal/collective.hpp"
#include "neural/internal/shared_memory.hpp"
#include "neural/pipeline.hpp"
#include "neural/structure_input.hpp"
#include "neural/train_step.hpp"
#include "tests/neural/neural_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::neural {
namespace {

using Variables = std::map<std::string, std::string>;

DistributedEnv env_of(const Variables& vars) {
  return distributed_env_from([&](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

TEST(DistributedEnvTest, ReadsTheTorchDistributedVariables) {
  EXPECT_EQ(env_of({}), DistributedEnv{});
  EXPECT_EQ(env_of({{"WORLD_SIZE", "1"}}).world_size, 1);
  const auto env = env_of({{"WORLD_SIZE", "4"},
                           {"RANK", "3"},
                           {"LOCAL_RANK", "1"},
                           {"MASTER_ADDR", "node7"},
                           {"MASTER_PORT", "29511"}});
  EXPECT_EQ(env, (DistributedEnv{.rank = 3,
                                 .world_size = 4,
                                 .local_rank = 1,
                                 .master_addr = "node7",
                                 .master_port = 29511}));
  EXPECT_EQ(env_of({{"WORLD_SIZE", "2"}, {"RANK", "1"}, {"MASTER_PORT", "1"}}).local_rank, 1);
  EXPECT_THROW(env_of({{"WORLD_SIZE", "2"}, {"MASTER_PORT", "29500"}}), UsageError);  // no RANK
  EXPECT_THROW(env_of({{"WORLD_SIZE", "2"}, {"RANK", "2"}, {"MASTER_PORT", "29500"}}),
               UsageError);                                                // out of range
  EXPECT_THROW(env_of({{"WORLD_SIZE", "2"}, {"RANK", "0"}}), UsageError);  // no port
  EXPECT_THROW(env_of({{"WORLD_SIZE", "two"}}), UsageError);
}

// A RAVE_SHARED_MEMORY that is neither 0 nor 1 is refused by name before any rendezvous (no rank
// would come: the test would wait out the timeout otherwise).
TEST(DistributedEnvTest, AMistypedSharedMemorySwitchIsRefusedAtOnce) {
  const char* before = std::getenv("RAVE_SHARED_MEMORY");
  const std::string kept = before ? before : "";
  ::setenv("RAVE_SHARED_MEMORY", "off", 1);
  const DistributedEnv env{.rank = 0, .world_size = 2, .master_port = free_local_port()};
  try {
    internal::Collective group(env, torch::kCPU, std::chrono::seconds(30));
    ADD_FAILURE() << "RAVE_SHARED_MEMORY=off was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("RAVE_SHARED_MEMORY='off'"), std::string::npos)
        << e.what();
  }
  before ? ::setenv("RAVE_SHARED_MEMORY", kept.c_str(), 1) : ::unsetenv("RAVE_SHARED_MEMORY");
}

TEST(RankShareTest, GlobalBatchesAreSplitAndShardsCoverTheList) {
  std::vector<std::size_t> order(23);
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = (i * 7) % 23;
  PipelineOptions o{.batch_size = 4, .world_size = 2, .split_global_batches = true};
  const RankShare r0 = rank_share(order, o);
  o.rank = 1;
  const RankShare r1 = rank_share(order, o);
  // Global batches of 8: [0, 8), [8, 16), [16, 23) (7 problems: 3 + 4); rank 0 takes each first
  // half.
  EXPECT_EQ(r0.global_sizes, (std::vector<std::int64_t>{8, 8, 7}));
  EXPECT_EQ(r1.global_sizes, r0.global_sizes);
  ASSERT_EQ(r0.files.size(), 11u);
  ASSERT_EQ(r1.files.size(), 12u);
  EXPECT_EQ(std::vector<std::size_t>(r0.files.begin(), r0.files.begin() + 4),
            std::vector<std::size_t>(order.begin(), order.begin() + 4));
  EXPECT_EQ(std::vector<std::size_t>(r1.files.begin(), r1.files.begin() + 4),
            std::vector<std::size_t>(order.begin() + 4, order.begin() + 8));
  EXPECT_EQ(r0.files.back(), order[18]);
  EXPECT_EQ(r1.files.back(), order[22]);
  // Evaluation: contiguous shards, nothing left out.
  o.split_global_batches = false;
  const RankShare e1 = rank_share(order, o);
  o.rank = 0;
  const RankShare e0 = rank_share(order, o);
  EXPECT_EQ(e0.files.size() + e1.files.size(), order.size());
  EXPECT_EQ(e1.files.back(), order.back());
  // A last global batch smaller than the world is left out rather than leaving a rank idle.
  o = {.batch_size = 1, .world_size = 4, .split_global_batches = true};
  EXPECT_EQ(rank_share(std::vector<std::size_t>(6, 0), o).global_sizes,
            (std::vector<std::int64_t>{4}));
}

constexpr int kSteps = 3;
constexpr double kLearningRate = 0.01;
constexpr std::int64_t kGlobalBatch = 16;

// 16 random problems of O-IG, the same on every process.
BatchTensors fixed_batch() {
  torch::manual_seed(77);
  const DrtInput drt = drt_input(engine::structure_tree(engine::ConfigId::kOutInGrid));
  BatchTensors b;
  b.input.images = torch::randint(0, 256, {kGlobalBatch, kPanels, 80, 80}).to(torch::kFloat);
  b.input.labels = torch::tensor(std::vector<std::int64_t>(drt.labels.begin(), drt.labels.end()))
                       .repeat({kGlobalBatch, 1});
  b.input.indicator = torch::full({kGlobalBatch}, drt.indicator);
  b.targets = torch::randint(0, 8, {kGlobalBatch}, torch::kLong);
  b.meta_target = torch::zeros({kGlobalBatch, kMetaTargetBits});
  b.meta_structure = torch::zeros({kGlobalBatch, kMetaStructureBits});
  b.configs = torch::zeros({kGlobalBatch}, torch::kLong);
  return b;
}

BatchTensors rows(const BatchTensors& b, std::int64_t from, std::int64_t n) {
  return {{b.input.images.narrow(0, from, n), b.input.labels.narrow(0, from, n),
           b.input.indicator.narrow(0, from, n)},
          b.targets.narrow(0, from, n),
          b.meta_target.narrow(0, from, n),
          b.meta_structure.narrow(0, from, n),
          b.configs.narrow(0, from, n)};
}

// CNN_LSTM+DRT: batch norm over B x 16 panels, the tree and the LSTM, and no dropout (whose masks
// depend on the batch's shape). Plain SGD, so that the comparison measures the gradients: Adam
// would turn the rounding noise of gradients that are zero in exact arithmetic (the conv biases
// before batch norm) into steps of the full learning rate. The rate is small enough that rounding
// differences (sums blocked differently for 8 and 16 problems) stay rounding-sized over 3 steps
// (measured: 3e-7 at most, while the weights move 1.7e-3 and half the batch alone is 1.8e-3 away;
// at 0.05 the dynamics amplify them to 5e-5).
std::vector<torch::Tensor> train_and_collect(internal::Collective* group, std::int64_t from,
                                             std::int64_t n) {
  set_compute_threads(1);
  torch::manual_seed(5);
  auto model = make_model({.kind = ModelKind::kLstm, .drt = true});
  if (group) set_batch_norm_group(*model, group);
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLearningRate));
  const auto batch = rows(fixed_batch(), from, n);
  for (int step = 0; step < kSteps; ++step)
    train_step(*model, sgd, batch, {}, {.group = group, .global_batch = kGlobalBatch});
  std::vector<torch::Tensor> state;
  for (const auto& p : model->parameters()) state.push_back(p.detach().clone());
  for (const auto& b : model->buffers()) state.push_back(b.detach().to(torch::kDouble).clone());
  return state;
}

// The same ranks with Adam: each steps its share of the parameters (shard_optimizer, the trainer's
// path) or all of them after the gradients' all-reduce. Parameters, then the first and second
// moments (the sharded ones gathered), then 1 where the moments had been left sharded.
std::vector<torch::Tensor> train_with_adam(internal::Collective& group, std::int64_t from,
                                           bool shard) {
  set_compute_threads(1);
  torch::manual_seed(5);
  auto model = make_model({.kind = ModelKind::kCnn, .drt = true});
  auto adam = make_adam(*model, {.learning_rate = 1e-3});
  const auto batch = rows(fixed_batch(), from, kGlobalBatch / 2);
  for (int step = 0; step < kSteps; ++step)
    train_step(*model, adam, batch, {},
               {.group = &group, .global_batch = kGlobalBatch, .shard_optimizer = shard});
  const bool sharded = adam.moments_sharded;
  group.gather_moments(adam);
  std::vector<torch::Tensor> state;
  for (const auto& p : model->parameters()) state.push_back(p.detach().clone());
  for (const auto& p : model->parameters()) state.push_back(adam.state_of(p).exp_avg().clone());
  for (const auto& p : model->parameters()) state.push_back(adam.state_of(p).exp_avg_sq().clone());
  state.push_back(torch::tensor(sharded ? 1.0 : 0.0, torch::kDouble));
  return state;
}

std::vector<torch::Tensor> initial_state_of(ModelKind kind) {
  torch::manual_seed(5);
  auto model = make_model({.kind = kind, .drt = true});
  std::vector<torch::Tensor> state;
  for (const auto& p : model->parameters()) state.push_back(p.detach().clone());
  return state;
}

// Each rank fills its half of a shared region and reads the other's; a second region starts
// zero-filled; one larger than /dev/shm can hold is refused on every rank (the trainer then keeps
// a private cache), and the group goes on. Returns {had a region, the first was zero-filled, the
// other half was the other rank's, the second was zero-filled, the too large one was refused, a
// region after it was mapped}.
std::vector<double> share_a_region(internal::Collective& group, int rank) {
  constexpr std::size_t kBytes = std::size_t{1} << 20, kHalf = kBytes / 2;
  const auto all_are = [](const std::byte* p, std::size_t n, std::byte b) {
    return std::all_of(p, p + n, [&](std::byte x) { return x == b; });
  };
  auto region = group.shared_region(kBytes);
  if (!region) return {0.0};
  std::vector<double> out{1.0, all_are(region->data(), kBytes, std::byte{0}) ? 1.0 : 0.0};
  group.barrier();  // both have looked before either writes
  std::fill_n(region->data() + rank * kHalf, kHalf, std::byte(0x10 + rank));
  group.barrier();
  out.push_back(all_are(region->data() + (1 - rank) * kHalf, kHalf, std::byte(0x11 - rank)));
  auto second = group.shared_region(kBytes);
  out.push_back(second && all_are(second->data(), kBytes, std::byte{0}) ? 1.0 : 0.0);
  out.push_back(group.shared_region(std::size_t{1} << 50) ? 0.0 : 1.0);  // 1 PiB
  out.push_back(group.shared_region(kBytes) ? 1.0 : 0.0);
  return out;
}

// One rank of the equivalence test. It exists only in the processes that test starts (their
// environment names the output file), so a plain run of the binary, and ctest, never list it.
class RankTest : public ::testing::Test {
 public:
  explicit RankTest(std::string out) : out_(std::move(out)) {}
  void TestBody() override {
    const DistributedEnv env = distributed_env_from_environment();
    internal::Collective group(env, torch::kCPU, std::chrono::seconds(60));
    if (std::getenv("RAVE_TEST_REGION")) {
      torch::save(torch::tensor(share_a_region(group, env.rank), torch::kDouble), out_);
      return;
    }
    if (std::getenv("RAVE_TEST_ADAM")) {
      for (bool shard : {true, false})
        torch::save(train_with_adam(group, env.rank * (kGlobalBatch / 2), shard),
                    out_ + (shard ? ".sharded" : ".whole"));
      return;
    }
    auto state = train_and_collect(&group, env.rank * (kGlobalBatch / 2), kGlobalBatch / 2);
    state.push_back(torch::tensor(group.sums_in_shared_memory() ? 1.0 : 0.0, torch::kDouble));
    torch::save(state, out_);
  }

 private:
  std::string out_;
};

[[maybe_unused]] const bool kRankRegistered = [] {
  const char* out = std::getenv("RAVE_TEST_RANK_OUT");
  if (out == nullptr) return false;
  ::testing::RegisterTest(
      "DistributedTest", "Rank", nullptr, nullptr, __FILE__, __LINE__,
      [path = std::string(out)]() -> ::testing::Test* { return new RankTest(path); });
  return true;
}();

pid_t start_rank(int rank, int port, const std::string& out, bool shared_memory, bool adam = false,
                 bool region = false) {
  std::vector<std::string> variables{
      "RANK=" + std::to_string(rank),
      "WORLD_SIZE=2",
      "MASTER_ADDR=127.0.0.1",
      "MASTER_PORT=" + std::to_string(port),
      "RAVE_TEST_RANK_OUT=" + out,
      std::string("RAVE_SHARED_MEMORY=") + (shared_memory ? "1" : "0")};
  if (adam) variables.push_back("RAVE_TEST_ADAM=1");
  if (region) variables.push_back("RAVE_TEST_REGION=1");
  return testing::start_test_process("DistributedTest.Rank", variables);
}

void wait_for_ranks(const pid_t (&ranks)[2]) {
  for (pid_t pid : ranks) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a rank failed";
  }
}

std::vector<torch::Tensor> load_state(const std::filesystem::path& path) {
  std::vector<torch::Tensor> state;
  torch::load(state, path.string());
  return state;
}

double max_difference(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b,
                      std::size_t count, bool relative) {
  double worst = 0;
  for (std::size_t i = 0; i < count; ++i) {
    auto d = (a[i] - b[i]).abs();
    if (relative) d = d / b[i].abs().clamp_min(1.0);
    worst = std::max(worst, d.max().item<double>());
  }
  return worst;
}

// With the sums in shared memory (the ranks share this machine) and, RAVE_SHARED_MEMORY=0, over
// Gloo.
class DistributedTest : public ::testing::TestWithParam<bool> {};

TEST_P(DistributedTest, TwoProcessesEqualOneWithTheDoubledBatch) {
  const bool shared_memory = GetParam();
  const auto dir = rave::testing::scratch_dir("distributed");
  const int port = free_local_port();
  const pid_t ranks[2] = {start_rank(0, port, (dir / "rank0.pt").string(), shared_memory),
                          start_rank(1, port, (dir / "rank1.pt").string(), shared_memory)};
  wait_for_ranks(ranks);
  auto rank0 = load_state(dir / "rank0.pt"), rank1 = load_state(dir / "rank1.pt");
  for (auto* state : {&rank0, &rank1}) {
    ASSERT_FALSE(state->empty());
    EXPECT_EQ(state->back().item<double>(), shared_memory ? 1.0 : 0.0) << "the path of the sums";
    state->pop_back();
  }
  const auto one = train_and_collect(nullptr, 0, kGlobalBatch);
  const auto half = train_and_collect(nullptr, 0, kGlobalBatch / 2);
  const auto start = initial_state_of(ModelKind::kLstm);
  const std::size_t params = start.size();
  ASSERT_EQ(rank0.size(), one.size());
  EXPECT_EQ(max_difference(rank0, rank1, rank0.size(), false), 0.0);  // the ranks agree exactly
  EXPECT_LT(max_difference(rank0, one, params, false), 1e-5);         // weights
  EXPECT_LT(max_difference(rank0, one, one.size(), true), 1e-5);      // and batch-norm statistics
  // The comparison can fail: the weights moved, and half the batch alone leads elsewhere.
  EXPECT_GT(max_difference(one, start, params, false), 1e-3);
  EXPECT_GT(max_difference(half, one, params, false), 1e-4);
}

// ZeRO stage 1 in shared memory: each rank stepping Adam on its share of the elements and
// receiving the others' gives the weights and (gathered) moments that the all-reduce and a whole
// Adam step on every rank give, bit for bit.
TEST(DistributedAdamTest, ShardedStepsEqualWholeStepsExactly) {
  const auto dir = rave::testing::scratch_dir("distributed-adam");
  const int port = free_local_port();
  const pid_t ranks[2] = {start_rank(0, port, (dir / "rank0").string(), true, true),
                          start_rank(1, port, (dir / "rank1").string(), true, true)};
  wait_for_ranks(ranks);
  auto sharded = load_state(dir / "rank0.sharded"), whole = load_state(dir / "rank0.whole");
  const auto other = load_state(dir / "rank1.sharded");
  ASSERT_EQ(sharded.size(), whole.size());
  EXPECT_EQ(sharded.back().item<double>(), 1.0) << "the sharded path was not taken";
  EXPECT_EQ(whole.back().item<double>(), 0.0);
  const std::size_t tensors = sharded.size() - 1;  // all but the flag
  EXPECT_EQ(max_difference(sharded, whole, tensors, false), 0.0);
  EXPECT_EQ(max_difference(sharded, other, tensors, false), 0.0);  // the ranks agree
  const auto start = initial_state_of(ModelKind::kCnn);
  EXPECT_GT(max_difference(sharded, start, start.size(), false), 1e-4);  // the weights moved
}

// The ranks of one machine map one region (the decoded training split lives there); with the sums
// on Gloo (RAVE_SHARED_MEMORY=0, as where the ranks do not share a machine) there is none.
TEST_P(DistributedTest, RanksShareARegionWhereTheySumInSharedMemory) {
  const bool shared_memory = GetParam();
  const auto dir = rave::testing::scratch_dir("distributed-region");
  const int port = free_local_port();
  const pid_t ranks[2] = {
      start_rank(0, port, (dir / "rank0").string(), shared_memory, false, true),
      start_rank(1, port, (dir / "rank1").string(), shared_memory, false, true)};
  wait_for_ranks(ranks);
  for (const char* name : {"rank0", "rank1"}) {
    torch::Tensor seen;
    torch::load(seen, (dir / name).string());
    const std::vector<double> expected =
        shared_memory ? std::vector<double>{1, 1, 1, 1, 1, 1} : std::vector<double>{0};
    EXPECT_TRUE(seen.equal(torch::tensor(expected, torch::kDouble))) << name << " " << seen;
  }
}

INSTANTIATE_TEST_SUITE_P(Sums, DistributedTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "SharedMemory" : "Gloo"; });

}  // namespace
}  // namespace rave::neural
