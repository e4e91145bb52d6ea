#pragma once
// `rave train --nproc N` on one machine: starts N copies of this very command line as the ranks of
// a data-parallel run (the torch.distributed variables RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, MASTER_ADDR=127.0.0.1 and a free MASTER_PORT set for each), waits for them,
// stops the others when one fails, and reports the failure as one line: the first real error of
// any rank, or the rank that was killed. Ranks started this way leave their error line in a file
// (rank_error_file()) instead of printing it, so one failure never prints N lines. Unless told not
// to, each rank is bound to its share of the CPUs this process may use (contiguous blocks, as
// `taskset` would): a rank's helper threads then take time from that rank only, and no rank's
// compute thread waits behind another's (on 2 cores: 6% faster bound in one alternating
// comparison, no difference in another; bench/README.md).
//
//   if (nproc > 1 && !launched_rank()) return launch_ranks(nproc);
#include <functional>
#include <optional>
#include <string>

#include "common/error.hpp"

namespace rave::cli {

/// Runs the ranks; returns the exit code (0 when every rank finished). Throws UsageError when the
/// command line cannot be re-read or a rank cannot be started.
int launch_ranks(int nproc, bool bind_cpus = true);

/// Whether this process is a rank started by launch_ranks.
bool launched_rank();

/// In a rank launch_ranks bound to CPUs: every rank's CPUs ("0 | 1"); else "".
std::string rank_cpu_binding();

/// Runs a rank's work; a launched rank's rave::Error goes to its error file (for the launcher to
/// report) and becomes the exit code (2 usage, 1 otherwise) instead of propagating.
int run_as_rank(const std::function<int()>& work);

}  // namespace rave::cli
