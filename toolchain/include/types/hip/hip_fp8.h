// Offline stand-in for ROCm's <hip/hip_fp8.h>: the public spelling of the fp8 types.
#pragma once
#include <hip/amd_detail/amd_hip_fp8.h>
