# rave_add_library(NAME <lib> [DEPS rave::x ...] [PUBLIC_LIBS ...] [PRIVATE_LIBS ...])
#   Builds rave_<lib> (alias rave::<lib>) from every .cpp in the calling folder. DEPS must name
#   rave:: libraries that are already defined: the add_subdirectory order is the layering.
# rave_add_test(NAME <name> [DIR <folder>] [LIBS ...])
#   Builds rave_<name>_tests from tests/<folder>/*_test.cpp and *_support.cpp (folder defaults to
#   <name>; engine's parts use e.g. NAME engine_model DIR engine/model) and registers it with
#   gtest_discover_tests.
include_guard(GLOBAL)

function(rave_add_library)
  cmake_parse_arguments(ARG "" "NAME" "DEPS;PUBLIC_LIBS;PRIVATE_LIBS" ${ARGN})
  foreach(dep IN LISTS ARG_DEPS)
    if(NOT TARGET ${dep})
      message(FATAL_ERROR "rave::${ARG_NAME} depends on ${dep}, which is not defined yet: "
                          "dependencies run one way (see the add_subdirectory order)")
    endif()
  endforeach()
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  add_library(rave_${ARG_NAME} STATIC ${sources})
  add_library(rave::${ARG_NAME} ALIAS rave_${ARG_NAME})
  target_include_directories(rave_${ARG_NAME} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(rave_${ARG_NAME} PUBLIC ${ARG_DEPS} ${ARG_PUBLIC_LIBS}
                        PRIVATE ${ARG_PRIVATE_LIBS} rave::options rave::warnings)
  target_link_libraries(rave_${ARG_NAME} INTERFACE rave::options)
  set_property(GLOBAL APPEND PROPERTY RAVE_LINK_GRAPH_TARGETS rave_${ARG_NAME})
endfunction()

# rave_write_link_graph(FILE <path>)
#   Writes, at generate time, one line per rave library and executable: `<target>: <link items>`
#   (direct links, generator expressions resolved), for tests/layering_test.py. Call it once, last.
function(rave_write_link_graph)
  cmake_parse_arguments(ARG "" "FILE" "" ${ARGN})
  get_property(targets GLOBAL PROPERTY RAVE_LINK_GRAPH_TARGETS)
  set(lines "")
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    set(property LINK_LIBRARIES)
    if(type STREQUAL "INTERFACE_LIBRARY")  # a group of libraries (rave::evaluation): what it passes on
      set(property INTERFACE_LINK_LIBRARIES)
    endif()
    string(APPEND lines "${target}: $<JOIN:$<TARGET_PROPERTY:${target},${property}>,;>\n")
  endforeach()
  file(GENERATE OUTPUT ${ARG_FILE} CONTENT "${lines}")
endfunction()

function(rave_add_test)
  cmake_parse_arguments(ARG "" "NAME;DIR" "LIBS" ${ARGN})
  if(NOT ARG_DIR)
    set(ARG_DIR ${ARG_NAME})
  endif()
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_DIR}/*_test.cpp
       ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_DIR}/*_support.cpp)
  add_executable(rave_${ARG_NAME}_tests ${sources})
  target_link_libraries(rave_${ARG_NAME}_tests PRIVATE ${ARG_LIBS} rave_test_support GTest::gtest_main
                        rave::options rave::warnings)
  gtest_discover_tests(rave_${ARG_NAME}_tests DISCOVERY_TIMEOUT 120 PROPERTIES LABELS unit)
  set_property(GLOBAL APPEND PROPERTY RAVE_UNIT_TEST_TARGETS rave_${ARG_NAME}_tests)
endfunction()
