// Stand-in for ROCm torch's ATen/hip/HIPContextLight.h (from ATen/cuda/CUDAContextLight.h).
#pragma once

#include <ATen/hip/HIPContext.h>
