// rocWMMA fragments in a K loop, filled two ways real submissions use: load_matrix_sync from the
// LDS, and a copy of a lane's 8 bytes into frag.x (the rank-5 submission's idiom). With the
// fragment's packed registers a native vector, as rocWMMA keeps them, neither packs bytes.
#include <hip/hip_runtime.h>
#include <rocwmma/rocwmma.hpp>
#include <cstring>

using Fp8 = rocwmma::float8_t;

__global__ void loaded_fragments(const Fp8* a, float* out, int k) {
    __shared__ Fp8 tile[32][264];
    for (int i = threadIdx.x; i < 32 * 264; i += blockDim.x) (&tile[0][0])[i] = a[i];
    __syncthreads();
    auto acc = rocwmma::fragment<rocwmma::accumulator, 16, 16, 32, float>();
    rocwmma::fill_fragment(acc, 0.f);
    rocwmma::fragment<rocwmma::matrix_a, 16, 16, 32, Fp8, rocwmma::row_major> fa;
    rocwmma::fragment<rocwmma::matrix_b, 16, 16, 32, Fp8, rocwmma::col_major> fb;
    for (int kk = 0; kk < k; kk += 32) {
        rocwmma::load_matrix_sync(fa, &tile[0][kk % 256], 264);
        rocwmma::load_matrix_sync(fb, &tile[16][kk % 256], 264);
        rocwmma::mma_sync(acc, fa, fb, acc);
    }
    rocwmma::store_matrix_sync(out + threadIdx.y * 256, acc, 16, rocwmma::mem_row_major);
}

__global__ void copied_fragments(const Fp8* a, float* out, int k) {
    __shared__ Fp8 tile[64][256];
    auto acc = rocwmma::fragment<rocwmma::accumulator, 16, 16, 32, float>();
    rocwmma::fill_fragment(acc, 0.f);
    auto fa = rocwmma::fragment<rocwmma::matrix_a, 16, 16, 32, Fp8, rocwmma::row_major>();
    auto fb = rocwmma::fragment<rocwmma::matrix_b, 16, 16, 32, Fp8, rocwmma::col_major>();
    const int lane = threadIdx.x % 64, row = lane % 16;
    for (int kb = 0; kb < k; kb += 256) {
        for (int i = threadIdx.x; i < 64 * 256; i += blockDim.x) (&tile[0][0])[i] = a[kb * 64 + i];
        __syncthreads();
        for (int kk = 0; kk < 256; kk += 32) {
            const int at = (kk + (lane / 16) * 8 + 8 * row) % 256;
            memcpy(&fa.x[0], &tile[0][0] + row * 256 + at, sizeof(long));
            memcpy(&fb.x[0], &tile[0][0] + (row + 16) * 256 + at, sizeof(long));
            rocwmma::mma_sync(acc, fa, fb, acc);
        }
        __syncthreads();
    }
    rocwmma::store_matrix_sync(out + threadIdx.y * 256, acc, 16, rocwmma::mem_row_major);
}
