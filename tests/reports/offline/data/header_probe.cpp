// Host driver for tests/reports/offline/test_headers.py: runs the software paths of the stand-in fp8/bf16
// headers. `decode` prints every fp8 code as a float's bits, e4m3 codes then e5m2 codes;
// otherwise each stdin line holds a float's bits in hex and gets back
// "<e4m3 no-sat> <e4m3 sat-finite> <bf16> <e5m2 no-sat> <e5m2 sat-finite>" in hex.
#include <hip/amd_detail/amd_hip_bf16.h>
#include <hip/amd_detail/amd_hip_fp8.h>

#include <cstdio>
#include <cstring>

template <class Fp8>
void print_decoded() {
    for (int code = 0; code < 256; ++code) {
        Fp8 value;
        value.__x = (__hip_fp8_storage_t)code;
        std::printf("%08x\n", __builtin_bit_cast(unsigned, float(value)));
    }
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "decode") == 0) {
        print_decoded<__hip_fp8_e4m3_fnuz>();
        print_decoded<__hip_fp8_e5m2_fnuz>();
        return 0;
    }
    unsigned bits;
    while (std::scanf("%x", &bits) == 1) {
        const float x = __builtin_bit_cast(float, bits);
        std::printf("%02x %02x %04x %02x %02x\n", __hip_cvt_float_to_fp8(x, __HIP_NOSAT, __HIP_E4M3_FNUZ),
                    __hip_fp8_e4m3_fnuz(x).__x, __hip_bfloat16(x).data,
                    __hip_cvt_float_to_fp8(x, __HIP_NOSAT, __HIP_E5M2_FNUZ), __hip_fp8_e5m2_fnuz(x).__x);
    }
    return 0;
}
