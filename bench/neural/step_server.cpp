// rave-step: one model's training step on demand, for bench/neural/compare_pytorch.py, which
// alternates it with the same step in PyTorch so both see the same machine load. Builds the model
// and a fixed random batch (the method of train_step_bench.cpp), makes 2 warm-up steps, prints
// "ready", then answers every "step" line on stdin with the step's wall time in milliseconds (on
// CUDA, until the device has finished it).
//   rave-step MODEL DRT(0|1) IMAGE_SIZE BATCH THREADS [DEVICE [PRECISION]]
//   rave-step cnn 1 80 32 1                  rave-step resnet 1 224 32 1 cuda:0 bf16
// Built only with the neural library (bench/CMakeLists.txt).
#include <torch/cuda.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "bench/neural/step_inputs.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/train_step.hpp"

namespace {

using namespace rave::neural;

int serve(int argc, char** argv) {
  if (argc < 6 || argc > 8) {
    std::fprintf(stderr,
                 "usage: rave-step MODEL DRT(0|1) IMAGE_SIZE BATCH THREADS [DEVICE [PRECISION]]\n");
    return 2;
  }
  const auto device_spec = parse_device(argc > 6 ? argv[6] : "cpu");
  const auto precision = parse_precision(argc > 7 ? argv[7] : "fp32");
  if (!device_spec || !precision)
    return std::fprintf(stderr, "rave-step: bad device or precision\n"), 2;
  const torch::Device device = resolve_device(*device_spec);
  const auto finish = [&] {
    if (device.is_cuda()) torch::cuda::synchronize(device.index());
  };
  const auto kind = parse_model_kind(argv[1]);
  if (!kind) return std::fprintf(stderr, "rave-step: unknown model %s\n", argv[1]), 2;
  const ModelOptions options{
      .kind = *kind, .drt = std::atoi(argv[2]) != 0, .image_size = std::atoi(argv[3])};
  set_compute_threads(std::atoi(argv[5]));
  torch::manual_seed(1);
  auto model = make_model(options);
  model->to(device);
  auto adam = make_adam(*model, {});
  const auto batch = random_step_batch(std::atoi(argv[4]), resolved_image_size(options), device);
  const StepOptions step{.precision = *precision};
  const LossWeights weights = step_loss_weights(*kind);
  for (int i = 0; i < 2; ++i) train_step(*model, adam, batch, weights, step);
  finish();
  std::cout << "ready" << std::endl;
  for (std::string line; std::getline(std::cin, line) && line == "step";) {
    const auto t0 = std::chrono::steady_clock::now();
    train_step(*model, adam, batch, weights, step);
    finish();
    std::cout
        << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()
        << std::endl;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return serve(argc, argv); }
