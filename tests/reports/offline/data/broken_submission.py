# Test submission (never run): its HIP source is built from two module-level strings, and the
# second has a deliberate error on the line marked ERROR-HERE. tests/reports/offline/test_report.py checks
# that clang's message names this file and that line, not the wrapper the report compiles.
import torch.utils.cpp_extension

HIP_PRELUDE = """
#include <hip/amd_detail/amd_hip_bf16.h>
#include <hip/amd_detail/amd_hip_fp8.h>
"""

HIP_KERNEL = HIP_PRELUDE + """
__global__ void broken_kernel(const __hip_fp8_e4m3_fnuz* in, __hip_bfloat16* out) {
    out[threadIdx.x] = __hip_bfloat16(float(in[threadIdx.x]) * undeclared_scale);  // ERROR-HERE
}
"""

module = torch.utils.cpp_extension.load_inline(
    name="broken", cpp_sources="", cuda_sources=[HIP_KERNEL], functions=[],
    extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"],
)
