// neural_words.hpp. Built only with the neural library (apps/CMakeLists.txt defines the macro).
#include "cli/neural/neural_words.hpp"

#include "common/error.hpp"

namespace rave::cli {

neural::ModelKind model_from_word(const std::string& word) {
  const auto kind = neural::parse_model_kind(word);
  if (!kind)
    throw UsageError("unknown model '" + word + "'; known: cnn, resnet, lstm, wren, predrnet, scl");
  return *kind;
}

neural::DeviceSpec device_from_word(const std::string& word) {
  const auto device = neural::parse_device(word);
  if (!device) throw UsageError("unknown device '" + word + "'; known: auto, cpu, cuda, cuda:K");
  return *device;
}

std::string device_word(const neural::DeviceSpec& device) {
  switch (device.kind) {
    case neural::Device::kAuto: return "auto";
    case neural::Device::kCpu: return "cpu";
    case neural::Device::kCuda: break;
  }
  return device.index < 0 ? "cuda" : "cuda:" + std::to_string(device.index);
}

neural::Precision precision_from_word(const std::string& word) {
  const auto precision = neural::parse_precision(word);
  if (!precision) throw UsageError("unknown precision '" + word + "'; known: fp32, bf16");
  return *precision;
}

}  // namespace rave::cli
