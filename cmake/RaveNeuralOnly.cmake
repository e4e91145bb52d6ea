# The neural part alone (-DRAVE_NEURAL_ONLY=ON, included by the top-level CMakeLists.txt, which
# stops after it): common, grammar, engine's model and formats, neural, its tests and rave-step.
# Besides LibTorch it needs only header-only Boost, TBB, pugixml, zlib, libdeflate, nlohmann-json
# GoogleTest and OpenSSL's libcrypto (no OpenCV, Z3 or CLI11), which is what scripts/gpu_check.sh carries to a GPU
# machine without apt. The full build (rave, rave-train, the other tests) is the default.
include_guard(GLOBAL)

find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(Boost 1.74 REQUIRED CONFIG)
find_package(TBB REQUIRED)
find_package(ZLIB REQUIRED)
pkg_check_modules(libdeflate REQUIRED IMPORTED_TARGET libdeflate)
find_package(nlohmann_json REQUIRED)
find_package(pugixml REQUIRED CONFIG)
find_package(GTest REQUIRED)
include(GoogleTest)

add_subdirectory(common)
add_subdirectory(grammar)
add_subdirectory(engine/model)
add_subdirectory(engine/formats)
add_subdirectory(neural)

add_library(rave_test_support STATIC tests/support/test_support.cpp)
target_include_directories(rave_test_support PUBLIC ${PROJECT_SOURCE_DIR})
find_package(OpenSSL REQUIRED COMPONENTS Crypto)  # the fixtures' SHA-256 (test support)
target_link_libraries(rave_test_support PUBLIC GTest::gtest rave::common
                      PRIVATE OpenSSL::Crypto nlohmann_json::nlohmann_json rave::options rave::warnings)
target_compile_definitions(rave_test_support PRIVATE RAVE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
rave_add_test(NAME neural DIR tests/neural LIBS rave::neural)

add_executable(rave-step bench/neural/step_server.cpp)
target_link_libraries(rave-step PRIVATE rave::neural rave::options rave::warnings)
