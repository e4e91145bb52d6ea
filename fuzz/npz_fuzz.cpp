// libFuzzer target for the npz reader: the ZIP layer (engine/formats/zip.hpp) and the .npy members
// in it (npy.hpp, npz.hpp). Any bytes must either read or throw InputError (one printable line
// naming the file), within the reader's memory cap; every typed accessor of what reads must either
// give a value in range or throw InputError; a full read and a selective read must agree.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/formats/npz.hpp"
#include "fuzz/npz_accessors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace engine = rave::engine;
  using rave::fuzz::check;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const engine::NpzFile file = engine::parse_npz(bytes, "f.npz");
    rave::fuzz::use_every_accessor(file);
    const engine::NpzFile answer = engine::parse_npz(bytes, "f.npz", {"target", "predict"});
    for (const char* key : {"target", "predict"})
      check(file.contains(key) == answer.contains(key) &&
            (!file.contains(key) || file.array(key).data == answer.array(key).data));
  } catch (const rave::InputError& e) {
    rave::fuzz::check_error(e, "f.npz");
  }
  return 0;
}
