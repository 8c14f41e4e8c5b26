// <hip/amd_detail/amd_warp_sync_functions.h> for Debian's HIP 5.2, which lacks it: the warp
// functions with a lane mask that HIP 6.3 declares when HIP_ENABLE_WARP_SYNC_BUILTINS is defined
// (torch's ROCm build defines it for every extension, so the runner has them). Written for this
// project from HIP's documented API, on top of 5.2's mask-less warp functions.
//
// NOTE: as in HIP 6.3, the mask must be a 64-bit integer (a wave is 64 lanes on gfx942); a
// 32-bit mask such as CUDA's 0xffffffff stops the compile. Each lane's mask must name the lanes
// that execute the call with it; the value of the call is the mask-less function's, with
// ballots and votes restricted to the mask.
#pragma once

#include <hip/hip_runtime.h>

#if defined(HIP_ENABLE_WARP_SYNC_BUILTINS) && !defined(ISA_WARP_SYNC_FUNCTIONS)
#define ISA_WARP_SYNC_FUNCTIONS 1

#define ISA_CHECK_WARP_MASK(MaskT)                                                                \
    static_assert(sizeof(MaskT) == 8, "The mask must be a 64-bit integer (64 lanes on gfx942): " \
                                      "HIP 6.3 *_sync warp functions")

template <typename MaskT>
__device__ inline unsigned long long __ballot_sync(MaskT mask, int predicate) {
    ISA_CHECK_WARP_MASK(MaskT);
    return __ballot(predicate) & static_cast<unsigned long long>(mask);
}

template <typename MaskT>
__device__ inline int __all_sync(MaskT mask, int predicate) {
    ISA_CHECK_WARP_MASK(MaskT);
    return __ballot_sync(mask, predicate) == (static_cast<unsigned long long>(mask) & __ballot(1));
}

template <typename MaskT>
__device__ inline int __any_sync(MaskT mask, int predicate) {
    ISA_CHECK_WARP_MASK(MaskT);
    return __ballot_sync(mask, predicate) != 0;
}

template <typename MaskT, typename T>
__device__ inline T __shfl_sync(MaskT mask, T var, int src_lane, int width = warpSize) {
    ISA_CHECK_WARP_MASK(MaskT);
    return __shfl(var, src_lane, width);
}

template <typename MaskT, typename T>
__device__ inline T __shfl_up_sync(MaskT mask, T var, unsigned int delta, int width = warpSize) {
    ISA_CHECK_WARP_MASK(MaskT);
    return __shfl_up(var, delta, width);
}

template <typename MaskT, typename T>
__device__ inline T __shfl_down_sync(MaskT mask, T var, unsigned int delta, int width = warpSize) {
    ISA_CHECK_WARP_MASK(MaskT);
    return __shfl_down(var, delta, width);
}

template <typename MaskT, typename T>
__device__ inline T __shfl_xor_sync(MaskT mask, T var, int lane_mask, int width = warpSize) {
    ISA_CHECK_WARP_MASK(MaskT);
    return __shfl_xor(var, lane_mask, width);
}

// The lanes (among the active ones) whose `value` equals this lane's.
template <typename T>
__device__ inline unsigned long long __match_any(T value) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_any compares 32- or 64-bit values");
    unsigned long long left = __ballot(1), same = 0;
    while (left) {
        const int lane = __builtin_ctzll(left);
        const T first = __shfl(value, lane);
        const unsigned long long group = __ballot(value == first) & left;
        if (value == first) same = group;
        left &= ~group;
    }
    return same;
}

template <typename MaskT, typename T>
__device__ inline unsigned long long __match_any_sync(MaskT mask, T value) {
    ISA_CHECK_WARP_MASK(MaskT);
    return __match_any(value) & static_cast<unsigned long long>(mask);
}

// All active lanes when every one holds the same `value` (and *pred = 1), else 0 (*pred = 0).
template <typename T>
__device__ inline unsigned long long __match_all(T value, int* pred) {
    const unsigned long long active = __ballot(1);
    const bool all = __match_any(value) == active;
    *pred = all;
    return all ? active : 0;
}

template <typename MaskT, typename T>
__device__ inline unsigned long long __match_all_sync(MaskT mask, T value, int* pred) {
    ISA_CHECK_WARP_MASK(MaskT);
    const unsigned long long same = __match_any(value) & static_cast<unsigned long long>(mask);
    *pred = same == static_cast<unsigned long long>(mask);
    return *pred ? same : 0;
}

#undef ISA_CHECK_WARP_MASK
#endif
