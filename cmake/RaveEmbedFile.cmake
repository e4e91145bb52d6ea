# cmake -DINPUT=<file> -DOUTPUT=<file.cpp> -DSYMBOL=<qualified name> -DNAMESPACE=<ns> -P RaveEmbedFile.cmake
# Writes a C++ source defining `const std::span<const std::uint8_t> SYMBOL` over the bytes of INPUT.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
get_filename_component(name "${INPUT}" NAME)
file(WRITE "${OUTPUT}"
  "// Generated from ${name} by cmake/RaveEmbedFile.cmake; do not edit.\n"
  "#include <cstdint>\n#include <span>\n\nnamespace ${NAMESPACE} {\nnamespace {\n"
  "const std::uint8_t kBytes[] = {\n${bytes}};\n}  // namespace\n"
  "extern const std::span<const std::uint8_t> ${SYMBOL};\n"
  "const std::span<const std::uint8_t> ${SYMBOL}(kBytes, sizeof kBytes);\n}  // namespace ${NAMESPACE}\n")
