// The emulator's <hip/hip_bfloat16.h>: the legacy hip_bfloat16 name (an alias of __hip_bfloat16 here).
#pragma once
#include "hip/hip_bf16.h"
