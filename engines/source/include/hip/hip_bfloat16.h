// The emulator's <hip/hip_bfloat16.h>: the legacy hip_bfloat16 name, an alias of the shared
// __hip_bfloat16 here (toolchain/include/types; HIP's own is a separate class of the same layout).
#pragma once
#include <hip/hip_bf16.h>

typedef __hip_bfloat16 hip_bfloat16;
