// Finds and loads librave_opencv.so (engine/render/internal/drawing_module.hpp).
#include "engine/render/internal/drawing_module.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "common/error.hpp"

#ifndef RAVE_OPENCV_MODULE_BUILD_PATH
#define RAVE_OPENCV_MODULE_BUILD_PATH ""
#endif

namespace rave::engine::internal {
namespace {

namespace fs = std::filesystem;
constexpr const char* kModuleFile = "librave_opencv.so";

struct Loaded {
  const DrawingModule* module;
  void* handle;
  std::string path;
};

// The folder of the executable or shared object holding this code (a Python extension, a test).
fs::path own_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&own_folder), &info) != 0 && info.dli_fname != nullptr &&
      std::string_view(info.dli_fname).find('/') != std::string_view::npos)
    return fs::path(info.dli_fname).parent_path();
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

std::vector<fs::path> candidates() {
  if (const char* env = std::getenv("RAVE_OPENCV_MODULE"); env != nullptr && *env != '\0')
    return {env};
  std::vector<fs::path> out;
  if (const fs::path here = own_folder(); !here.empty()) {
    out.push_back(here / kModuleFile);
    out.push_back(here / ".." /
                  kModuleFile);  // the pip package: rave/bin/rave, rave/librave_opencv.so
    out.push_back(here / ".." / "lib" / kModuleFile);
  }
  if (*RAVE_OPENCV_MODULE_BUILD_PATH != '\0') out.emplace_back(RAVE_OPENCV_MODULE_BUILD_PATH);
  return out;
}

const DrawingModule* open_module(const fs::path& path, std::string& why, void*& handle) {
  handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    why = dlerror();
    return nullptr;
  }
  using Entry = const DrawingModule* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(handle, "rave_drawing_module"));
  const DrawingModule* m = entry != nullptr ? entry() : nullptr;
  if (m == nullptr || m->abi != kDrawingModuleAbi || m->size != sizeof(DrawingModule)) {
    why = path.string() + " is not this build's drawing module (rebuild rave)";
    dlclose(handle);
    handle = nullptr;
    return nullptr;
  }
  return m;  // never closed: the module's code is called until the process ends
}

Loaded load() {
  std::string tried, why;
  for (const fs::path& path : candidates()) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      tried += (tried.empty() ? "" : ", ") + path.string();
      continue;
    }
    void* handle = nullptr;
    if (const DrawingModule* m = open_module(path, why, handle))
      return {m, handle, path.lexically_normal().string()};
    throw Error("cannot load the drawing module: " + why);
  }
  throw Error(std::string("cannot find the drawing module ") + kModuleFile +
              " (OpenCV's drawing; tried " + tried + "; set RAVE_OPENCV_MODULE to its path)");
}

const Loaded& loaded() {
  static const Loaded instance = load();
  return instance;
}

}  // namespace

const DrawingModule& drawing_module() { return *loaded().module; }

void* drawing_module_symbol(const char* name) { return dlsym(loaded().handle, name); }

const std::string& drawing_module_path() { return loaded().path; }

}  // namespace rave::engine::internal
