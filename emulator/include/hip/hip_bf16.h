#pragma once
#include "hip/hip_runtime.h"
#include "hip/amd_detail/amd_hip_bf16.h"
