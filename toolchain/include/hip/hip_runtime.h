// Offline overlay of <hip/hip_runtime.h>: Debian's HIP 5.2 header, then what HIP 6.3's adds
// through amd_device_functions.h: the warp functions with a lane mask (__shfl_xor_sync, ...),
// declared when HIP_ENABLE_WARP_SYNC_BUILTINS is defined, as torch's ROCm build does.
#pragma once

#include_next <hip/hip_runtime.h>

#if defined(__HIP__) && defined(HIP_ENABLE_WARP_SYNC_BUILTINS)
#include <hip/amd_detail/amd_warp_sync_functions.h>
#endif
