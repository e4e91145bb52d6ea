// libFuzzer target for the problem XML reader (engine/formats/xml_io.hpp). Any bytes must either
// read as a problem or throw InputError (one printable line naming the file); the fast path that
// cuts mask values first must agree with parsing the whole text, results and errors alike; whatever
// reads must survive the .asig round trip (write, read: the same problem), a variant's problem the
// XML one.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "engine/formats/asig_io.hpp"
#include "engine/formats/internal/xml_fields.hpp"
#include "engine/formats/xml_io.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using Outcome = std::variant<rave::engine::Problem, std::string>;

template <class Read>
Outcome outcome(Read read) {
  try {
    return read();
  } catch (const rave::InputError& e) {
    rave::fuzz::check_error(e, "f.xml");
    return std::string(e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace engine = rave::engine;
  using rave::fuzz::check;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const Outcome fast = outcome([&] { return engine::parse_problem_xml(text, "f.xml"); });
  const Outcome whole =
      outcome([&] { return engine::internal::parse_problem_xml_uncut(text, "f.xml"); });
  check(fast == whole);
  if (const auto* problem = std::get_if<engine::Problem>(&fast)) {
    if (problem->variant.is_original()) {
      const std::string asig = engine::write_asig(*problem);
      check(engine::parse_asig(asig, "f.asig") == *problem);
    } else {  // a variant (docs/variants.md) has no .asig form: its XML, without marks, must read
              // back
      const std::string xml = engine::write_problem_xml(*problem, nullptr);
      check(engine::parse_problem_xml(xml, "g.xml") == *problem);
    }
  }
  return 0;
}
