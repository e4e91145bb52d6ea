#include "neural/distributed.hpp"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace rave::neural {
namespace {

// The integer value of `name`, or `fallback` when unset; UsageError when not an integer in [lo,
// hi].
int int_variable(const std::function<const char*(const char*)>& lookup, const char* name,
                 int fallback, int lo, int hi) {
  const char* text = lookup(name);
  if (!text) return fallback;
  const std::string_view s(text);
  int value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || value < lo || value > hi)
    throw UsageError(std::string("environment variable ") + name + "='" + text +
                     "': expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return value;
}

}  // namespace

DistributedEnv distributed_env_from(const std::function<const char*(const char*)>& lookup) {
  DistributedEnv env;
  env.world_size = int_variable(lookup, "WORLD_SIZE", 1, 1, 1 << 16);
  if (env.world_size == 1) return env;
  if (!lookup("RANK"))
    throw UsageError(
        "environment variable WORLD_SIZE is set but RANK is not (torch.distributed conventions)");
  if (!lookup("MASTER_PORT"))
    throw UsageError("environment variable MASTER_PORT is needed when WORLD_SIZE > 1");
  env.rank = int_variable(lookup, "RANK", 0, 0, env.world_size - 1);
  env.local_rank = int_variable(lookup, "LOCAL_RANK", env.rank, 0, env.world_size - 1);
  env.master_port = int_variable(lookup, "MASTER_PORT", 0, 1, 65535);
  if (const char* addr = lookup("MASTER_ADDR"); addr && *addr) env.master_addr = addr;
  return env;
}

DistributedEnv distributed_env_from_environment() {
  return distributed_env_from([](const char* name) { return std::getenv(name); });
}

}  // namespace rave::neural
