// neural_words.hpp. Built only with the neural library (apps/CMakeLists.txt defines the macro).
#include "apps/neural_words.hpp"

#include "common/error.hpp"

namespace rave::apps {

neural::ModelKind model_from_word(const std::string& word) {
  const auto kind = neural::parse_model_kind(word);
  if (!kind) throw UsageError("unknown model '" + word + "'; known: cnn, resnet, lstm, wren");
  return *kind;
}

neural::Device device_from_word(const std::string& word) {
  const auto device = neural::parse_device(word);
  if (!device) throw UsageError("unknown device '" + word + "'; known: auto, cpu, cuda");
  return *device;
}

}  // namespace rave::apps
