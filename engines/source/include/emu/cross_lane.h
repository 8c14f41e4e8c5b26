// Cross-lane operations of a wave64: each is a meeting of the wave's lanes (scheduler.h);
// compute() sees every lane's operands and the EXEC mask (the lanes that arrived).
// Semantics: the project's gfx942 semantics notes (shared spec, gfx942_semantics.md) §3.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

#include "emu/engine.h"

namespace emu {

inline bool lane_on(uint64_t exec, unsigned l) { return (exec >> l) & 1; }

// Every active lane receives the same value (readlane, readfirstlane, ballot).
inline void broadcast(uint64_t* out, uint64_t exec, uint64_t value) {
  for (int l = 0; l < 64; ++l)
    if (lane_on(exec, l)) out[l] = value;
}

// Constant/wave-uniform builtin arguments: every active lane must pass the same value.
template <class In, class F>
auto uniform(const In* in, uint64_t exec, const char* op, const char* what, F field) {
  unsigned first = __builtin_ctzll(exec);
  auto value = field(in[first]);
  for (unsigned l = first + 1; l < 64; ++l)
    if (lane_on(exec, l) && !(field(in[l]) == value))
      throw Error(std::string(op) + ": argument '" + what + "' differs between lanes " + std::to_string(first) +
                  " and " + std::to_string(l) + "; it must be wave-uniform");
  return value;
}

// ---- DPP (§3.1) -----------------------------------------------------------------------------

// Source lane of destination lane l for a gfx942 dpp_ctrl, or -1 when the source is invalid.
inline int dpp_source_lane(unsigned ctrl, int l) {
  int row = l & ~15, o = l & 15;
  if (ctrl <= 0xFF) return (l & ~3) | int((ctrl >> (2 * (l & 3))) & 3);
  unsigned n = ctrl & 15;
  if (ctrl >= 0x101 && ctrl <= 0x10F) return o + int(n) > 15 ? -1 : l + int(n);
  if (ctrl >= 0x111 && ctrl <= 0x11F) return o - int(n) < 0 ? -1 : l - int(n);
  if (ctrl >= 0x121 && ctrl <= 0x12F) return row | ((o - int(n)) & 15);
  if (ctrl >= 0x150 && ctrl <= 0x15F) return row | int(n);
  switch (ctrl) {
    case 0x130: return l == 63 ? -1 : l + 1;
    case 0x134: return (l + 1) & 63;
    case 0x138: return l == 0 ? -1 : l - 1;
    case 0x13C: return (l - 1) & 63;
    case 0x140: return row | (15 - o);
    case 0x141: return (l & ~7) | (7 - (l & 7));
    case 0x142: return l < 16 ? -1 : row - 1;
    case 0x143: return l < 32 ? -1 : 31;
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%X", ctrl);
  throw Error(std::string("DPP: dpp_ctrl ") + hex + " is not valid on gfx942");
}

// NOTE: mov_dpp's "old" is the destination register's previous content, which is undefined;
// the emulator returns this poison so kernels relying on it fail visibly.
constexpr int kDppPoison = int(0xFFFFFFFF);

struct DppOp {
  static constexpr const char* name = "__builtin_amdgcn_update_dpp/mov_dpp";
  struct In {
    int old, src, ctrl, row_mask, bank_mask;
    bool bound_ctrl;
  };
  using Out = int;
  static void compute(const In* in, Out* out, uint64_t exec, Wave&) {
    auto ctrl = uniform(in, exec, name, "dpp_ctrl", [](const In& x) { return x.ctrl; });
    auto row_mask = uniform(in, exec, name, "row_mask", [](const In& x) { return x.row_mask; });
    auto bank_mask = uniform(in, exec, name, "bank_mask", [](const In& x) { return x.bank_mask; });
    auto bound = uniform(in, exec, name, "bound_ctrl", [](const In& x) { return x.bound_ctrl; });
    for (int l = 0; l < 64; ++l) {
      if (!lane_on(exec, l)) continue;
      if (!((row_mask >> (l / 16)) & 1) || !((bank_mask >> ((l / 4) % 4)) & 1)) {
        out[l] = in[l].old;
        continue;
      }
      int s = dpp_source_lane(unsigned(ctrl), l);
      out[l] = (s < 0 || !lane_on(exec, unsigned(s))) ? (bound ? 0 : in[l].old) : in[s].src;
    }
  }
};

// ---- ds_swizzle (§3.2) ----------------------------------------------------------------------

inline int swizzle_source_lane(unsigned pattern, int l) {
  if (!(pattern & 0x8000)) {
    int and_mask = pattern & 0x1F, or_mask = (pattern >> 5) & 0x1F, xor_mask = (pattern >> 10) & 0x1F;
    return (l & 0x20) | (((l & and_mask) | or_mask) ^ xor_mask);
  }
  if ((pattern >> 8) == 0x80) return (l & ~3) | int((pattern >> (2 * (l & 3))) & 3);
  if ((pattern >> 12) == 0xC) {
    int mask = pattern & 0x1F, n = (pattern >> 5) & 0x1F;
    bool right = (pattern >> 10) & 1;
    return (l & 0x20) | (l & mask) | (((l & ~mask) + (right ? -n : n)) & ~mask & 0x1F);
  }
  if ((pattern >> 12) == 0xE) throw Error("ds_swizzle: FFT mode (offset 0xE...) is not supported by the emulator");
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%X", pattern);
  throw Error(std::string("ds_swizzle: offset ") + hex + " is not a valid swizzle pattern");
}

struct SwizzleOp {
  static constexpr const char* name = "__builtin_amdgcn_ds_swizzle";
  struct In {
    int data, pattern;
  };
  using Out = int;
  static void compute(const In* in, Out* out, uint64_t exec, Wave&) {
    auto pattern = uniform(in, exec, name, "pattern", [](const In& x) { return x.pattern; });
    for (int l = 0; l < 64; ++l) {
      if (!lane_on(exec, l)) continue;
      int s = swizzle_source_lane(unsigned(pattern) & 0xFFFF, l);
      out[l] = lane_on(exec, unsigned(s)) ? in[s].data : 0;  // NOTE: inactive source reads 0
    }
  }
};

// ---- ds_bpermute / ds_permute (§3.3), 8-byte payload so __shfl of 64-bit types is one op ------

struct BpermuteOp {
  static constexpr const char* name = "ds_bpermute (__shfl*)";
  struct In {
    int addr;
    uint64_t data;
  };
  using Out = uint64_t;
  static void compute(const In* in, Out* out, uint64_t exec, Wave&) {
    for (int l = 0; l < 64; ++l) {
      if (!lane_on(exec, l)) continue;
      unsigned s = (unsigned(in[l].addr) >> 2) & 63;
      out[l] = lane_on(exec, s) ? in[s].data : 0;
    }
  }
};

struct PermuteOp {
  static constexpr const char* name = "__builtin_amdgcn_ds_permute";
  struct In {
    int addr, data;
  };
  using Out = int;
  static void compute(const In* in, Out* out, uint64_t exec, Wave&) {
    int pushed[64] = {};
    for (int s = 0; s < 64; ++s)  // ascending: with several writers the highest lane wins
      if (lane_on(exec, s)) pushed[(unsigned(in[s].addr) >> 2) & 63] = in[s].data;
    for (int l = 0; l < 64; ++l)
      if (lane_on(exec, l)) out[l] = pushed[l];
  }
};

// ---- readlane / readfirstlane / votes (§3.4) ----------------------------------------------

struct ReadlaneOp {
  static constexpr const char* name = "__builtin_amdgcn_readlane";
  struct In {
    uint64_t value;
    int lane;
  };
  using Out = uint64_t;
  static void compute(const In* in, Out* out, uint64_t exec, Wave& w) {
    unsigned src = unsigned(uniform(in, exec, name, "lane", [](const In& x) { return x.lane; })) & 63;
    // NOTE: readlane ignores EXEC; a lane that has ended has no defined register content.
    broadcast(out, exec, lane_on(w.live, src) ? in[src].value : 0);
  }
};

struct ReadfirstlaneOp {
  static constexpr const char* name = "__builtin_amdgcn_readfirstlane";
  using In = uint64_t;
  using Out = uint64_t;
  static void compute(const In* in, Out* out, uint64_t exec, Wave&) {
    broadcast(out, exec, in[__builtin_ctzll(exec)]);
  }
};

struct BallotOp {
  static constexpr const char* name = "ballot (__ballot/__any/__all/icmp/fcmp/read_exec)";
  using In = bool;
  using Out = uint64_t;
  static void compute(const In* in, Out* out, uint64_t exec, Wave&) {
    uint64_t mask = 0;
    for (int l = 0; l < 64; ++l)
      if (lane_on(exec, l) && in[l]) mask |= uint64_t(1) << l;
    broadcast(out, exec, mask);
  }
};

// A wave-level sync point with no data (wave_barrier, __syncwarp): lanes of a wave run one
// after another between meetings, so this is where a wave's LDS writes become visible to its
// other lanes in hardware's lockstep order.
struct WaveSyncOp {
  static constexpr const char* name = "wave barrier";
  using In = char;
  using Out = char;
  static void compute(const In*, Out*, uint64_t, Wave&) {}
};

// ---- global_load_lds (§4.3) -----------------------------------------------------------------

struct GlobalLoadLdsOp {
  static constexpr const char* name = "__builtin_amdgcn_global_load_lds";
  struct In {
    const unsigned char* src;
    unsigned char* lds;
    unsigned size;
    int offset;
  };
  using Out = char;
  static void compute(const In* in, Out*, uint64_t exec, Wave&) {
    auto* lds = uniform(in, exec, name, "lds_base", [](const In& x) { return x.lds; });
    auto size = uniform(in, exec, name, "size", [](const In& x) { return x.size; });
    auto offset = uniform(in, exec, name, "offset", [](const In& x) { return x.offset; });
    if (size != 1 && size != 2 && size != 4) throw Error("global_load_lds: size must be 1, 2 or 4 on gfx942");
    // NOTE: LDS address = lds_base + offset + 4*lane (a dword slot per lane, also for size < 4).
    for (int l = 0; l < 64; ++l)
      if (lane_on(exec, l)) std::memcpy(lds + offset + 4 * l, in[l].src + offset, size);
  }
};

}  // namespace emu
