// The emulator's <hip/hip_ext.h>: hipExtLaunchKernelGGL (launch with optional start/stop
// events and flags, which the synchronous emulator ignores).
#pragma once
#include <hip/hip_runtime.h>

#define hipExtLaunchKernelGGL(kernel, grid, block, shmem, stream, start_event, stop_event, flags, ...) \
  ::emu::Launcher((grid), (block), (shmem), (stream)).named(#kernel)(kernel, ##__VA_ARGS__)
