// rave-allreduce: one rank of a timed all-reduce (internal::Collective, the trainer's), started by
// bench/neural/allreduce.sh with the torch.distributed variables: sums ELEMENTS float32 REPS times
// after 3 warm-ups and prints "rank R: min X median Y ms", shared memory or Gloo as
// RAVE_SHARED_MEMORY says.
//   WORLD_SIZE=2 RANK=0 MASTER_PORT=29611 rave-allreduce 2097152 30
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "neural/internal/collective.hpp"

int main(int argc, char** argv) {
  using namespace rave::neural;
  if (argc != 3) return std::fprintf(stderr, "usage: rave-allreduce ELEMENTS REPS\n"), 2;
  const auto env = distributed_env_from_environment();
  internal::Collective group(env, torch::kCPU, std::chrono::seconds(60));
  const std::vector<torch::Tensor> tensors{torch::randn({std::atoll(argv[1])})};
  for (int i = 0; i < 3; ++i) group.all_reduce_sum(tensors);
  std::vector<double> ms;
  for (int i = 0, n = std::atoi(argv[2]); i < n; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    group.all_reduce_sum(tensors);
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("rank %d (%s): min %.2f median %.2f ms\n", env.rank,
              group.sums_in_shared_memory() ? "shared memory" : "Gloo", ms.front(),
              ms[ms.size() / 2]);
  return 0;
}
