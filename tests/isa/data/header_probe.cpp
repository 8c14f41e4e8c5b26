// Host driver for tests/isa/test_headers.py: runs the software paths of the stand-in fp8/bf16
// headers. `decode` prints every fp8 code as a float's bits; otherwise each stdin line holds a
// float's bits in hex and gets back "<fp8 no-sat> <fp8 sat-finite> <bf16>" in hex.
#include <hip/amd_detail/amd_hip_bf16.h>
#include <hip/amd_detail/amd_hip_fp8.h>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "decode") == 0) {
        for (int code = 0; code < 256; ++code) {
            __hip_fp8_e4m3_fnuz value;
            value.__x = (__hip_fp8_storage_t)code;
            std::printf("%08x\n", __builtin_bit_cast(unsigned, float(value)));
        }
        return 0;
    }
    unsigned bits;
    while (std::scanf("%x", &bits) == 1) {
        const float x = __builtin_bit_cast(float, bits);
        std::printf("%02x %02x %04x\n", __hip_cvt_float_to_fp8(x, __HIP_NOSAT, __HIP_E4M3_FNUZ),
                    __hip_fp8_e4m3_fnuz(x).__x, __hip_bfloat16(x).data);
    }
    return 0;
}
