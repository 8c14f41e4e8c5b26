// The emulator's <hip/device_functions.h>: everything lives in <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
