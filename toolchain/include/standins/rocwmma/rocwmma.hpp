// Stand-in for <rocwmma/rocwmma.hpp>: the subset of rocWMMA's API that GEMM kernels use, written
// for this project from rocWMMA's public API documentation and built on the gfx942 MFMA builtins.
// It is not AMD's library; the offline report (python -m reports.offline) says when it was compiled.
//
// Supported: fragment<matrix_a | matrix_b | accumulator, M, N, K, T, row_major | col_major | void>
// with M == N in {16, 32}, fill_fragment, load_matrix_sync, store_matrix_sync, mma_sync,
// synchronize_workgroup; make_vector (non_native_vector_base: N values in order, no padding). Multiplicands are float8_t (e4m3 fnuz) with K a multiple of 32 (16x16)
// or 16 (32x32), or bfloat16_t with K a multiple of 16 (16x16) or 8 (32x32); accumulators that
// mma_sync reads or writes are float. Any element type can be filled, loaded and stored.
//
// Each lane holds its elements in the order the MFMA instruction reads them (NOTE: CDNA3 ISA,
// register layouts of V_MFMA_F32_{16X16X32,32X32X16}_FP8_FP8 and _{16X16X16,32X32X8}_BF16):
//
//   A (M x K), lane l, k-step s, element j:  A[l % M][s*Kstep + (l / M)*Kpack + j]
//   B (K x N), lane l, k-step s, element j:  B[s*Kstep + (l / N)*Kpack + j][l % N]
//   C (M x N), lane l, register i:           C[(i / 4)*(4*64/N) + (l / N)*4 + i % 4][l % N]
//
//   Kstep = the instruction's K, Kpack = Kstep*M/64 elements per lane per step (8 fp8, 4 bf16).
//   e.g. 16x16 accumulator: lanes 0-15 hold rows 0-3, lanes 16-31 rows 4-7, ... column = l % 16.
//
// Plain HIP C++: lane math uses __lane_id(), no shuffles, so the emulator's host build compiles
// it too (its headers define the MFMA builtins).
#pragma once

#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp8.h>

#include <cstdint>

#define ROCWMMA_STANDIN 1

namespace rocwmma {

// ---- tags and types --------------------------------------------------------------------------
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t : uint32_t { mem_row_major, mem_col_major };

using float8_t = __hip_fp8_e4m3_fnuz;
using float8_fnuz_t = __hip_fp8_e4m3_fnuz;
using bfloat16_t = __hip_bfloat16;
using float32_t = float;
using int32_t = ::int32_t;

constexpr uint32_t Constants_AMDGCN_WAVE_SIZE = 64;

namespace detail {

typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef short i16x4 __attribute__((ext_vector_type(4)));

template <typename T> struct is_fp8 { static constexpr bool value = false; };
template <> struct is_fp8<float8_t> { static constexpr bool value = true; };
template <typename T> struct is_bf16 { static constexpr bool value = false; };
template <> struct is_bf16<bfloat16_t> { static constexpr bool value = true; };

// The MFMA instruction behind a multiplicand type and block size: its K per step.
template <typename T, uint32_t M>
struct Instruction {
    static constexpr bool supported = (is_fp8<T>::value || is_bf16<T>::value) && (M == 16 || M == 32);
    static constexpr uint32_t kStep = is_fp8<T>::value ? (M == 16 ? 32 : 16) : (M == 16 ? 16 : 8);
    static constexpr uint32_t kPack = kStep * M / Constants_AMDGCN_WAVE_SIZE;  // per lane per step
};

template <typename Use, uint32_t M, uint32_t N, uint32_t K>
constexpr uint32_t elements_per_lane() {
    if constexpr (__is_same(Use, matrix_a)) return M * K / Constants_AMDGCN_WAVE_SIZE;
    else if constexpr (__is_same(Use, matrix_b)) return K * N / Constants_AMDGCN_WAVE_SIZE;
    else return M * N / Constants_AMDGCN_WAVE_SIZE;
}

__device__ inline uint32_t lane() { return __lane_id() % Constants_AMDGCN_WAVE_SIZE; }

}  // namespace detail

// ---- fragment --------------------------------------------------------------------------------
template <typename MatrixT, uint32_t BlockM, uint32_t BlockN, uint32_t BlockK, typename DataT,
          typename DataLayoutT = void>
class fragment {
    static_assert(__is_same(MatrixT, matrix_a) || __is_same(MatrixT, matrix_b) || __is_same(MatrixT, accumulator),
                  "rocwmma stand-in: the first fragment argument is matrix_a, matrix_b or accumulator");
    static_assert(BlockM == BlockN && (BlockM == 16 || BlockM == 32),
                  "rocwmma stand-in: only 16x16 and 32x32 blocks (BlockM == BlockN) are supported");
    static_assert(__is_same(MatrixT, accumulator) || !__is_same(DataLayoutT, void),
                  "rocwmma stand-in: matrix_a / matrix_b fragments need row_major or col_major");
    static_assert(detail::elements_per_lane<MatrixT, BlockM, BlockN, BlockK>() > 0,
                  "rocwmma stand-in: the block does not divide over 64 lanes");

  public:
    using Use = MatrixT;
    using Type = DataT;
    using Layout = DataLayoutT;
    static constexpr uint32_t num_elements = detail::elements_per_lane<MatrixT, BlockM, BlockN, BlockK>();

    __host__ __device__ DataT& operator[](uint32_t index) { return x[index]; }
    __host__ __device__ const DataT& operator[](uint32_t index) const { return x[index]; }
    __host__ __device__ static constexpr uint32_t size() { return num_elements; }
    __host__ __device__ static constexpr uint32_t height() { return __is_same(MatrixT, matrix_b) ? BlockK : BlockM; }
    __host__ __device__ static constexpr uint32_t width() { return __is_same(MatrixT, matrix_a) ? BlockK : BlockN; }
    __host__ __device__ static constexpr uint32_t blockDim() { return __is_same(MatrixT, matrix_b) ? BlockN : BlockM; }
    __host__ __device__ static constexpr uint32_t kDim() { return __is_same(MatrixT, accumulator) ? BlockN : BlockK; }

    // The packed registers the MFMA instruction reads (a native vector, as rocWMMA's StorageT)
    // and the elements are one storage: loads fill the registers a dword at a time and mma_sync
    // hands them to the instruction, so no per-element packing reaches the machine code.
    typedef uint32_t Registers __attribute__((ext_vector_type((sizeof(DataT) * num_elements + 3) / 4)));
    union {
        Registers registers;
        DataT x[num_elements];
    };
};

namespace detail {

// (row, column) of a fragment's element `index` in lane `l`; see the layout table at the top.
template <typename Use, uint32_t M, uint32_t N, uint32_t K, typename T>
__host__ __device__ inline void coordinate(uint32_t l, uint32_t index, uint32_t& row, uint32_t& col) {
    if constexpr (__is_same(Use, accumulator)) {
        row = (index / 4) * (4 * Constants_AMDGCN_WAVE_SIZE / N) + (l / N) * 4 + index % 4;
        col = l % N;
    } else {
        using I = Instruction<T, M>;
        static_assert(I::supported, "rocwmma stand-in: multiplicands are float8_t or bfloat16_t");
        static_assert(K % I::kStep == 0, "rocwmma stand-in: BlockK must be a multiple of the MFMA's K "
                                         "(fp8: 32 for 16x16, 16 for 32x32; bf16: 16 for 16x16, 8 for 32x32)");
        const uint32_t k = (index / I::kPack) * I::kStep + (l / M) * I::kPack + index % I::kPack;
        if constexpr (__is_same(Use, matrix_a)) {
            row = l % M;
            col = k;
        } else {
            row = k;
            col = l % N;
        }
    }
}

template <typename Layout>
__host__ __device__ inline uint64_t offset(uint32_t row, uint32_t col, uint32_t ldm) {
    return __is_same(Layout, row_major) ? uint64_t(row) * ldm + col : uint64_t(col) * ldm + row;
}

}  // namespace detail

// ---- fill, load, store -----------------------------------------------------------------------
template <typename MatrixT, uint32_t M, uint32_t N, uint32_t K, typename DataT, typename Layout, typename ValueT>
__device__ inline void fill_fragment(fragment<MatrixT, M, N, K, DataT, Layout>& frag, ValueT value) {
    const DataT filled = static_cast<DataT>(value);
    for (uint32_t i = 0; i < frag.num_elements; ++i) frag.x[i] = filled;
}

template <typename MatrixT, uint32_t M, uint32_t N, uint32_t K, typename DataT, typename Layout>
__device__ inline void load_matrix_sync(fragment<MatrixT, M, N, K, DataT, Layout>& frag, const DataT* data,
                                        uint32_t ldm) {
    static_assert(!__is_same(Layout, void), "rocwmma stand-in: an accumulator load needs a layout_t argument");
    const uint32_t l = detail::lane();
    // A multiplicand whose layout runs along K holds each MFMA step's elements contiguously in
    // memory: they are loaded as dwords (their address must be 4-byte aligned), as rocWMMA loads
    // vectors. Any other layout is gathered element by element.
    constexpr bool along_k = (__is_same(MatrixT, matrix_a) && __is_same(Layout, row_major)) ||
                             (__is_same(MatrixT, matrix_b) && __is_same(Layout, col_major));
    if constexpr (along_k && detail::Instruction<DataT, M>::supported &&
                  detail::Instruction<DataT, M>::kPack * sizeof(DataT) % 4 == 0) {
        constexpr uint32_t run = detail::Instruction<DataT, M>::kPack, words = run * sizeof(DataT) / 4;
        for (uint32_t i = 0; i < frag.num_elements; i += run) {
            uint32_t row, col;
            detail::coordinate<MatrixT, M, N, K, DataT>(l, i, row, col);
            const auto* from = reinterpret_cast<const uint32_t*>(data + detail::offset<Layout>(row, col, ldm));
            for (uint32_t w = 0; w < words; ++w) frag.registers[i * sizeof(DataT) / 4 + w] = from[w];
        }
    } else {
        for (uint32_t i = 0; i < frag.num_elements; ++i) {
            uint32_t row, col;
            detail::coordinate<MatrixT, M, N, K, DataT>(l, i, row, col);
            frag.x[i] = data[detail::offset<Layout>(row, col, ldm)];
        }
    }
}

template <uint32_t M, uint32_t N, uint32_t K, typename DataT>
__device__ inline void load_matrix_sync(fragment<accumulator, M, N, K, DataT>& frag, const DataT* data, uint32_t ldm,
                                        layout_t layout) {
    const uint32_t l = detail::lane();
    for (uint32_t i = 0; i < frag.num_elements; ++i) {
        uint32_t row, col;
        detail::coordinate<accumulator, M, N, K, DataT>(l, i, row, col);
        frag.x[i] = data[layout == mem_row_major ? detail::offset<row_major>(row, col, ldm)
                                                 : detail::offset<col_major>(row, col, ldm)];
    }
}

template <typename MatrixT, uint32_t M, uint32_t N, uint32_t K, typename DataT, typename Layout>
__device__ inline void store_matrix_sync(DataT* data, const fragment<MatrixT, M, N, K, DataT, Layout>& frag,
                                         uint32_t ldm) {
    static_assert(!__is_same(Layout, void), "rocwmma stand-in: an accumulator store needs a layout_t argument");
    const uint32_t l = detail::lane();
    for (uint32_t i = 0; i < frag.num_elements; ++i) {
        uint32_t row, col;
        detail::coordinate<MatrixT, M, N, K, DataT>(l, i, row, col);
        data[detail::offset<Layout>(row, col, ldm)] = frag.x[i];
    }
}

template <uint32_t M, uint32_t N, uint32_t K, typename DataT>
__device__ inline void store_matrix_sync(DataT* data, const fragment<accumulator, M, N, K, DataT>& frag, uint32_t ldm,
                                         layout_t layout) {
    const uint32_t l = detail::lane();
    for (uint32_t i = 0; i < frag.num_elements; ++i) {
        uint32_t row, col;
        detail::coordinate<accumulator, M, N, K, DataT>(l, i, row, col);
        data[layout == mem_row_major ? detail::offset<row_major>(row, col, ldm)
                                     : detail::offset<col_major>(row, col, ldm)] = frag.x[i];
    }
}

// ---- mma -------------------------------------------------------------------------------------
namespace detail {

template <uint32_t M> struct AccumulatorOf { using type = f32x16; };
template <> struct AccumulatorOf<16> { using type = f32x4; };
template <uint32_t M>
using Accumulator = typename AccumulatorOf<M>::type;

// One MFMA step on each lane's two registers of A (a0, a1) and of B (b0, b1): 8 fp8 codes or 4
// bf16 values, element 0 in the low bits of the first register.
template <uint32_t M, typename T>
__device__ inline Accumulator<M> mfma_step(uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1, Accumulator<M> c) {
    const uint64_t pa = uint64_t(a0) | uint64_t(a1) << 32, pb = uint64_t(b0) | uint64_t(b1) << 32;
    if constexpr (is_fp8<T>::value) {
        if constexpr (M == 16) return __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(long(pa), long(pb), c, 0, 0, 0);
        else return __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(long(pa), long(pb), c, 0, 0, 0);
    } else {
        const i16x4 va = __builtin_bit_cast(i16x4, pa), vb = __builtin_bit_cast(i16x4, pb);
        if constexpr (M == 16) return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(va, vb, c, 0, 0, 0);
        else return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(va, vb, c, 0, 0, 0);
    }
}

}  // namespace detail

template <uint32_t M, uint32_t N, uint32_t K, typename InputT, typename LayoutA, typename LayoutB, typename LayoutC,
          typename LayoutD>
__device__ inline void mma_sync(fragment<accumulator, M, N, K, float, LayoutD>& d,
                                const fragment<matrix_a, M, N, K, InputT, LayoutA>& a,
                                const fragment<matrix_b, M, N, K, InputT, LayoutB>& b,
                                const fragment<accumulator, M, N, K, float, LayoutC>& c) {
    using I = detail::Instruction<InputT, M>;
    static_assert(I::supported, "rocwmma stand-in: mma_sync multiplies float8_t or bfloat16_t into float");
    static_assert(K % I::kStep == 0, "rocwmma stand-in: BlockK must be a multiple of the MFMA's K");
    detail::Accumulator<M> acc;
    for (uint32_t i = 0; i < d.num_elements; ++i) acc[i] = c.x[i];
    for (uint32_t s = 0; s < K / I::kStep; ++s)
        acc = detail::mfma_step<M, InputT>(a.registers[2 * s], a.registers[2 * s + 1], b.registers[2 * s],
                                           b.registers[2 * s + 1], acc);
    for (uint32_t i = 0; i < d.num_elements; ++i) d.x[i] = acc[i];
}

__device__ inline void synchronize_workgroup() { __syncthreads(); }

// ---- vectors ---------------------------------------------------------------------------------
// rocWMMA's vector of any element type: Rank values stored in order, element-wise arithmetic.
template <typename T, unsigned int Rank>
struct non_native_vector_base {
    __host__ __device__ static constexpr uint32_t size() { return Rank; }
    __host__ __device__ constexpr T& operator[](unsigned int i) { return d[i]; }
    __host__ __device__ constexpr T operator[](unsigned int i) const { return d[i]; }
#define ROCWMMA_STANDIN_ELEMENTWISE(op)                                                          \
    __host__ __device__ constexpr non_native_vector_base& operator op##=(const non_native_vector_base& o) { \
        for (unsigned int i = 0; i < Rank; ++i) d[i] = d[i] op o.d[i];                              \
        return *this;                                                                               \
    }                                                                                               \
    __host__ __device__ constexpr non_native_vector_base operator op(const non_native_vector_base& o) const { \
        non_native_vector_base out = *this;                                                         \
        return out op##= o;                                                                         \
    }
    ROCWMMA_STANDIN_ELEMENTWISE(+)
    ROCWMMA_STANDIN_ELEMENTWISE(-)
    ROCWMMA_STANDIN_ELEMENTWISE(*)
    ROCWMMA_STANDIN_ELEMENTWISE(/)
#undef ROCWMMA_STANDIN_ELEMENTWISE

    T d[Rank];
};

// make_vector(a, b, ...): its arguments, all of one type, as one vector.
template <typename T, typename... Ts>
__host__ __device__ constexpr auto make_vector(T first, Ts... rest) {
    static_assert((__is_same(T, Ts) && ...), "rocwmma::make_vector: vector arguments must all be the same type");
    return non_native_vector_base<T, 1 + sizeof...(Ts)>{{first, rest...}};
}

}  // namespace rocwmma
