#pragma once
// Where this process stands in a data-parallel training run, read from the environment by the
// torch.distributed conventions (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT), so that
// torchrun, Slurm (srun with those variables exported) or a Kubernetes job can start rave's ranks,
// as `rave train --nproc N` does on one machine. Torch-free.
//
//   DistributedEnv env = distributed_env_from_environment();   // world_size 1 when RANK is unset
//   if (env.world_size > 1) { ... env.rank ... }
#include <functional>
#include <string>

#include "common/error.hpp"

namespace rave::neural {

/// One process's place in a run of world_size processes; rank 0 writes checkpoints and reports.
struct DistributedEnv {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;  ///< rank on this machine (picks the GPU for --device cuda)
  std::string master_addr = "127.0.0.1";  ///< host of rank 0's rendezvous store
  int master_port = 29500;
  friend bool operator==(const DistributedEnv&, const DistributedEnv&) = default;
};

/// The variables through `lookup` (nullptr = unset). Without WORLD_SIZE (or with 1) the run is a
/// single process; otherwise RANK and MASTER_PORT are required. UsageError naming the variable
/// when one is malformed or out of range.
DistributedEnv distributed_env_from(const std::function<const char*(const char*)>& lookup);
/// distributed_env_from(std::getenv).
DistributedEnv distributed_env_from_environment();

/// Another rank of the run failed or vanished (its process was killed, its machine lost, a
/// collective timed out): what() is one line saying so; the run stops and can be resumed.
class DistributedError : public Error {
 public:
  using Error::Error;
};

}  // namespace rave::neural
