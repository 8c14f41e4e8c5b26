// The emulator's <hip/hip_common.h>: everything lives in <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
