#pragma once
// Command-line words of `rave train` and `rave eval` into neural values, with the usage error
// (exit code 2) that names the word and the known ones.
#include <string>

#include "neural/options.hpp"

namespace rave::cli {

/// "cnn" | "resnet" | "lstm" | "wren"; UsageError otherwise.
neural::ModelKind model_from_word(const std::string& word);
/// "auto" | "cpu" | "cuda" | "cuda:K"; UsageError otherwise.
neural::DeviceSpec device_from_word(const std::string& word);
/// The word of a device: "auto", "cpu", "cuda" (index -1) or "cuda:K".
std::string device_word(const neural::DeviceSpec& device);
/// "fp32" | "bf16"; UsageError otherwise.
neural::Precision precision_from_word(const std::string& word);

}  // namespace rave::cli
