// Test kernel: fp8 <-> float and float -> bf16 through the stand-in ROCm headers; on gfx942
// the fp8 conversions, e4m3 and e5m2, must use the hardware cvt instructions.
#include <hip/amd_detail/amd_hip_bf16.h>
#include <hip/amd_detail/amd_hip_fp8.h>

__global__ void fp8_convert_kernel(const __hip_fp8_e4m3_fnuz* in, __hip_fp8_e4m3_fnuz* requantised, __hip_bfloat16* out) {
    const float value = float(in[threadIdx.x]);
    requantised[threadIdx.x] = __hip_fp8_e4m3_fnuz(value * 0.5f);
    out[threadIdx.x] = __hip_bfloat16(value);
}

__global__ void bf8_convert_kernel(const __hip_fp8_e5m2_fnuz* in, __hip_fp8_e5m2_fnuz* requantised) {
    requantised[threadIdx.x] = __hip_fp8_e5m2_fnuz(float(in[threadIdx.x]) * 0.5f);
}
