#include "neural/internal/collective.hpp"

#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "common/local_port.hpp"
#include "neural/internal/shared_memory.hpp"

#if defined(RAVE_HAVE_GLOO) || defined(RAVE_HAVE_NCCL)
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#endif
#ifdef RAVE_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#ifdef RAVE_HAVE_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace rave::neural::internal {
namespace {

// The first line of an exception's message (c10 errors carry a backtrace below it).
std::string first_line(const std::exception& e) {
  std::string s = e.what();
  return s.substr(0, s.find('\n'));
}

[[noreturn]] void lost(const DistributedEnv& env, const std::exception& e) {
  throw DistributedError("rank " + std::to_string(env.rank) + " of " +
                         std::to_string(env.world_size) + ": lost contact with another rank (" +
                         first_line(e) + "); the run stopped; resume it from the last checkpoint");
}

// Concatenates tensors (same dtype and device) into flat buckets of at most kBucketBytes.
std::vector<std::vector<torch::Tensor>> buckets(const std::vector<torch::Tensor>& tensors) {
  std::vector<std::vector<torch::Tensor>> out;
  std::size_t bytes = 0;
  for (const auto& t : tensors) {
    const auto size = static_cast<std::size_t>(t.numel()) * t.element_size();
    const bool fits =
        !out.empty() && bytes + size <= kBucketBytes && out.back().front().dtype() == t.dtype();
    if (!fits) out.emplace_back(), bytes = 0;
    out.back().push_back(t);
    bytes += size;
  }
  return out;
}

}  // namespace

using Group = c10d::Backend;  // one backend (Gloo or NCCL) per run

bool shared_memory_allowed() {
  const char* value = std::getenv("RAVE_SHARED_MEMORY");
  if (!value || std::string(value) == "1") return true;
  if (std::string(value) == "0") return false;
  throw UsageError(std::string("environment variable RAVE_SHARED_MEMORY='") + value +
                   "': expected 0 (sums over Gloo) or 1 (shared memory where the ranks share a "
                   "machine, the default)");
}

struct Collective::Impl {
#if defined(RAVE_HAVE_GLOO) || defined(RAVE_HAVE_NCCL)
  c10::intrusive_ptr<c10d::Store> store;
#endif
  c10::intrusive_ptr<Group> group;
  std::optional<SharedMemoryGroup> shared;  // the CPU sums, when every rank is on this machine
  int regions = 0;                          // shared_region calls so far
};

#if defined(RAVE_HAVE_GLOO) || defined(RAVE_HAVE_NCCL)
namespace {

// True when torchrun's agent hosts the store at MASTER_ADDR:MASTER_PORT (torch.distributed's
// TORCHELASTIC_USE_AGENT_STORE): then every rank is a client, rank 0 included, as
// torch.distributed.rendezvous does it; otherwise rank 0 hosts it (`rave train --nproc`, Slurm).
bool agent_hosts_store() {
  const char* value = std::getenv("TORCHELASTIC_USE_AGENT_STORE");
  return value && std::string(value) == "True";
}

c10::intrusive_ptr<c10d::Store> connect_store(const DistributedEnv& env,
                                              std::chrono::milliseconds timeout) {
  c10d::TCPStoreOptions options;
  options.port = static_cast<std::uint16_t>(env.master_port);
  options.isServer = env.rank == 0 && !agent_hosts_store();
  options.numWorkers = static_cast<std::size_t>(env.world_size);
  options.waitWorkers = true;
  options.timeout = timeout;
  try {
    return c10::make_intrusive<c10d::TCPStore>(env.master_addr, options);
  } catch (const std::exception& e) {
    throw DistributedError("rank " + std::to_string(env.rank) + " of " +
                           std::to_string(env.world_size) + ": no rendezvous at " +
                           env.master_addr + ":" + std::to_string(env.master_port) + " (" +
                           first_line(e) + ")");
  }
}

#ifdef RAVE_HAVE_GLOO
// The network device: GLOO_SOCKET_IFNAME as torch reads it, else the address this host reaches
// the rendezvous by (loopback for a local run; on several machines the route's own address, which
// also holds in containers and network namespaces where the host name resolves to nothing useful),
// else the one the host name resolves to.
std::shared_ptr<::gloo::transport::Device> gloo_device(const DistributedEnv& env) {
  if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname)
    return c10d::ProcessGroupGloo::createDeviceForInterface(ifname);
  if (const std::string local = local_address_towards(env.master_addr); !local.empty())
    return c10d::ProcessGroupGloo::createDeviceForHostname(local);
  return c10d::ProcessGroupGloo::createDefaultDevice();
}
#endif

c10::intrusive_ptr<Group> make_group(const c10::intrusive_ptr<c10d::Store>& store,
                                     const DistributedEnv& env, const torch::Device& device,
                                     std::chrono::milliseconds timeout) {
#ifdef RAVE_HAVE_NCCL
  if (device.is_cuda()) {
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = timeout;
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, env.rank, env.world_size, options);
  }
#endif
#ifdef RAVE_HAVE_GLOO
  (void)device;
  auto options = c10d::ProcessGroupGloo::Options::create(timeout);
  options->devices.push_back(gloo_device(env));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, env.rank, env.world_size, options);
#else
  throw UsageError(
      "this rave was built without Gloo, and NCCL serves CUDA devices only: train on one process");
#endif
}

std::string get_text(c10d::Store& store, const std::string& key) {
  const auto bytes = store.get(key);
  return std::string(bytes.begin(), bytes.end());
}
void set_text(c10d::Store& store, const std::string& key, const std::string& value) {
  store.set(key, std::vector<std::uint8_t>(value.begin(), value.end()));
}

// Every rank says the same of each key once all have published theirs.
bool all_ranks_say(c10d::Store& store, const DistributedEnv& env, const std::string& key,
                   const std::string& expected) {
  bool same = true;
  for (int r = 0; r < env.world_size; ++r)
    same = get_text(store, key + std::to_string(r)) == expected && same;
  return same;
}

// Rank 0 makes shared memory under a new name with `create` and publishes the name at `key`
// (empty when it could not: a full or missing /dev/shm); the others map it by that name with
// `open`. nullopt where this rank has none.
template <typename T, typename Create, typename Open>
std::optional<T> map_shared(c10d::Store& store, const DistributedEnv& env, const std::string& key,
                            std::string& name, const Create& create, const Open& open) {
  try {
    if (env.rank != 0) {
      name = get_text(store, key);
      if (name.empty()) return std::nullopt;
      return open(name);
    }
    name = SharedMemoryGroup::unique_name();
    std::optional<T> created = create(name);
    set_text(store, key, name);
    return created;
  } catch (const Error&) {
    if (env.rank == 0) name.clear(), set_text(store, key, "");
    return std::nullopt;
  }
}

// Every rank says under `prefix` whether it mapped the memory named `name`; rank 0 then unlinks
// the name. True when every rank did.
bool all_mapped(c10d::Store& store, const DistributedEnv& env, const std::string& prefix,
                bool mapped, const std::string& name) {
  set_text(store, prefix + std::to_string(env.rank), mapped ? "1" : "0");
  const bool everyone = all_ranks_say(store, env, prefix, "1");
  if (env.rank == 0 && !name.empty()) SharedMemoryGroup::unlink(name);
  return everyone;
}

// The shared-memory segment of a CPU run whose ranks all share this machine (same boot, mount and
// pid namespaces), agreed through the store so that every rank decides alike: each publishes its
// host key (empty when not `wanted`) and pid, rank 0 creates the segment and names it,
// the others map it and say whether they could, rank 0 unlinks the name. Any "no" leaves the
// sums to Gloo.
std::optional<SharedMemoryGroup> join_shared_memory(c10d::Store& store, const DistributedEnv& env,
                                                    bool wanted,
                                                    std::chrono::milliseconds timeout) {
  const std::string me = std::to_string(env.rank);
  const std::string host = wanted ? shared_memory_host_key() : std::string();
  set_text(store, "rave/shm/host/" + me, host);
  set_text(store, "rave/shm/pid/" + me, std::to_string(::getpid()));
  if (host.empty() || !all_ranks_say(store, env, "rave/shm/host/", host)) return std::nullopt;
  std::string name;
  std::optional<SharedMemoryGroup> shared = map_shared<SharedMemoryGroup>(
      store, env, "rave/shm/name", name,
      [&](const std::string& n) { return SharedMemoryGroup::create(env.world_size, n); },
      [&](const std::string& n) { return SharedMemoryGroup::open(env.rank, env.world_size, n); });
  if (!all_mapped(store, env, "rave/shm/mapped/", shared.has_value(), name)) return std::nullopt;
  std::vector<pid_t> pids;
  for (int r = 0; r < env.world_size; ++r)
    pids.push_back(std::stoi(get_text(store, "rave/shm/pid/" + std::to_string(r))));
  shared->start(std::move(pids), timeout);
  return shared;
}

}  // namespace
#endif

Collective::Collective(const DistributedEnv& env, const torch::Device& device,
                       std::chrono::milliseconds timeout)
    : env_(env), impl_(std::make_unique<Impl>()) {
#if defined(RAVE_HAVE_GLOO) || defined(RAVE_HAVE_NCCL)
  try {
    const bool shared = device.is_cpu() && shared_memory_allowed();
    impl_->store = connect_store(env, timeout);
    impl_->group = make_group(impl_->store, env, device, timeout);
    impl_->shared = join_shared_memory(*impl_->store, env, shared, timeout);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    lost(env_, e);
  }
#else
  (void)device;
  (void)timeout;
  throw UsageError(
      "this rave was built without c10d process groups (install libgloo-dev and rebuild): "
      "WORLD_SIZE must be 1");
#endif
}

Collective::~Collective() = default;

bool Collective::sums_in_shared_memory() const { return impl_->shared.has_value(); }

namespace {

// Runs `op` on each bucket of `tensors` flattened into one buffer, then copies the results back.
template <typename Op>
void bucketed(const DistributedEnv& env, const std::vector<torch::Tensor>& tensors, Op op) {
  torch::NoGradGuard no_grad;
  for (const auto& bucket : buckets(tensors)) {
    std::vector<torch::Tensor> views;
    for (const auto& t : bucket) views.push_back(t.detach().reshape({-1}));
    std::vector<torch::Tensor> flat{torch::cat(views)};
    try {
      op(flat)->wait();
    } catch (const std::exception& e) {
      lost(env, e);
    }
    std::int64_t at = 0;
    for (const auto& t : bucket) {
      t.detach().copy_(flat[0].narrow(0, at, t.numel()).view_as(t));
      at += t.numel();
    }
  }
}

// Sums `tensors` (all float32 or all float64, on the CPU: the same on every rank, so every rank
// takes the same path) in the shared segment; false when it cannot. Tensors that are not
// contiguous go through contiguous copies.
template <typename T>
bool shared_sum(const DistributedEnv& env, SharedMemoryGroup& shared,
                const std::vector<torch::Tensor>& tensors, double scale) {
  for (const auto& t : tensors)
    if (!t.is_cpu() || t.scalar_type() != c10::CppTypeToScalarType<T>::value) return false;
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> dense;
  std::vector<Span<T>> spans;
  for (const auto& t : tensors) {
    dense.push_back(t.detach().contiguous());
    spans.push_back({dense.back().template data_ptr<T>(), static_cast<std::size_t>(t.numel())});
  }
  try {
    shared.all_reduce_sum(std::span<const Span<T>>(spans), scale);
  } catch (const std::exception& e) {
    lost(env, e);
  }
  for (std::size_t i = 0; i < tensors.size(); ++i)
    if (dense[i].data_ptr() != tensors[i].data_ptr()) tensors[i].detach().copy_(dense[i]);
  return true;
}

bool shared_sum(const DistributedEnv& env, std::optional<SharedMemoryGroup>& shared,
                const std::vector<torch::Tensor>& tensors, double scale = 1.0) {
  return shared && (shared_sum<float>(env, *shared, tensors, scale) ||
                    shared_sum<double>(env, *shared, tensors, scale));
}

}  // namespace

void Collective::broadcast(const std::vector<torch::Tensor>& tensors) {
  bucketed(env_, tensors,
           [&](std::vector<torch::Tensor>& flat) { return impl_->group->broadcast(flat); });
}

void Collective::all_reduce_sum(const std::vector<torch::Tensor>& tensors) {
  all_reduce_sum(tensors, 1.0);
}

void Collective::all_reduce_sum(const std::vector<torch::Tensor>& tensors, double scale) {
  if (shared_sum(env_, impl_->shared, tensors, scale)) return;
  if (scale != 1.0) {
    torch::NoGradGuard no_grad;
    for (const auto& t : tensors) t.detach().mul_(scale);
  }
  bucketed(env_, tensors,
           [&](std::vector<torch::Tensor>& flat) { return impl_->group->allreduce(flat); });
}

torch::Tensor Collective::sum_over_ranks(const torch::Tensor& tensor) {
  std::vector<torch::Tensor> one{tensor.detach().clone(at::MemoryFormat::Contiguous)};
  if (shared_sum(env_, impl_->shared, one)) return one[0];
  try {
    impl_->group->allreduce(one)->wait();
  } catch (const std::exception& e) {
    lost(env_, e);
  }
  return one[0];
}

namespace {

std::vector<Span<float>> float_spans(const std::vector<torch::Tensor>& tensors) {
  std::vector<Span<float>> spans;
  for (const auto& t : tensors)
    spans.push_back({t.data_ptr<float>(), static_cast<std::size_t>(t.numel())});
  return spans;
}

}  // namespace

bool Collective::reduce_and_step(FusedAdam& adam, double scale) {
  torch::NoGradGuard no_grad;
  for (auto& group : adam.param_groups()) (void)gradients_or_zeros(group.params());
  if (!impl_->shared || !adam.begin_pieces()) return false;
  const auto parameters = adam.piece_parameters();
  std::vector<torch::Tensor> gradients;
  for (const auto& p : parameters) gradients.push_back(p.grad());
  const auto in = float_spans(gradients), out = float_spans(parameters);
  try {
    impl_->shared->reduce_update(in, out, scale, [&](std::size_t at, float* sums, std::size_t n) {
      adam.update_piece(at, sums, n);
    });
  } catch (const std::exception& e) {
    lost(env_, e);
  }
  adam.moments_sharded = env_.world_size > 1;
  return true;
}

void Collective::gather_moments(FusedAdam& adam) {
  if (!adam.moments_sharded) return;
  RAVE_CHECK(impl_->shared, "gather_moments: sharded moments without a shared segment");
  try {
    for (int which : {1, 2}) impl_->shared->gather_shares(float_spans(adam.piece_moments(which)));
  } catch (const std::exception& e) {
    lost(env_, e);
  }
  adam.moments_sharded = false;
}

void Collective::barrier() {
  try {
    impl_->group->barrier()->wait();
  } catch (const std::exception& e) {
    lost(env_, e);
  }
}

std::shared_ptr<SharedRegion> Collective::shared_region(std::size_t bytes) {
  if (!impl_->shared || bytes == 0) return nullptr;
#if defined(RAVE_HAVE_GLOO) || defined(RAVE_HAVE_NCCL)
  const std::string key = "rave/region/" + std::to_string(impl_->regions++) + "/";
  std::string name;
  try {
    auto region = map_shared<SharedRegion>(
        *impl_->store, env_, key + "name", name,
        [&](const std::string& n) { return SharedRegion::create(n, bytes); },
        [&](const std::string& n) { return SharedRegion::open(n, bytes); });
    if (!all_mapped(*impl_->store, env_, key + "mapped/", region.has_value(), name)) return nullptr;
    return std::make_shared<SharedRegion>(std::move(*region));
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    lost(env_, e);
  }
#else
  return nullptr;
#endif
}

std::vector<torch::Tensor> gradients_or_zeros(const std::vector<torch::Tensor>& parameters) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> grads;
  for (const auto& p : parameters) {
    auto& g = const_cast<torch::Tensor&>(p).mutable_grad();
    if (!g.defined()) g = torch::zeros_like(p);
    grads.push_back(g);
  }
  return grads;
}

void average_gradients(Collective& group, const std::vector<torch::Tensor>& parameters,
                       std::int64_t local, std::int64_t global) {
  group.all_reduce_sum(gradients_or_zeros(parameters), gradient_weight(local, global));
}

}  // namespace rave::neural::internal
