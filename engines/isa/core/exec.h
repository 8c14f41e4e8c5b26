// The executor's state and operand access, shared by its files: exec.cpp runs a wave one
// wave64 instruction at a time over the pre-decoded instruction array and dispatches on the
// encoding; each encoding family's semantics live in a file of their own:
//   exec_scalar.cpp   SOP1 / SOP2 / SOPC / SOPK (SALU), SMEM, s_waitcnt
//   exec_memory.cpp   FLAT / GLOBAL / SCRATCH / MUBUF, global and scratch address checks
//   exec_lds.cpp      DS, LDS address and race checks
//   exec_vector.cpp   VOP1 / VOP2 / VOP3 (VALU)
//   exec_packed.cpp   VOP3P (packed math)
//   exec_compare.cpp  VOPC
// Semantics follow the CDNA3 ISA guide; vector ops compute all 64 lanes and write the lanes
// EXEC (and DPP/SDWA) allow.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "numeric.h"
#include "wave.h"

namespace isa::detail {

// Every lane of the wave (l = 0..63): the loop the vector semantics are written in.
#define LANES for (int l = 0; l < 64; ++l)

struct Src {
  const uint32_t* p;
  uint32_t k;
  uint32_t operator[](int l) const { return p ? p[l] : k; }
};
struct Src64 {
  const uint32_t* lo;
  const uint32_t* hi;
  uint64_t k;
  uint64_t operator[](int l) const { return lo ? (uint64_t(hi[l]) << 32) | lo[l] : k; }
};

inline uint32_t float_const(uint16_t code, FKind fk, bool hi64) {
  static const float f32[] = {0.5f, -0.5f, 1.0f, -1.0f, 2.0f, -2.0f, 4.0f, -4.0f, 0.15915494f};
  static const double f64[] = {0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 0.15915494309189532};
  static const uint16_t f16[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118};
  int i = code - 240;
  if (fk == K_F64 || hi64) {
    uint64_t b = i == 8 ? 0x3fc45f306dc9c882ull : as_u64(f64[i]);
    return hi64 ? uint32_t(b >> 32) : uint32_t(b);
  }
  if (fk == K_F16) return f16[i];
  return i == 8 ? 0x3e22f983u : as_u(f32[i]);
}
struct Exec {
  Wave& w;
  Workgroup& g;
  const Launch& L;
  const Inst* in = nullptr;
  uint32_t tmp[4][64];
  uint32_t tmp_hi[3][64];
  uint64_t write_mask = 0;  // EXEC & DPP lane enables
  uint8_t outside[64];      // a load's bytes outside every allocation or the LDS (zeros past them)
  uint8_t dropped[64];      // where a store past the workgroup's LDS goes
  // LDS bytes this instruction writes over another wave's value or read: whether that was a
  // race depends on the value written (settle_lds_writes, after the instruction).
  struct ContestedByte { uint32_t addr; uint8_t old; uint16_t writers, readers; };
  std::vector<ContestedByte> contested;

  Exec(Wave& w_, Workgroup& g_, const Launch& L_) : w(w_), g(g_), L(L_) {}

  [[noreturn]] void die(const std::string& what) { fault(L, *in, what); }
  void warn(const char* kind, const std::string& what) { diagnose(L, *in, kind, what); }

  // ---- waitcnt checks ---------------------------------------------------------------------
  void check_pending(uint32_t tag, const char* reg, int index) {
    const bool lgkm = tag >> 31, smem = (tag >> 30) & 1;
    const uint32_t issue = tag & 0x3fffffffu;
    const uint32_t done = smem ? w.smem_done : lgkm ? w.lgkm_done : w.vm_done;
    if (int32_t(issue - done) > 0) {
      std::ostringstream os;
      os << "missing s_waitcnt: " << reg << index << " is read while its "
         << (smem ? "scalar (lgkmcnt, complete only at lgkmcnt(0))" : lgkm ? "lgkmcnt" : "vmcnt")
         << " load is outstanding (here it has landed; on the GPU it may not have)";
      warn("missing s_waitcnt", os.str());
    }
  }
  void check_v(uint16_t code, int n) {
    if (!w.pending()) return;
    for (int k = 0; k < n; ++k) {
      uint32_t r = code - 256 + k;
      if (r < 512 && w.vpend[r]) {
        check_pending(w.vpend[r], r >= 256 ? "a" : "v", int(r >= 256 ? r - 256 : r));
        w.vpend[r] = 0;
      }
    }
  }
  void check_s(uint16_t code, int n) {
    if (!w.pending()) return;
    for (int k = 0; k < n; ++k) {
      uint32_t r = code + k;
      if (r < 128 && w.spend[r]) {
        check_pending(w.spend[r], "s", int(r));
        w.spend[r] = 0;
      }
    }
  }
  void mark_v(uint16_t code, int n, uint32_t tag) {
    for (int k = 0; k < n; ++k)
      if (code - 256 + k < 512) w.vpend[code - 256 + k] = tag;
  }

  // ---- scalar operands --------------------------------------------------------------------
  uint32_t sread(uint16_t code, FKind fk = K_INT) {
    if (code < 128) {
      check_s(code, 1);
      return w.s[code];
    }
    if (code <= 192) return code - 128;
    if (code <= 208) return uint32_t(-(int32_t(code) - 192));
    if (code >= 240 && code <= 248) return float_const(code, fk, false);
    switch (code) {
      case 255: return in->literal;
      case 251: return (w.s[kVcc] | w.s[kVcc + 1]) == 0;
      case 252: return w.exec() == 0;
      case 253: return w.scc;
      case 235: return 0;                       // src_shared_base (low dword)
      case 236: return 0xffffffffu;             // src_shared_limit
      case 237: return 0;                       // src_private_base
      case 238: return 0xffffffffu;
      case 239: return 0;                       // src_pops_exiting_wave_id
      default: die("unsupported scalar operand " + std::to_string(code));
    }
  }
  uint64_t sread64(uint16_t code, FKind fk = K_INT) {
    if (code < 128) {
      check_s(code, 2);
      return uint64_t(w.s[code]) | (uint64_t(w.s[code + 1]) << 32);
    }
    if (code <= 192) return code - 128;
    if (code <= 208) return uint64_t(-(int64_t(code) - 192));
    if (code >= 240 && code <= 248) {
      if (fk == K_F64 || fk == K_INT) return (uint64_t(float_const(code, K_F64, true)) << 32) | float_const(code, K_F64, false);
      return float_const(code, fk, false);
    }
    switch (code) {
      case 255: return fk == K_F64 ? uint64_t(in->literal) << 32 : uint64_t(int64_t(int32_t(in->literal)));
      case 235: return uint64_t(kSharedApertureHi) << 32;
      case 236: return (uint64_t(kSharedApertureHi) << 32) | 0xffffffffu;
      case 237: return uint64_t(kPrivateApertureHi) << 32;
      case 238: return (uint64_t(kPrivateApertureHi) << 32) | 0xffffffffu;
      default: return sread(code, fk);
    }
  }
  void swrite(uint16_t code, uint32_t v) {
    if (code < 128) {
      w.s[code] = v;
      w.spend[code] = 0;
    }
  }
  void swrite64(uint16_t code, uint64_t v) {
    swrite(code, uint32_t(v));
    swrite(uint16_t(code + 1), uint32_t(v >> 32));
  }

  // ---- vector operands --------------------------------------------------------------------
  void apply_mods32(uint32_t* t, int i, FKind fk) {
    const bool a = (in->abs >> i) & 1, n = (in->neg >> i) & 1;
    if (!a && !n) return;
    const uint32_t bit = fk == K_F16 ? 0x8000u : 0x80000000u;
    if (fk == K_INT) return;
    LANES {
      uint32_t x = t[l];
      if (a) x &= ~bit;
      if (n) x ^= bit;
      t[l] = x;
    }
  }
  Src src(int i) {
    const uint16_t code = in->src[i];
    FKind fk = FKind(in->fk);
    const bool mods = ((in->abs | in->neg) >> i) & 1 && fk != K_INT && in->fmt != F_VOP3P;
    if (code >= 256) {
      check_v(code, 1);
      const uint32_t* p = w.v[code - 256];
      if (in->ext == 1 && i == 0) return {dpp(p), 0};
      if (in->ext == 2 && i < 2) return {sdwa(p, 0, i), 0};
      if (!mods) return {p, 0};
      memcpy(tmp[i], p, 256);
      apply_mods32(tmp[i], i, fk);
      return {tmp[i], 0};
    }
    uint32_t k = sread(code, fk);
    if (in->ext == 2 && i < 2) return {sdwa(nullptr, k, i), 0};
    if (!mods) return {nullptr, k};
    LANES tmp[i][l] = k;
    apply_mods32(tmp[i], i, fk);
    return {tmp[i], 0};
  }
  Src64 src64(int i) {
    const uint16_t code = in->src[i];
    const FKind fk = FKind(in->fk);
    const bool mods = ((in->abs | in->neg) >> i) & 1 && fk == K_F64;
    if (code >= 256) {
      check_v(code, 2);
      if (!mods) return {w.v[code - 256], w.v[code - 255], 0};
      memcpy(tmp[i], w.v[code - 256], 256);
      memcpy(tmp_hi[i], w.v[code - 255], 256);
      LANES {
        if ((in->abs >> i) & 1) tmp_hi[i][l] &= 0x7fffffffu;
        if ((in->neg >> i) & 1) tmp_hi[i][l] ^= 0x80000000u;
      }
      return {tmp[i], tmp_hi[i], 0};
    }
    uint64_t k = sread64(code, fk);
    if (mods) {
      if ((in->abs >> i) & 1) k &= ~(1ull << 63);
      if ((in->neg >> i) & 1) k ^= 1ull << 63;
    }
    return {nullptr, nullptr, k};
  }
  // DPP: src0 lanes moved by dpp_ctrl; lanes without a valid source are disabled unless
  // bound_ctrl (then they read 0); row_mask/bank_mask disable whole rows/banks.
  const uint32_t* dpp(const uint32_t* p) {
    const uint16_t c = in->dpp_ctrl;
    const uint64_t exec = w.exec();
    uint64_t enable = 0;
    uint32_t* t = tmp[3];
    LANES {
      int row = l >> 4, in_row = l & 15, s = -1;
      if (c <= 0xff) s = (l & ~3) | ((c >> ((l & 3) * 2)) & 3);
      else if (c >= 0x101 && c <= 0x10f) s = in_row + (c & 15) < 16 ? l + (c & 15) : -1;   // row_shl
      else if (c >= 0x111 && c <= 0x11f) s = in_row - (c & 15) >= 0 ? l - (c & 15) : -1;    // row_shr
      else if (c >= 0x121 && c <= 0x12f) s = (row << 4) | ((in_row - (c & 15)) & 15);       // row_ror
      else if (c == 0x130) s = l + 1 < 64 ? l + 1 : -1;                                      // wave_shl
      else if (c == 0x134) s = (l + 1) & 63;                                                  // wave_rol
      else if (c == 0x138) s = l - 1;                                                         // wave_shr
      else if (c == 0x13c) s = (l + 63) & 63;                                                 // wave_ror
      else if (c == 0x140) s = (row << 4) | (15 - in_row);                                    // row_mirror
      else if (c == 0x141) s = (l & ~7) | (7 - (l & 7));                                      // row_half_mirror
      else if (c == 0x142) s = row > 0 ? row * 16 - 1 : -1;                                 // row_bcast:15
      else if (c == 0x143) s = row >= 2 ? 31 : -1;                                           // row_bcast:31
      else die("unsupported DPP control");
      const bool row_on = (in->row_mask >> row) & 1, bank_on = (in->bank_mask >> ((l >> 2) & 3)) & 1;
      bool valid = s >= 0 && s < 64 && ((exec >> s) & 1);
      if (valid) t[l] = p[s];
      else t[l] = 0;
      if (row_on && bank_on && (valid || in->bound_ctrl)) enable |= 1ull << l;
    }
    write_mask = enable;
    apply_mods32(t, 0, FKind(in->fk));
    return t;
  }
  // SDWA: select a byte/word of the source, zero- or sign-extended.
  const uint32_t* sdwa(const uint32_t* p, uint32_t k, int i) {
    const uint8_t sel = in->src_sel[i];
    const bool sext = in->src_sext[i];
    uint32_t* t = tmp[i];
    LANES {
      uint32_t x = p ? p[l] : k;
      if (sel < 4) x = sext ? uint32_t(int32_t(int8_t(x >> (8 * sel)))) : (x >> (8 * sel)) & 0xff;
      else if (sel < 6) x = sext ? uint32_t(int32_t(int16_t(x >> (16 * (sel - 4))))) : (x >> (16 * (sel - 4))) & 0xffff;
      t[l] = x;
    }
    if (in->fk != K_INT) apply_mods32(t, i, FKind(in->fk));
    return t;
  }

  uint64_t lanes_to_write() {
    uint64_t m = w.exec();
    if (in->ext == 1) m &= write_mask;
    return m;
  }
  void out_mods(uint32_t* r) {
    if (in->dfk != K_F32 || (!in->clamp && !in->omod)) return;
    LANES {
      float f = as_f(r[l]);
      if (in->omod == 1) f *= 2.0f;
      else if (in->omod == 2) f *= 4.0f;
      else if (in->omod == 3) f *= 0.5f;
      if (in->clamp) f = std::isnan(f) ? 0.0f : std::fmin(std::fmax(f, 0.0f), 1.0f);
      r[l] = as_u(f);
    }
  }
  void wv(uint32_t* r) {
    out_mods(r);
    const uint16_t d = in->dst;
    uint32_t* dst = w.v[d - 256];
    w.vpend[d - 256] = 0;
    const uint64_t m = lanes_to_write();
    if (in->ext == 2 && in->dst_sel != 6) {
      const int sel = in->dst_sel;
      const int shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
      const uint32_t mask = (sel < 4 ? 0xffu : 0xffffu) << shift;
      LANES {
        if (!((m >> l) & 1)) continue;
        uint32_t v = (r[l] << shift) & mask;
        if (in->dst_unused == 2) v |= dst[l] & ~mask;
        else if (in->dst_unused == 1 && (v & (mask ^ (mask >> 1)) & mask) && shift + (sel < 4 ? 8 : 16) < 32)
          v |= ~((mask << 1) - 1) & ~mask & 0xffffffffu, v |= 0;
        dst[l] = v;
      }
      return;
    }
    if (m == ~0ull) {
      memcpy(dst, r, 256);
      return;
    }
    LANES if ((m >> l) & 1) dst[l] = r[l];
  }
  void wv64(const uint64_t* r) {
    const uint16_t d = in->dst;
    uint32_t* lo = w.v[d - 256];
    uint32_t* hi = w.v[d - 255];
    w.vpend[d - 256] = w.vpend[d - 255] = 0;
    const uint64_t m = lanes_to_write();
    LANES if ((m >> l) & 1) {
      lo[l] = uint32_t(r[l]);
      hi[l] = uint32_t(r[l] >> 32);
    }
  }
  // Scalar destination of a lane mask (VOPC, carry-out).
  void wmask(uint16_t code, uint64_t v) { swrite64(code, v); }

  // The interpreter loop, and MFMA / SMFMAC (exec.cpp).
  void run(uint64_t budget);
  void mfma();
  // SALU, SMEM and s_waitcnt (exec_scalar.cpp).
  void salu();
  void smem();
  void sopp_waitcnt();
  // FLAT / GLOBAL / SCRATCH / MUBUF and their addresses (exec_memory.cpp).
  void vmem();
  uint8_t* global_ptr(uint64_t addr, uint32_t bytes, bool load);
  uint8_t* load_outside_allocations(uint64_t addr, uint32_t bytes, const Allocation* below);
  uint8_t* scratch_ptr(int lane, uint64_t off, uint32_t bytes);
  // DS and the LDS checks (exec_lds.cpp).
  void ds();
  uint8_t* lds_ptr(uint64_t addr, uint32_t bytes, bool write);
  void settle_lds_writes();
  // VOP1 / VOP2 / VOP3 (exec_vector.cpp): valu offers the instruction to each family in turn;
  // a family returns false for an op that is not its own.
  void valu();
  bool valu_move();     // moves, lane reads and writes, v_cndmask, v_swap
  bool valu_f32();      // f32 arithmetic
  bool valu_int();      // 32- and 16-bit integer and bit operations
  bool valu_64();       // f64 arithmetic and 64-bit shifts
  bool valu_convert();  // conversions and packing
  // VOP3P (exec_packed.cpp) and VOPC (exec_compare.cpp).
  void vop3p();
  void compare();
  // A wave going round one loop kLoopLimit times is waiting for something that never comes:
  // on the GPU, other workgroups (a stream-K arrival counter, a spin lock); here they run later,
  // or not at all in a timed launch. A GEMM's loops run thousands of times at most.
  static constexpr uint64_t kLoopLimit = uint64_t(1) << 18;
  void count_loop_iteration() {
    if (w.loop_pc != w.pc) {
      w.loop_pc = w.pc;
      w.loop_count = 0;
      w.loop_reads_memory = false;
    }
    if (++w.loop_count < kLoopLimit) return;
    if (!w.loop_reads_memory)
      die("a wave went round this loop " + std::to_string(kLoopLimit) +
          " times reading no memory, so nothing another wave does can end it: an endless loop (on the GPU the "
          "launch would hang)");
    die("a wave went round this loop " + std::to_string(kLoopLimit) +
        " times: an endless loop, or one that waits for other workgroups (a spin lock, a stream-K arrival "
        "counter); the ISA engine runs workgroups one after another (and a timed launch only the busiest CU's), "
        "so a kernel that waits cannot run here");
  }
};

}  // namespace isa::detail
