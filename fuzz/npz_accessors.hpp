#pragma once
// Every typed accessor of an NpzFile, for the npz and npy fuzz targets: each must give a value in
// range or throw InputError (one printable line naming the file).
#include "engine/formats/npz.hpp"
#include "fuzz/fuzz_check.hpp"

namespace rave::fuzz {

inline void use_every_accessor(const engine::NpzFile& file) {
  const auto attempt = [&](auto&& access) {
    try {
      access();
    } catch (const InputError& e) {
      check_error(e, file.file());
    }
  };
  attempt([&] { check(file.image().size() == 16u * 160 * 160); });
  attempt([&] {  // an N x N variant's images (docs/variants.md)
    int grid = 0;
    const auto pixels = file.grid_image(grid);
    check(grid >= 3 && grid <= 10 &&
          pixels.size() == static_cast<std::size_t>(grid * grid + 7) * 160 * 160);
  });
  attempt([&] { check(file.target() >= 0 && file.target() < 8); });
  attempt([&] { check(file.predict() >= 0 && file.predict() < 8); });
  attempt([&] {
    for (const auto& row : file.meta_matrix())
      for (const auto bit : row) check(bit <= 1);
  });
  attempt([&] {
    for (const auto bit : file.meta_target()) check(bit <= 1);
  });
  attempt([&] {
    for (const auto bit : file.meta_structure()) check(bit <= 1);
  });
  attempt([&] { file.structure(); });
  attempt([&] { file.contents(); });
}

}  // namespace rave::fuzz
