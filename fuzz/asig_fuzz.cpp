// libFuzzer target for the .asig reader (engine/formats/asig_io.hpp). Any bytes must either read as
// a problem or throw InputError (one printable line naming the file); whatever reads must write
// back to canonical text that reads to the same problem and writes to the same text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/formats/asig_io.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace engine = rave::engine;
  using rave::fuzz::check;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const engine::Problem problem = engine::parse_asig(text, "f.asig");
    const std::string canonical = engine::write_asig(problem);
    const engine::Problem again = engine::parse_asig(canonical, "canonical.asig");
    check(again == problem);
    check(engine::write_asig(again) == canonical);
  } catch (const rave::InputError& e) {
    rave::fuzz::check_error(e, "f.asig");
  }
  return 0;
}
