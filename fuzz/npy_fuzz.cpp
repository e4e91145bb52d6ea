// libFuzzer target for one .npy member (engine/formats/npy.hpp) and the npz accessors over it. The
// ZIP layer checks CRCs, so mutated members rarely get past it in rave_fuzz_npz; this target
// reaches the header parser and the typed accessors directly. Any bytes must either parse or throw
// InputError (one printable line naming the file); the payload must match what the header says;
// every accessor must give a value in range or throw InputError.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/formats/npz.hpp"
#include "fuzz/npz_accessors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace engine = rave::engine;
  using rave::fuzz::check;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const engine::NpyArray array = engine::parse_npy(bytes, "f.npz", "x.npy");
    check(array.data.size() == array.item_size() * array.element_count());
    std::vector<std::pair<std::string, engine::NpyArray>> members;
    for (const char* key : {"image", "target", "predict", "meta_matrix", "meta_target", "structure",
                            "meta_structure"})
      members.emplace_back(key, array);
    rave::fuzz::use_every_accessor(engine::NpzFile("f.npz", std::move(members)));
  } catch (const rave::InputError& e) {
    rave::fuzz::check_error(e, "f.npz");
  }
  return 0;
}
