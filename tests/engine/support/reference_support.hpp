#pragma once
// The original generators' problems kept in tests/fixtures (tests/fixtures/README.md) as engine
// Problems, and their original npz files re-created from the XML and the manifest, so the byte-
// identity checks, and the tests that read a dataset folder, need nothing outside the repository.
//
//   for (const auto& ref : rave::testing::reference_problems("fair")) {
//     const Problem p = read_reference_problem(ref);      // target and predict from the manifest
//     EXPECT_EQ(rave::testing::sha256_hex(rebuild_npz(ref, p)), ref.npz_sha256);
//   }
//   const std::filesystem::path dir = reference_set_dir("raven");  // XML + npz, as written
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/problem.hpp"
#include "tests/support/test_support.hpp"

namespace rave::engine::testing {

/// The fixture XML read, with target and predict from the manifest.
Problem read_reference_problem(const ::rave::testing::ReferenceProblem& ref);
/// Every problem of one reference set ("raven", "iraven", "fair"), in path order.
std::vector<Problem> read_reference_problems(std::string_view set);
/// The 16 panels of `problem` rendered, in npz `image` order (context, then candidates).
std::string render_image(const Problem& problem);
/// The npz the original generator wrote for `ref`, re-created from `problem` (read from the
/// fixture): panels rendered, predict shaped and members stored or deflated as the manifest says.
std::string rebuild_npz(const ::rave::testing::ReferenceProblem& ref, const Problem& problem);
/// The original output of one reference set, re-created once per process in a scratch folder:
/// `<configuration>/RAVEN_<k>_<split>.xml` with the npz beside it, byte for byte the original files
/// (each npz is checked against the manifest's sha256; std::runtime_error when one differs).
std::filesystem::path reference_set_dir(std::string_view set);

}  // namespace rave::engine::testing
