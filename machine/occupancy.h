// How many workgroups of a kernel one MI300X CU holds at once: the one occupancy rule of the
// project. The ISA engine's timing model includes it; the offline report and the simulated
// host call it through occupancy.cpp's C entry point (machine/__init__.py).
//
// A wave holds the kernel descriptor's unified VGPR allocation (arch VGPRs and AGPRs
// together, in granules of 8, out of 512 per lane per SIMD) and its SGPRs; a SIMD holds at most
// 8 waves. A workgroup's waves all live on one CU, spread over its 4 SIMDs, and it is resident
// whole or not at all; each workgroup of more than one wave takes one of the CU's 16 barriers;
// LDS is allocated per workgroup in 512-byte granules out of 64 KiB.
#pragma once
#include <algorithm>
#include <cstdint>

#include "mi300x.h"

namespace machine {

enum Limiter : uint32_t {
  kWaveSlots = 0,  // 8 waves per SIMD
  kVgprs = 1,
  kSgprs = 2,
  kLds = 3,
  kBarriers = 4,
  kLimiterCount = 5,
};
inline const char* limiter_name(uint32_t l) {
  static const char* const names[kLimiterCount] = {"wave slots", "VGPRs", "SGPRs", "LDS", "barriers"};
  return l < kLimiterCount ? names[l] : "?";
}

struct Occupancy {
  uint32_t workgroups_per_cu = 0;  // 0: the workgroup cannot launch
  uint32_t waves_per_simd = 0;     // resident waves on the busiest SIMD at that many workgroups
  uint32_t limiter = kWaveSlots;   // what stopped one more workgroup
};

// `unified_vgprs`: registers per lane of one wave as the kernel descriptor allocates them
// ((GRANULATED_WORKITEM_VGPR_COUNT + 1) * 8 on gfx942: AGPRs included).
inline Occupancy occupancy(uint32_t unified_vgprs, uint32_t sgprs, uint32_t lds_bytes, uint32_t workgroup_size) {
  auto round_up = [](uint32_t v, uint32_t g) { return (v + g - 1) / g * g; };
  const uint32_t waves = std::max<uint32_t>(1, (workgroup_size + kWaveSize - 1) / kWaveSize);
  const uint32_t vgprs = round_up(std::max<uint32_t>(unified_vgprs, 1), kVgprGranule);
  const uint32_t by_vgprs = std::min(kMaxWavesPerSimd, kVgprsPerLane / vgprs);
  const uint32_t by_sgprs = sgprs <= kSgprsFullOccupancy ? kMaxWavesPerSimd : kWavesPerSimdAboveSgprLimit;
  const uint32_t per_simd = std::min(by_vgprs, by_sgprs);
  Occupancy o;
  // Wave slots of the whole CU; a workgroup's waves go to whichever SIMDs have room.
  uint32_t groups = per_simd * kSimdsPerCu / waves;
  o.limiter = by_vgprs < kMaxWavesPerSimd || by_sgprs < kMaxWavesPerSimd
                  ? (by_vgprs <= by_sgprs ? kVgprs : kSgprs)
                  : kWaveSlots;
  if (waves > 1 && groups > kMaxBarriersPerCu) {
    groups = kMaxBarriersPerCu;
    o.limiter = kBarriers;
  }
  if (lds_bytes > kLdsBytesPerCu) {
    groups = 0;
    o.limiter = kLds;
  } else if (lds_bytes > 0) {
    const uint32_t by_lds = kLdsBytesPerCu / round_up(lds_bytes, kLdsGranule);
    if (by_lds < groups) {
      groups = by_lds;
      o.limiter = kLds;
    }
  }
  o.workgroups_per_cu = groups;
  o.waves_per_simd = (groups * waves + kSimdsPerCu - 1) / kSimdsPerCu;
  return o;
}

}  // namespace machine
