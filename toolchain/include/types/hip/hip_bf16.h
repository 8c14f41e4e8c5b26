// Offline stand-in for ROCm's <hip/hip_bf16.h>: the public spelling of the bf16 type.
#pragma once
#include <hip/amd_detail/amd_hip_bf16.h>
