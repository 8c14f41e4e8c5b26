#pragma once
#include "hip/amd_detail/amd_hip_fp8.h"
