// The emulator's <hip/hip_runtime_api.h>: everything lives in <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
