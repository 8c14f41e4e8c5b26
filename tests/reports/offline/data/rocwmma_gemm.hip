// A rocWMMA-style fp8 GEMM tile (one wave per 32x32 / 16x16 output block), written against the
// public rocWMMA API: tests/reports/offline/test_standins.py compiles it for gfx942 with our stand-in and
// counts the MFMAs it makes.
#include <hip/hip_runtime.h>
#include <rocwmma/rocwmma.hpp>

using namespace rocwmma;

template <int BLOCK, int BLOCK_K>
__global__ void __launch_bounds__(64) wmma_fp8_kernel(const float8_t* a, const float8_t* b_t, __hip_bfloat16* c,
                                                      const float* a_scale, int k) {
    fragment<matrix_a, BLOCK, BLOCK, BLOCK_K, float8_t, row_major> fa;
    fragment<matrix_b, BLOCK, BLOCK, BLOCK_K, float8_t, col_major> fb;
    fragment<accumulator, BLOCK, BLOCK, BLOCK_K, float> acc;
    fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += BLOCK_K) {
        load_matrix_sync(fa, a + kk, k);
        load_matrix_sync(fb, b_t + kk, k);
        mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; ++i) acc.x[i] *= a_scale[0];
    fragment<accumulator, BLOCK, BLOCK, BLOCK_K, __hip_bfloat16> out;
    for (int i = 0; i < out.num_elements; ++i) out.x[i] = __hip_bfloat16(acc.x[i]);
    store_matrix_sync(c, out, BLOCK, mem_row_major);
}

template <int BLOCK, int BLOCK_K>
__global__ void __launch_bounds__(64) wmma_bf16_kernel(const bfloat16_t* a, const bfloat16_t* b, float* c, int k) {
    fragment<matrix_a, BLOCK, BLOCK, BLOCK_K, bfloat16_t, col_major> fa;
    fragment<matrix_b, BLOCK, BLOCK, BLOCK_K, bfloat16_t, row_major> fb;
    fragment<accumulator, BLOCK, BLOCK, BLOCK_K, float> acc;
    load_matrix_sync(acc, c, BLOCK, mem_col_major);
    for (int kk = 0; kk < k; kk += BLOCK_K) {
        load_matrix_sync(fa, a + kk * BLOCK, BLOCK);
        load_matrix_sync(fb, b + kk * BLOCK, BLOCK);
        mma_sync(acc, fa, fb, acc);
    }
    store_matrix_sync(c, acc, BLOCK, mem_col_major);
}

template __global__ void wmma_fp8_kernel<32, 16>(const float8_t*, const float8_t*, __hip_bfloat16*, const float*, int);
template __global__ void wmma_fp8_kernel<16, 64>(const float8_t*, const float8_t*, __hip_bfloat16*, const float*, int);
template __global__ void wmma_bf16_kernel<32, 8>(const bfloat16_t*, const bfloat16_t*, float*, int);
template __global__ void wmma_bf16_kernel<16, 16>(const bfloat16_t*, const bfloat16_t*, float*, int);
