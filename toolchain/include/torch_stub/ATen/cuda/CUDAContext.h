// Declarations-only stand-in (the CUDA spelling hipify maps to ATen/hip/HIPContext.h on the
// runner); see torch/types.h for why it exists.
#pragma once
#include <torch/types.h>
