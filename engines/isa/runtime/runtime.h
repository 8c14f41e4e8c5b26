// Internals shared by the files of the ISA engine's HIP runtime (a simulated MI300X).
//
// The runtime is one shared library, libisa_hip.so, built from engines/isa/core/*.cpp and
// engines/isa/runtime/*.cpp. A submission's extension links it instead of libamdhip64: its
// host code calls the HIP entry points below and every kernel launch ends in isa::launch.
#pragma once

#include <hip/hip_runtime_api.h>

#include <memory>
#include <string>

#include "engine.h"

namespace isa_rt {

// A kernel as the host stub names it: the code object that holds it and its symbol.
struct Kernel {
  std::shared_ptr<const isa::CodeObject> code;
  std::string symbol;
};

// The code object of a registered fat binary, loaded on first use (never during dlopen:
// a throw from a static constructor would abort the process).
class FatBinary {
 public:
  FatBinary(const void* wrapper);
  std::shared_ptr<const isa::CodeObject> code();  // throws isa::Fault
 private:
  const void* bundle_ = nullptr;
  std::shared_ptr<const isa::CodeObject> code_;
};

// The kernel a host stub (the function pointer hipLaunchKernel receives) stands for;
// nullptr when the pointer names no registered kernel. Throws isa::Fault when its code
// object cannot be loaded.
const Kernel* kernel_of(const void* host_stub);

// Records `status` as the last error (hipGetLastError) and returns it.
hipError_t fail(hipError_t status, const std::string& message = "");

// Runs a launch and turns a fault into a recorded error plus a rethrow as std::runtime_error
// (pybind turns that into a Python RuntimeError; the Python wrapper raises IsaFault).
hipError_t launch(const void* host_stub, dim3 grid, dim3 block, void** args, size_t dynamic_lds);

// For engines.isa's Python side (python_api.cpp): a fault is also kept until Python takes it,
// so a submission that swallows the launch error still fails its call.
void record_fault(const std::string& message);
void count_launch();

}  // namespace isa_rt
