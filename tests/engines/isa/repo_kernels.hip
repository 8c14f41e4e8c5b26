// The repo's kernel instances (kernels/config.py), instantiated through their launchers so a
// device compile emits them; -DVARIANT=0..3 picks the variant (v2 and v3 share helper names,
// so each variant is its own code object). The ISA engine's tests run these code objects.
#if VARIANT == 0
#include "fp8_mm_v0_naive.hip"
template bool launch_fp8_mm_v0_naive<16, 16, 128, 4, 1>(const Fp8MmArgs&);
#elif VARIANT == 1
#include "fp8_mm_v1_lds_mfma.hip"
template bool launch_fp8_mm_v1_lds_mfma<128, 128, 128, 2, 2>(const Fp8MmArgs&);
#elif VARIANT == 2
#include "fp8_mm_v2_swizzle_splitk.hip"
template bool launch_fp8_mm_v2_swizzle_splitk<128, 128, 128, 2, 4>(const Fp8MmArgs&);
template bool launch_fp8_mm_v2_swizzle_splitk<64, 128, 128, 1, 4>(const Fp8MmArgs&);
#elif VARIANT == 3
#include "fp8_mm_v3_twoblock_xcd.hip"
template bool launch_fp8_mm_v3_twoblock_xcd<128, 128, 128, 2, 2>(const Fp8MmArgs&);
template bool launch_fp8_mm_v3_twoblock_xcd<64, 128, 128, 1, 4>(const Fp8MmArgs&);
#endif
