// The executor: one wave64 instruction at a time over the pre-decoded instruction array.
// Semantics follow the CDNA3 ISA guide; vector ops compute all 64 lanes and write the lanes
// EXEC (and DPP/SDWA) allow.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "mfma.h"
#include "numeric.h"
#include "wave.h"

namespace isa::detail {
namespace {

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

  void run(uint64_t budget);
  bool step();  // false: the wave stops (end or barrier)
  void valu();
  void vop3p();
  void compare();
  void mfma();
  void smem();
  void vmem();
  void ds();
  void salu();
  void sopp_waitcnt();
  uint8_t* global_ptr(uint64_t addr, uint32_t bytes, bool load);
  uint8_t* load_outside_allocations(uint64_t addr, uint32_t bytes, const Allocation* below);
  uint8_t* lds_ptr(uint64_t addr, uint32_t bytes, bool write);
  void settle_lds_writes();
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
  uint8_t* scratch_ptr(int lane, uint64_t off, uint32_t bytes);
};

// ---- memory --------------------------------------------------------------------------------
// NOTE: a load that leaves every allocation reads zeros there: on the GPU it reads whatever lies
// past the tensor without a fault (the caching allocator packs tensors into large segments), and
// kernels do load past a tensor's end for rows they then drop. A store or atomic there would
// corrupt another tensor: it faults, naming the tensor it missed.
uint8_t* Exec::global_ptr(uint64_t addr, uint32_t bytes, bool load) {
  if (addr < 4096) {
    std::ostringstream os;
    os << "access to address 0x" << std::hex << addr << " (null pointer)";
    die(os.str());
  }
  if (!L.allocations.empty()) {
    auto it = first_allocation_above(L, addr);
    bool ok = it != L.allocations.begin() && addr + bytes <= std::prev(it)->end;
    if (!ok && load) {
      if (w.log) w.log->note(addr, bytes, false);  // a load: nothing to keep (nothing is read from addr)
      return load_outside_allocations(addr, bytes, it == L.allocations.begin() ? nullptr : &*std::prev(it));
    }
    if (!ok) {
      std::ostringstream os;
      os << "out-of-allocation access of " << bytes << " bytes at 0x" << std::hex << addr;
      // name the nearest allocation below (the tensor the access most likely missed)
      if (it != L.allocations.begin()) {
        auto& a = *std::prev(it);
        os << std::dec << " (" << (addr - a.base) << " bytes past the start of " << a.what << ")";  // what: its size
      }
      die(os.str());
    }
  }
  if (w.log) w.log->note(addr, bytes, !load);  // inside an allocation (or none noted): safe to keep old bytes
  return reinterpret_cast<uint8_t*>(addr);
}

// The kernel parameter that points into `a` (the pointer the access most likely went through):
// "`b_scale`" with the metadata's name (-fhip-kernel-arg-name), else "kernel argument 3"; "" if none.
static std::string parameter_into(const Launch& L, const Allocation& a) {
  int position = 0;
  for (const Arg& arg : L.k->args) {
    if (arg.kind.rfind("hidden_", 0) == 0) continue;
    uint64_t value = 0;
    if (arg.kind == "global_buffer" && arg.size == 8)
      memcpy(&value, reinterpret_cast<const uint8_t*>(L.kernarg) + arg.offset, 8);
    if (value >= a.base && value <= a.end)
      return arg.name.empty() ? "kernel argument " + std::to_string(position) : "`" + arg.name + "`";
    ++position;
  }
  return "";
}

// The bytes of such a load: those still inside `below` (the allocation it starts in or after), then zeros.
uint8_t* Exec::load_outside_allocations(uint64_t addr, uint32_t bytes, const Allocation* below) {
  std::ostringstream os;
  if (below) {
    const std::string parameter = parameter_into(L, *below);
    os << "read of " << bytes << " bytes, " << (addr + bytes - below->end) << " past the end of "
       << (parameter.empty() ? below->what : parameter + " (" + below->what + ")") << ": zeros here, whatever "
       << "lies past it on the GPU";
    warn("read past the end of a tensor", os.str());
  } else {
    os << "read of " << bytes << " bytes outside every allocation: zeros here, whatever lies there on the GPU";
    warn("read outside every allocation", os.str());
  }
  memset(outside, 0, bytes);
  if (below && addr < below->end) memcpy(outside, reinterpret_cast<const uint8_t*>(addr), below->end - addr);
  return outside;
}

// NOTE: gfx942 checks every LDS address against the workgroup's allocation: reads past it
// return 0 and writes are dropped (CDNA3 ISA guide, LDS); the hardware runs on, so this is a
// diagnostic. Bytes of a read still inside the allocation are read.
uint8_t* Exec::lds_ptr(uint64_t addr, uint32_t bytes, bool write) {
  if (addr + bytes > L.lds_allocated) {
    std::ostringstream os;
    os << "LDS " << (write ? "write" : "read") << " of " << bytes << " bytes at " << addr << " past the workgroup's "
       << L.lds_allocated << " bytes (" << L.lds_bytes << " asked for, in 512-byte granules): "
       << (write ? "dropped" : "reads 0") << " as on gfx942";
    warn("LDS outside the allocation", os.str());
    if (write) return dropped;
    memset(outside, 0, bytes);
    if (addr < L.lds_allocated) memcpy(outside, g.lds.data() + addr, L.lds_allocated - addr);
    return outside;
  }
  if (L.check_races && g.writers.size()) {
    const uint16_t me = uint16_t(1u << w.id);
    for (uint32_t b = 0; b < bytes; ++b) {
      const uint64_t a = addr + b;
      const uint16_t writers = g.writers[a], others_read = uint16_t(g.readers[a] & ~me);
      if (!write) {
        // a value only other waves wrote (a wave that wrote the same value sees it either way)
        if (writers && !(writers & me)) {
          std::ostringstream os;
          os << "LDS race: wave " << w.id << " reads byte " << a << " that wave " << __builtin_ctz(writers)
             << " wrote (at 0x" << std::hex << g.writer_pc[a] << std::dec << ") since the last s_barrier";
          warn("LDS race", os.str());
        }
        g.readers[a] = uint16_t(g.readers[a] | me);
      } else if ((writers & ~me) || others_read) {
        contested.push_back({uint32_t(a), g.lds[a], writers, others_read});
      } else {
        g.writers[a] = me;
        g.writer_pc[a] = in->addr;
      }
    }
  }
  if (w.log) w.log->lds.emplace_back(addr, bytes);
  return g.lds.data() + addr;
}

// Writes over another wave's bytes: writing the value already there is no race (waves storing
// the same value to the same word); a different value is.
void Exec::settle_lds_writes() {
  const uint16_t me = uint16_t(1u << w.id);
  for (size_t n = 0; n < contested.size(); ++n) {
    const ContestedByte& c = contested[n];
    bool first = true;  // lanes of this instruction may write one byte twice: its old value is the first
    for (size_t k = 0; k < n && first; ++k) first = contested[k].addr != c.addr;
    if (!first) continue;
    if (g.lds[c.addr] == c.old) {
      g.writers[c.addr] = uint16_t(c.writers | me);
      continue;
    }
    std::ostringstream os;
    if (c.writers & ~me) {
      os << "LDS race: wave " << w.id << " writes byte " << c.addr << " that wave " << __builtin_ctz(c.writers & ~me)
         << " wrote a different value to (at 0x" << std::hex << g.writer_pc[c.addr] << std::dec
         << ") since the last s_barrier";
    } else {
      os << "LDS race: wave " << w.id << " writes byte " << c.addr << " that wave " << __builtin_ctz(c.readers)
         << " read since the last s_barrier";
    }
    warn("LDS race", os.str());
    g.writers[c.addr] = me;
    g.writer_pc[c.addr] = in->addr;
  }
  contested.clear();
}

uint8_t* Exec::scratch_ptr(int lane, uint64_t off, uint32_t bytes) {
  if (off + bytes > w.private_bytes) {
    std::ostringstream os;
    os << "scratch access of " << bytes << " bytes at offset " << off << " outside the lane's " << w.private_bytes
       << " bytes";
    die(os.str());
  }
  if (w.log) {
    // Wave objects lie more than 128 KiB apart: their addresses shifted by 12 bits are distinct bases.
    const uint64_t base = AccessLog::kScratchTag | (uint64_t(reinterpret_cast<uintptr_t>(&w)) << 12);
    for (uint64_t d = off / 4; d < (off + bytes + 3) / 4; ++d) w.log->scratch.emplace_back(base + d * 256 + uint64_t(lane) * 4, 4);
  }
  return w.scratch.data() + size_t(lane) * w.private_bytes + off;
}

// ---- scalar ALU ----------------------------------------------------------------------------
void Exec::salu() {
  const Inst& i = *in;
  auto a32 = [&] { return sread(i.src[0]); };
  auto b32 = [&] { return sread(i.src[1]); };
  auto a64 = [&] { return sread64(i.src[0]); };
  auto b64 = [&] { return sread64(i.src[1]); };
  auto d32 = [&](uint32_t v) { swrite(i.dst, v); };
  auto d64 = [&](uint64_t v) { swrite64(i.dst, v); };
  const uint32_t k = uint32_t(int32_t(i.simm16));
  switch (i.op) {
    case OP_s_mov_b32: d32(a32()); break;
    case OP_s_mov_b64: d64(a64()); break;
    case OP_s_cmov_b32: if (w.scc) d32(a32()); break;
    case OP_s_cmov_b64: if (w.scc) d64(a64()); break;
    case OP_s_not_b32: { uint32_t r = ~a32(); d32(r); w.scc = r != 0; break; }
    case OP_s_not_b64: { uint64_t r = ~a64(); d64(r); w.scc = r != 0; break; }
    case OP_s_brev_b32: { uint32_t x = a32(), r = 0; for (int b = 0; b < 32; ++b) r |= ((x >> b) & 1) << (31 - b); d32(r); break; }
    case OP_s_bcnt1_i32_b32: { uint32_t r = __builtin_popcount(a32()); d32(r); w.scc = r != 0; break; }
    case OP_s_bcnt1_i32_b64: { uint32_t r = __builtin_popcountll(a64()); d32(r); w.scc = r != 0; break; }
    case OP_s_ff1_i32_b32: { uint32_t x = a32(); d32(x ? __builtin_ctz(x) : 0xffffffffu); break; }
    case OP_s_ff1_i32_b64: { uint64_t x = a64(); d32(x ? __builtin_ctzll(x) : 0xffffffffu); break; }
    case OP_s_flbit_i32_b32: { uint32_t x = a32(); d32(x ? __builtin_clz(x) : 0xffffffffu); break; }
    case OP_s_flbit_i32_b64: { uint64_t x = a64(); d32(x ? __builtin_clzll(x) : 0xffffffffu); break; }
    case OP_s_sext_i32_i8: d32(uint32_t(int32_t(int8_t(a32())))); break;
    case OP_s_sext_i32_i16: d32(uint32_t(int32_t(int16_t(a32())))); break;
    case OP_s_bitset0_b32: d32(sread(i.dst) & ~(1u << (a32() & 31))); break;
    case OP_s_bitset1_b32: d32(sread(i.dst) | (1u << (a32() & 31))); break;
    case OP_s_abs_i32: { int32_t x = int32_t(a32()); uint32_t r = x < 0 ? uint32_t(-int64_t(x)) : uint32_t(x); d32(r); w.scc = r != 0; break; }
    case OP_s_getpc_b64: d64(uint64_t(reinterpret_cast<uintptr_t>(L.co->image.data())) + i.addr + 4); break;
    case OP_s_and_saveexec_b64: case OP_s_or_saveexec_b64: case OP_s_xor_saveexec_b64:
    case OP_s_andn2_saveexec_b64: case OP_s_orn2_saveexec_b64: case OP_s_nand_saveexec_b64:
    case OP_s_nor_saveexec_b64: case OP_s_xnor_saveexec_b64: case OP_s_andn1_saveexec_b64:
    case OP_s_orn1_saveexec_b64: case OP_s_andn1_wrexec_b64: case OP_s_andn2_wrexec_b64: {
      const uint64_t s0 = a64(), e = w.exec();
      uint64_t r = 0;
      switch (i.op) {
        case OP_s_and_saveexec_b64: r = s0 & e; break;
        case OP_s_or_saveexec_b64: r = s0 | e; break;
        case OP_s_xor_saveexec_b64: r = s0 ^ e; break;
        case OP_s_andn2_saveexec_b64: case OP_s_andn2_wrexec_b64: r = s0 & ~e; break;
        case OP_s_orn2_saveexec_b64: r = s0 | ~e; break;
        case OP_s_nand_saveexec_b64: r = ~(s0 & e); break;
        case OP_s_nor_saveexec_b64: r = ~(s0 | e); break;
        case OP_s_xnor_saveexec_b64: r = ~(s0 ^ e); break;
        case OP_s_andn1_saveexec_b64: case OP_s_andn1_wrexec_b64: r = ~s0 & e; break;
        case OP_s_orn1_saveexec_b64: r = ~s0 | e; break;
        default: break;
      }
      if (i.op == OP_s_andn1_wrexec_b64 || i.op == OP_s_andn2_wrexec_b64) {
        swrite64(kExec, r);
        d64(r);
      } else {
        d64(e);
        swrite64(kExec, r);
      }
      w.scc = r != 0;
      break;
    }
    case OP_s_add_u32: { uint64_t r = uint64_t(a32()) + b32(); d32(uint32_t(r)); w.scc = r >> 32; break; }
    case OP_s_sub_u32: { uint32_t a = a32(), b = b32(); d32(a - b); w.scc = b > a; break; }
    case OP_s_addc_u32: { uint64_t r = uint64_t(a32()) + b32() + w.scc; d32(uint32_t(r)); w.scc = r >> 32; break; }
    case OP_s_subb_u32: { uint32_t a = a32(), b = b32(); uint64_t r = uint64_t(a) - b - w.scc; d32(uint32_t(r)); w.scc = (uint64_t(b) + w.scc) > a; break; }
    case OP_s_add_i32: { int32_t a = int32_t(a32()), b = int32_t(b32()); int32_t r = int32_t(uint32_t(a) + uint32_t(b)); d32(uint32_t(r)); w.scc = ((a >= 0) == (b >= 0)) && ((r >= 0) != (a >= 0)); break; }
    case OP_s_sub_i32: { int32_t a = int32_t(a32()), b = int32_t(b32()); int32_t r = int32_t(uint32_t(a) - uint32_t(b)); d32(uint32_t(r)); w.scc = ((a >= 0) != (b >= 0)) && ((r >= 0) != (a >= 0)); break; }
    case OP_s_min_i32: { int32_t a = int32_t(a32()), b = int32_t(b32()); d32(uint32_t(a < b ? a : b)); w.scc = a < b; break; }
    case OP_s_min_u32: { uint32_t a = a32(), b = b32(); d32(a < b ? a : b); w.scc = a < b; break; }
    case OP_s_max_i32: { int32_t a = int32_t(a32()), b = int32_t(b32()); d32(uint32_t(a > b ? a : b)); w.scc = a > b; break; }
    case OP_s_max_u32: { uint32_t a = a32(), b = b32(); d32(a > b ? a : b); w.scc = a > b; break; }
    case OP_s_cselect_b32: { uint32_t a = a32(), b = b32(); d32(w.scc ? a : b); break; }
    case OP_s_cselect_b64: { uint64_t a = a64(), b = b64(); d64(w.scc ? a : b); break; }
#define SBIT(OP, EXPR, T, R, W) case OP: { T a = R(), b = R##_b(); T r = EXPR; W(r); w.scc = r != 0; break; }
    case OP_s_and_b32: { uint32_t r = a32() & b32(); d32(r); w.scc = r != 0; break; }
    case OP_s_and_b64: { uint64_t r = a64() & b64(); d64(r); w.scc = r != 0; break; }
    case OP_s_or_b32: { uint32_t r = a32() | b32(); d32(r); w.scc = r != 0; break; }
    case OP_s_or_b64: { uint64_t r = a64() | b64(); d64(r); w.scc = r != 0; break; }
    case OP_s_xor_b32: { uint32_t r = a32() ^ b32(); d32(r); w.scc = r != 0; break; }
    case OP_s_xor_b64: { uint64_t r = a64() ^ b64(); d64(r); w.scc = r != 0; break; }
    case OP_s_andn2_b32: { uint32_t r = a32() & ~b32(); d32(r); w.scc = r != 0; break; }
    case OP_s_andn2_b64: { uint64_t r = a64() & ~b64(); d64(r); w.scc = r != 0; break; }
    case OP_s_orn2_b32: { uint32_t r = a32() | ~b32(); d32(r); w.scc = r != 0; break; }
    case OP_s_orn2_b64: { uint64_t r = a64() | ~b64(); d64(r); w.scc = r != 0; break; }
    case OP_s_nand_b32: { uint32_t r = ~(a32() & b32()); d32(r); w.scc = r != 0; break; }
    case OP_s_nand_b64: { uint64_t r = ~(a64() & b64()); d64(r); w.scc = r != 0; break; }
    case OP_s_nor_b32: { uint32_t r = ~(a32() | b32()); d32(r); w.scc = r != 0; break; }
    case OP_s_nor_b64: { uint64_t r = ~(a64() | b64()); d64(r); w.scc = r != 0; break; }
    case OP_s_xnor_b32: { uint32_t r = ~(a32() ^ b32()); d32(r); w.scc = r != 0; break; }
    case OP_s_xnor_b64: { uint64_t r = ~(a64() ^ b64()); d64(r); w.scc = r != 0; break; }
#undef SBIT
    case OP_s_lshl_b32: { uint32_t r = a32() << (b32() & 31); d32(r); w.scc = r != 0; break; }
    case OP_s_lshl_b64: { uint64_t r = a64() << (b32() & 63); d64(r); w.scc = r != 0; break; }
    case OP_s_lshr_b32: { uint32_t r = a32() >> (b32() & 31); d32(r); w.scc = r != 0; break; }
    case OP_s_lshr_b64: { uint64_t r = a64() >> (b32() & 63); d64(r); w.scc = r != 0; break; }
    case OP_s_ashr_i32: { uint32_t r = uint32_t(int32_t(a32()) >> (b32() & 31)); d32(r); w.scc = r != 0; break; }
    case OP_s_ashr_i64: { uint64_t r = uint64_t(int64_t(a64()) >> (b32() & 63)); d64(r); w.scc = r != 0; break; }
    case OP_s_bfm_b32: d32(((1u << (a32() & 31)) - 1) << (b32() & 31)); break;
    case OP_s_bfm_b64: d64(((1ull << (a32() & 63)) - 1) << (b32() & 63)); break;
    case OP_s_mul_i32: d32(a32() * b32()); break;
    case OP_s_mul_hi_u32: d32(uint32_t((uint64_t(a32()) * b32()) >> 32)); break;
    case OP_s_mul_hi_i32: d32(uint32_t((int64_t(int32_t(a32())) * int32_t(b32())) >> 32)); break;
    case OP_s_bfe_u32: case OP_s_bfe_i32: {
      uint32_t a = a32(), b = b32(), off = b & 31, width = (b >> 16) & 127;
      uint32_t r = width == 0 ? 0 : (width >= 32 ? a >> off : (a >> off) & ((1u << width) - 1));
      if (i.op == OP_s_bfe_i32 && width > 0 && width < 32) r = uint32_t(int32_t(r << (32 - width)) >> (32 - width));
      d32(r); w.scc = r != 0; break;
    }
    case OP_s_bfe_u64: case OP_s_bfe_i64: {
      uint64_t a = a64(); uint32_t b = b32(), off = b & 63, width = (b >> 16) & 127;
      uint64_t r = width == 0 ? 0 : (width >= 64 ? a >> off : (a >> off) & ((1ull << width) - 1));
      if (i.op == OP_s_bfe_i64 && width > 0 && width < 64) r = uint64_t(int64_t(r << (64 - width)) >> (64 - width));
      d64(r); w.scc = r != 0; break;
    }
    case OP_s_absdiff_i32: { int64_t r = int64_t(int32_t(a32())) - int32_t(b32()); uint32_t u = uint32_t(r < 0 ? -r : r); d32(u); w.scc = u != 0; break; }
    case OP_s_lshl1_add_u32: case OP_s_lshl2_add_u32: case OP_s_lshl3_add_u32: case OP_s_lshl4_add_u32: {
      int sh = 1 + (i.op - OP_s_lshl1_add_u32);
      uint64_t r = (uint64_t(a32()) << sh) + b32();
      d32(uint32_t(r)); w.scc = (r >> 32) != 0; break;
    }
    case OP_s_pack_ll_b32_b16: d32((a32() & 0xffff) | (b32() << 16)); break;
    case OP_s_pack_lh_b32_b16: d32((a32() & 0xffff) | (b32() & 0xffff0000u)); break;
    case OP_s_pack_hh_b32_b16: d32((a32() >> 16) | (b32() & 0xffff0000u)); break;
    case OP_s_cmp_eq_i32: case OP_s_cmp_eq_u32: w.scc = a32() == b32(); break;
    case OP_s_cmp_lg_i32: case OP_s_cmp_lg_u32: w.scc = a32() != b32(); break;
    case OP_s_cmp_gt_i32: w.scc = int32_t(a32()) > int32_t(b32()); break;
    case OP_s_cmp_ge_i32: w.scc = int32_t(a32()) >= int32_t(b32()); break;
    case OP_s_cmp_lt_i32: w.scc = int32_t(a32()) < int32_t(b32()); break;
    case OP_s_cmp_le_i32: w.scc = int32_t(a32()) <= int32_t(b32()); break;
    case OP_s_cmp_gt_u32: w.scc = a32() > b32(); break;
    case OP_s_cmp_ge_u32: w.scc = a32() >= b32(); break;
    case OP_s_cmp_lt_u32: w.scc = a32() < b32(); break;
    case OP_s_cmp_le_u32: w.scc = a32() <= b32(); break;
    case OP_s_cmp_eq_u64: w.scc = a64() == b64(); break;
    case OP_s_cmp_lg_u64: w.scc = a64() != b64(); break;
    case OP_s_bitcmp0_b32: w.scc = ((a32() >> (b32() & 31)) & 1) == 0; break;
    case OP_s_bitcmp1_b32: w.scc = ((a32() >> (b32() & 31)) & 1) == 1; break;
    case OP_s_bitcmp0_b64: w.scc = ((a64() >> (b32() & 63)) & 1) == 0; break;
    case OP_s_bitcmp1_b64: w.scc = ((a64() >> (b32() & 63)) & 1) == 1; break;
    case OP_s_movk_i32: d32(k); break;
    case OP_s_cmovk_i32: if (w.scc) d32(k); break;
    case OP_s_cmpk_eq_i32: w.scc = int32_t(sread(i.dst)) == int32_t(k); break;
    case OP_s_cmpk_lg_i32: w.scc = int32_t(sread(i.dst)) != int32_t(k); break;
    case OP_s_cmpk_gt_i32: w.scc = int32_t(sread(i.dst)) > int32_t(k); break;
    case OP_s_cmpk_ge_i32: w.scc = int32_t(sread(i.dst)) >= int32_t(k); break;
    case OP_s_cmpk_lt_i32: w.scc = int32_t(sread(i.dst)) < int32_t(k); break;
    case OP_s_cmpk_le_i32: w.scc = int32_t(sread(i.dst)) <= int32_t(k); break;
    case OP_s_cmpk_eq_u32: w.scc = sread(i.dst) == uint32_t(uint16_t(i.simm16)); break;
    case OP_s_cmpk_lg_u32: w.scc = sread(i.dst) != uint32_t(uint16_t(i.simm16)); break;
    case OP_s_cmpk_gt_u32: w.scc = sread(i.dst) > uint32_t(uint16_t(i.simm16)); break;
    case OP_s_cmpk_ge_u32: w.scc = sread(i.dst) >= uint32_t(uint16_t(i.simm16)); break;
    case OP_s_cmpk_lt_u32: w.scc = sread(i.dst) < uint32_t(uint16_t(i.simm16)); break;
    case OP_s_cmpk_le_u32: w.scc = sread(i.dst) <= uint32_t(uint16_t(i.simm16)); break;
    case OP_s_addk_i32: {
      int32_t a = int32_t(sread(i.dst)), b = int32_t(k);
      int32_t r = int32_t(uint32_t(a) + uint32_t(b));
      d32(uint32_t(r));
      w.scc = ((a >= 0) == (b >= 0)) && ((r >= 0) != (a >= 0));
      break;
    }
    case OP_s_mulk_i32: d32(sread(i.dst) * k); break;
    case OP_s_getreg_b32: case OP_s_setreg_b32: case OP_s_setreg_imm32_b32: {
      const uint32_t id = uint32_t(i.simm16) & 63, off = (uint32_t(i.simm16) >> 6) & 31,
                     size = ((uint32_t(i.simm16) >> 11) & 31) + 1;
      const uint32_t mask = size >= 32 ? 0xffffffffu : ((1u << size) - 1);
      if (i.op == OP_s_getreg_b32) {
        uint32_t v = 0;
        if (id == 1) v = w.mode;
        else if (id == 4) v = uint32_t(w.id & 15);                        // HW_ID: wave id
        else if (id == 20) v = g.linear % 8;                              // XCC_ID: round robin
        d32((v >> off) & mask);
      } else if (id == 1) {
        uint32_t v = i.op == OP_s_setreg_b32 ? sread(i.dst) : i.literal;
        w.mode = (w.mode & ~(mask << off)) | ((v & mask) << off);
        if ((w.mode & 0xff) != (0xf0u))
          die("MODE set to round/denormal mode 0x" + std::to_string(w.mode & 0xff) + ": only the default is implemented");
      }
      break;
    }
    default: die("instruction not implemented");
  }
}

// ---- SMEM ----------------------------------------------------------------------------------
void Exec::smem() {
  const Inst& i = *in;
  int n = 0;
  switch (i.op) {
    case OP_s_load_dword: case OP_s_buffer_load_dword: n = 1; break;
    case OP_s_load_dwordx2: case OP_s_buffer_load_dwordx2: n = 2; break;
    case OP_s_load_dwordx4: case OP_s_buffer_load_dwordx4: n = 4; break;
    case OP_s_load_dwordx8: case OP_s_buffer_load_dwordx8: n = 8; break;
    case OP_s_load_dwordx16: case OP_s_buffer_load_dwordx16: n = 16; break;
    case OP_s_memtime: case OP_s_memrealtime: {
      uint64_t t = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count() / 10);
      swrite64(i.dst, t);
      w.spend[i.dst] = w.spend[i.dst + 1] = 0xc0000000u | (w.smem_last = ++w.lgkm_issued);
      return;
    }
    case OP_s_dcache_inv: case OP_s_dcache_wb: case OP_s_dcache_inv_vol: case OP_s_dcache_wb_vol: return;
    default: die("instruction not implemented");
  }
  w.loop_reads_memory = true;
  int64_t off = i.imm ? i.offset : int64_t(sread(uint16_t(i.offset & 0x7f)));
  if (i.soffset_en) off += sread(i.soffset);
  check_s(i.saddr, i.op >= OP_s_buffer_load_dword && i.op <= OP_s_buffer_load_dwordx16 ? 4 : 2);
  uint64_t base = uint64_t(w.s[i.saddr]) | (uint64_t(w.s[i.saddr + 1] & 0xffff) << 32);
  if (!(i.op >= OP_s_buffer_load_dword && i.op <= OP_s_buffer_load_dwordx16))
    base = uint64_t(w.s[i.saddr]) | (uint64_t(w.s[i.saddr + 1]) << 32);
  uint64_t addr = (base + uint64_t(off)) & ~3ull;
  const uint32_t tag = 0xc0000000u | (w.smem_last = ++w.lgkm_issued);
  if (i.op >= OP_s_buffer_load_dword && i.op <= OP_s_buffer_load_dwordx16) {
    const uint32_t records = w.s[i.saddr + 2];
    for (int k = 0; k < n; ++k) {
      uint64_t o = uint64_t(off & ~3ll) + 4 * k;
      uint32_t v = 0;
      if (o + 4 <= records) memcpy(&v, global_ptr(base + o, 4, true), 4);
      w.s[i.dst + k] = v;
      w.spend[i.dst + k] = tag;
    }
    return;
  }
  const uint8_t* p = (addr >= L.kernarg && addr + 4 * n <= L.kernarg + ((L.k->kernarg_size + 255) & ~255u)) ||
                             (addr >= L.dispatch_packet && addr + 4 * n <= L.dispatch_packet + 64)
                         ? reinterpret_cast<const uint8_t*>(addr)
                         : global_ptr(addr, 4 * n, true);
  memcpy(&w.s[i.dst], p, 4 * n);
  for (int k = 0; k < n; ++k) w.spend[i.dst + k] = tag;
}

// ---- vector memory: FLAT / GLOBAL / SCRATCH / MUBUF -----------------------------------------
void Exec::vmem() {
  const Inst& i = *in;
  if (i.op == OP_buffer_wbl2 || i.op == OP_buffer_inv || i.op == OP_buffer_wbinvl1_vol) return;
  const bool store = i.op == OP_vm_store, atomic = i.op == OP_vm_atomic;
  w.loop_reads_memory |= !store;
  const uint64_t exec = w.exec();
  const int dwords = i.dwords;
  const uint32_t bytes = i.mem == M_B32 ? 4u * dwords
                         : (i.mem == M_U16 || i.mem == M_I16 || i.mem == M_D16_LO || i.mem == M_D16_HI ||
                            i.mem == M_STORE_HI16)
                             ? 2u
                             : 1u;
  // per-lane addresses
  uint64_t addr[64];
  enum { GLOBAL, LDS, PRIVATE } space[64];
  bool in_range[64];
  if (i.fmt == F_MUBUF) {
    check_s(i.saddr, 4);
    const uint32_t* r = &w.s[i.saddr];
    const uint64_t base = uint64_t(r[0]) | (uint64_t(r[1] & 0xffff) << 32);
    const uint32_t stride = (r[1] >> 16) & 0x3fff, records = r[2];
    const uint32_t soff = i.soffset == 0xffff ? 0 : sread(i.soffset);
    if (i.offen || i.idxen) check_v(i.src[0], (i.offen && i.idxen) ? 2 : 1);
    LANES {
      uint32_t index = i.idxen ? w.v[i.src[0] - 256][l] : 0;
      uint32_t voff = i.offen ? w.v[i.src[0] - 256 + (i.idxen ? 1 : 0)][l] : 0;
      uint32_t offset = voff + uint32_t(i.offset);
      space[l] = GLOBAL;
      if (stride == 0 || !i.idxen) {
        in_range[l] = uint64_t(offset) + soff + bytes <= records;
        addr[l] = base + soff + offset + uint64_t(index) * stride;
      } else {
        in_range[l] = index < records && offset + bytes <= stride;
        addr[l] = base + soff + uint64_t(index) * stride + offset;
      }
    }
  } else {
    const bool scratch = i.fmt == F_SCRATCH;
    const bool use_saddr = i.saddr != 0xffff;
    uint64_t sbase = 0;
    if (use_saddr) sbase = scratch ? sread(i.saddr) : sread64(i.saddr);
    // NOTE: gfx942 scratch reads its VGPR only with SVE set (SVE and saddr off: the offset alone).
    const bool vaddr_used = !scratch || i.offen;
    const bool vaddr64 = !use_saddr && !scratch;
    if (vaddr_used) check_v(i.src[0], vaddr64 ? 2 : 1);
    LANES {
      uint64_t a;
      if (vaddr64) a = uint64_t(w.v[i.src[0] - 256][l]) | (uint64_t(w.v[i.src[0] - 255][l]) << 32);
      else a = sbase + (vaddr_used ? uint64_t(w.v[i.src[0] - 256][l]) : 0);
      a += int64_t(i.offset);
      in_range[l] = true;
      if (scratch) {
        space[l] = PRIVATE;
        addr[l] = uint32_t(a);
      } else if (i.fmt == F_FLAT && (a >> 32) == kSharedApertureHi) {
        space[l] = LDS;
        addr[l] = uint32_t(a);
      } else if (i.fmt == F_FLAT && (a >> 32) == kPrivateApertureHi) {
        space[l] = PRIVATE;
        addr[l] = uint32_t(a);
      } else {
        space[l] = GLOBAL;
        addr[l] = a;
      }
    }
  }
  auto ptr = [&](int l, uint32_t n, bool write) -> uint8_t* {
    switch (space[l]) {
      case LDS: return lds_ptr(addr[l], n, write);
      case PRIVATE: return scratch_ptr(l, addr[l], n);
      default: return global_ptr(addr[l], n, !write);
    }
  };
  const uint16_t data = i.src[1];
  if (store) {
    check_v(data, dwords);
    ++w.vm_issued;  // stores count in vmcnt too
    LANES {
      if (!((exec >> l) & 1) || !in_range[l]) continue;
      uint8_t* p = ptr(l, bytes, true);
      if (i.mem == M_B32) {
        for (int d = 0; d < dwords; ++d) memcpy(p + 4 * d, &w.v[data - 256 + d][l], 4);
      } else {
        uint32_t v = w.v[data - 256][l];
        if (i.mem == M_STORE_HI8 || i.mem == M_STORE_HI16) v >>= 16;
        memcpy(p, &v, bytes);
      }
    }
    return;
  }
  if (atomic) {
    check_v(data, dwords * (i.sub == 1 ? 2 : 1));
    const uint32_t tag = ++w.vm_issued;
    LANES {
      if (!((exec >> l) & 1) || !in_range[l]) continue;
      if (space[l] != GLOBAL) die("atomics outside global memory are not implemented");
      uint8_t* p = global_ptr(addr[l], 4 * dwords, false);
      uint64_t v = w.v[data - 256][l], old = 0;
      if (dwords == 2) v |= uint64_t(w.v[data - 255][l]) << 32;
      auto rmw32 = [&](auto f) {
        auto* q = reinterpret_cast<uint32_t*>(p);
        uint32_t o = __atomic_load_n(q, __ATOMIC_SEQ_CST), n;
        do n = f(o); while (!__atomic_compare_exchange_n(q, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        return o;
      };
      auto rmw64 = [&](auto f) {
        auto* q = reinterpret_cast<uint64_t*>(p);
        uint64_t o = __atomic_load_n(q, __ATOMIC_SEQ_CST), n;
        do n = f(o); while (!__atomic_compare_exchange_n(q, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        return o;
      };
      const uint32_t v32 = uint32_t(v);
      if (dwords == 1) {
        switch (i.sub) {
          case 0: old = rmw32([&](uint32_t) { return v32; }); break;
          case 1: { uint32_t cmp = w.v[data - 255][l]; old = rmw32([&](uint32_t o) { return o == cmp ? v32 : o; }); break; }
          case 2: old = __atomic_fetch_add(reinterpret_cast<uint32_t*>(p), v32, __ATOMIC_SEQ_CST); break;
          case 3: old = __atomic_fetch_sub(reinterpret_cast<uint32_t*>(p), v32, __ATOMIC_SEQ_CST); break;
          case 4: old = rmw32([&](uint32_t o) { return int32_t(o) < int32_t(v32) ? o : v32; }); break;
          case 5: old = rmw32([&](uint32_t o) { return o < v32 ? o : v32; }); break;
          case 6: old = rmw32([&](uint32_t o) { return int32_t(o) > int32_t(v32) ? o : v32; }); break;
          case 7: old = rmw32([&](uint32_t o) { return o > v32 ? o : v32; }); break;
          case 8: old = __atomic_fetch_and(reinterpret_cast<uint32_t*>(p), v32, __ATOMIC_SEQ_CST); break;
          case 9: old = __atomic_fetch_or(reinterpret_cast<uint32_t*>(p), v32, __ATOMIC_SEQ_CST); break;
          case 10: old = __atomic_fetch_xor(reinterpret_cast<uint32_t*>(p), v32, __ATOMIC_SEQ_CST); break;
          case 11: old = rmw32([&](uint32_t o) { return o >= v32 ? 0u : o + 1; }); break;
          case 12: old = rmw32([&](uint32_t o) { return (o == 0 || o > v32) ? v32 : o - 1; }); break;
          case 13: old = rmw32([&](uint32_t o) { return as_u(as_f(o) + as_f(v32)); }); break;
          default: die("atomic not implemented");
        }
      } else {
        switch (i.sub) {
          case 0: old = rmw64([&](uint64_t) { return v; }); break;
          case 1: { uint64_t cmp = uint64_t(w.v[data - 254][l]) | (uint64_t(w.v[data - 253][l]) << 32);
                    old = rmw64([&](uint64_t o) { return o == cmp ? v : o; }); break; }
          case 2: old = __atomic_fetch_add(reinterpret_cast<uint64_t*>(p), v, __ATOMIC_SEQ_CST); break;
          case 3: old = __atomic_fetch_sub(reinterpret_cast<uint64_t*>(p), v, __ATOMIC_SEQ_CST); break;
          case 14: old = rmw64([&](uint64_t o) { return as_u64(as_d(o) + as_d(v)); }); break;
          default: die("64-bit atomic not implemented");
        }
      }
      if (i.glc) {
        w.v[i.dst - 256][l] = uint32_t(old);
        if (dwords == 2) w.v[i.dst - 255][l] = uint32_t(old >> 32);
      }
    }
    if (i.glc) mark_v(i.dst, dwords, tag);
    return;
  }
  // loads
  const uint32_t tag = ++w.vm_issued;
  const uint16_t dst = i.dst;
  if (i.lds) {
    // NOTE: loads into LDS write one dword slot per lane at M0 + instruction offset + 4 * lane
    // (LLVM's AMDGPU DMA notes; sub-dword loads are zero/sign-extended into their slot).
    const uint32_t m0 = w.s[kM0];
    const uint32_t base = (i.fmt == F_MUBUF ? (m0 & 0xffff) : (m0 & 0x3fffc)) + uint32_t(i.offset);
    LANES {
      if (!((exec >> l) & 1)) continue;
      uint32_t raw = 0;
      if (in_range[l]) memcpy(&raw, ptr(l, bytes, false), bytes);
      if (i.mem == M_I8) raw = uint32_t(int32_t(int8_t(raw)));
      else if (i.mem == M_I16) raw = uint32_t(int32_t(int16_t(raw)));
      memcpy(lds_ptr(base + 4u * l, 4, true), &raw, 4);
    }
    return;
  }
  LANES {
    if (!((exec >> l) & 1)) continue;
    if (i.mem == M_B32) {
      if (!in_range[l]) {
        for (int d = 0; d < dwords; ++d) w.v[dst - 256 + d][l] = 0;
        continue;
      }
      const uint8_t* p = ptr(l, bytes, false);
      for (int d = 0; d < dwords; ++d) memcpy(&w.v[dst - 256 + d][l], p + 4 * d, 4);
      continue;
    }
    uint32_t raw = 0;
    if (in_range[l]) memcpy(&raw, ptr(l, bytes, false), bytes);
    uint32_t& d = w.v[dst - 256][l];
    switch (i.mem) {
      case M_U8: d = raw & 0xff; break;
      case M_I8: d = uint32_t(int32_t(int8_t(raw))); break;
      case M_U16: d = raw & 0xffff; break;
      case M_I16: d = uint32_t(int32_t(int16_t(raw))); break;
      case M_D16_LO_U8: d = (d & 0xffff0000u) | (raw & 0xff); break;
      case M_D16_LO_I8: d = (d & 0xffff0000u) | (uint32_t(int32_t(int8_t(raw))) & 0xffff); break;
      case M_D16_HI_U8: d = (d & 0xffff) | ((raw & 0xff) << 16); break;
      case M_D16_HI_I8: d = (d & 0xffff) | (uint32_t(int32_t(int8_t(raw))) << 16); break;
      case M_D16_LO: d = (d & 0xffff0000u) | (raw & 0xffff); break;
      case M_D16_HI: d = (d & 0xffff) | (raw << 16); break;
      default: die("load kind not implemented");
    }
  }
  mark_v(dst, dwords, tag);
}

// ---- LDS -----------------------------------------------------------------------------------
void Exec::ds() {
  const Inst& i = *in;
  const uint64_t exec = w.exec();
  const uint16_t a = i.src[0], d0 = i.src[1], d1 = i.src[2], dst = i.dst;
  if (i.op == OP_ds_nop) return;
  w.loop_reads_memory = true;  // LDS another wave of the workgroup may write
  check_v(a, 1);
  const uint32_t* av = w.v[a - 256];
  auto wr = [&](int, uint64_t at, const void* p, uint32_t n) { memcpy(lds_ptr(at, n, true), p, n); };
  auto rd = [&](int, uint64_t at, void* p, uint32_t n) { memcpy(p, lds_ptr(at, n, false), n); };
  const uint32_t off = uint32_t(i.offset);
  const uint32_t tag = 0x80000000u | ++w.lgkm_issued;
  int write_n = 0, read_n = 0, pair_size = 0, pair_scale = 1;
  switch (i.op) {
    case OP_ds_write_b8: case OP_ds_write_b8_d16_hi: write_n = 1; break;
    case OP_ds_write_b16: case OP_ds_write_b16_d16_hi: write_n = 2; break;
    case OP_ds_write_b32: write_n = 4; break;
    case OP_ds_write_b64: write_n = 8; break;
    case OP_ds_write_b96: write_n = 12; break;
    case OP_ds_write_b128: write_n = 16; break;
    case OP_ds_read_b32: read_n = 4; break;
    case OP_ds_read_b64: read_n = 8; break;
    case OP_ds_read_b96: read_n = 12; break;
    case OP_ds_read_b128: read_n = 16; break;
    case OP_ds_write2_b32: pair_size = 4; break;
    case OP_ds_write2_b64: pair_size = 8; break;
    case OP_ds_write2st64_b32: pair_size = 4; pair_scale = 64; break;
    case OP_ds_write2st64_b64: pair_size = 8; pair_scale = 64; break;
    case OP_ds_read2_b32: pair_size = 4; break;
    case OP_ds_read2_b64: pair_size = 8; break;
    case OP_ds_read2st64_b32: pair_size = 4; pair_scale = 64; break;
    case OP_ds_read2st64_b64: pair_size = 8; pair_scale = 64; break;
    default: break;
  }
  const bool is_write2 = i.op == OP_ds_write2_b32 || i.op == OP_ds_write2_b64 || i.op == OP_ds_write2st64_b32 ||
                         i.op == OP_ds_write2st64_b64;
  if (write_n) {
    check_v(d0, (write_n + 3) / 4);
    LANES if ((exec >> l) & 1) {
      uint32_t buf[4];
      for (int k = 0; k < (write_n + 3) / 4; ++k) buf[k] = w.v[d0 - 256 + k][l];
      if (i.op == OP_ds_write_b8_d16_hi || i.op == OP_ds_write_b16_d16_hi) buf[0] >>= 16;
      wr(l, uint32_t(av[l] + off), buf, write_n);
    }
    return;
  }
  if (read_n) {
    LANES if ((exec >> l) & 1) {
      uint32_t buf[4];
      rd(l, uint32_t(av[l] + off), buf, read_n);
      for (int k = 0; k < read_n / 4; ++k) w.v[dst - 256 + k][l] = buf[k];
    }
    mark_v(dst, read_n / 4, tag);
    return;
  }
  if (pair_size) {
    const uint64_t o0 = uint64_t(i.offset0) * pair_size * pair_scale, o1 = uint64_t(i.offset1) * pair_size * pair_scale;
    const int dw = pair_size / 4;
    if (is_write2) {
      check_v(d0, dw);
      check_v(d1, dw);
      LANES if ((exec >> l) & 1) {
        uint32_t b0[2], b1[2];
        for (int k = 0; k < dw; ++k) b0[k] = w.v[d0 - 256 + k][l], b1[k] = w.v[d1 - 256 + k][l];
        wr(l, uint32_t(av[l] + o0), b0, pair_size);
        wr(l, uint32_t(av[l] + o1), b1, pair_size);
      }
    } else {
      LANES if ((exec >> l) & 1) {
        uint32_t b0[2], b1[2];
        rd(l, uint32_t(av[l] + o0), b0, pair_size);
        rd(l, uint32_t(av[l] + o1), b1, pair_size);
        for (int k = 0; k < dw; ++k) w.v[dst - 256 + k][l] = b0[k], w.v[dst - 256 + dw + k][l] = b1[k];
      }
      mark_v(dst, 2 * dw, tag);
    }
    return;
  }
  switch (i.op) {
    case OP_ds_read_u8: case OP_ds_read_i8: case OP_ds_read_u16: case OP_ds_read_i16:
    case OP_ds_read_u8_d16: case OP_ds_read_u8_d16_hi: case OP_ds_read_u16_d16: case OP_ds_read_u16_d16_hi: {
      const bool wide = i.op == OP_ds_read_u16 || i.op == OP_ds_read_i16 || i.op == OP_ds_read_u16_d16 ||
                        i.op == OP_ds_read_u16_d16_hi;
      LANES if ((exec >> l) & 1) {
        uint32_t raw = 0;
        rd(l, uint32_t(av[l] + off), &raw, wide ? 2 : 1);
        uint32_t& d = w.v[dst - 256][l];
        switch (i.op) {
          case OP_ds_read_i8: d = uint32_t(int32_t(int8_t(raw))); break;
          case OP_ds_read_i16: d = uint32_t(int32_t(int16_t(raw))); break;
          case OP_ds_read_u8_d16: case OP_ds_read_u16_d16: d = (d & 0xffff0000u) | raw; break;
          case OP_ds_read_u8_d16_hi: case OP_ds_read_u16_d16_hi: d = (d & 0xffff) | (raw << 16); break;
          default: d = raw; break;
        }
      }
      mark_v(dst, 1, tag);
      return;
    }
    case OP_ds_add_u32: case OP_ds_add_rtn_u32: case OP_ds_add_f32: case OP_ds_add_rtn_f32: case OP_ds_max_u32:
    case OP_ds_min_u32: case OP_ds_max_i32: case OP_ds_min_i32: case OP_ds_or_b32: case OP_ds_and_b32:
    case OP_ds_xor_b32: {
      check_v(d0, 1);
      const bool rtn = i.op == OP_ds_add_rtn_u32 || i.op == OP_ds_add_rtn_f32;
      LANES if ((exec >> l) & 1) {
        // atomics are exempt from the race check: go around lds_ptr's shadow
        const uint64_t at = uint32_t(av[l] + off);
        if (at + 4 > L.lds_allocated) {
          warn("LDS outside the allocation", "LDS atomic at " + std::to_string(at) + " past the workgroup's " +
                                                 std::to_string(L.lds_allocated) + " bytes: dropped as on gfx942");
          if (rtn) w.v[dst - 256][l] = 0;
          continue;
        }
        uint32_t old, v = w.v[d0 - 256][l], n;
        memcpy(&old, g.lds.data() + at, 4);
        switch (i.op) {
          case OP_ds_add_f32: case OP_ds_add_rtn_f32: n = as_u(as_f(old) + as_f(v)); break;
          case OP_ds_max_u32: n = std::max(old, v); break;
          case OP_ds_min_u32: n = std::min(old, v); break;
          case OP_ds_max_i32: n = uint32_t(std::max(int32_t(old), int32_t(v))); break;
          case OP_ds_min_i32: n = uint32_t(std::min(int32_t(old), int32_t(v))); break;
          case OP_ds_or_b32: n = old | v; break;
          case OP_ds_and_b32: n = old & v; break;
          case OP_ds_xor_b32: n = old ^ v; break;
          default: n = old + v; break;
        }
        memcpy(g.lds.data() + at, &n, 4);
        if (rtn) w.v[dst - 256][l] = old;
      }
      if (rtn) mark_v(dst, 1, tag);
      return;
    }
    case OP_ds_bpermute_b32: case OP_ds_permute_b32: {
      check_v(d0, 1);
      uint32_t r[64];
      memcpy(r, w.v[dst - 256], 256);
      const uint32_t* data = w.v[d0 - 256];
      if (i.op == OP_ds_bpermute_b32) {
        LANES if ((exec >> l) & 1) {
          int s = ((av[l] + off) >> 2) & 63;
          r[l] = ((exec >> s) & 1) ? data[s] : 0;
        }
      } else {
        LANES if ((exec >> l) & 1) r[l] = 0;
        LANES if ((exec >> l) & 1) r[((av[l] + off) >> 2) & 63] = data[l];
      }
      LANES if ((exec >> l) & 1) w.v[dst - 256][l] = r[l];
      mark_v(dst, 1, tag);
      return;
    }
    case OP_ds_swizzle_b32: {  // the data is in the address operand
      const uint32_t* data = av;
      uint32_t r[64];
      LANES {
        int s;
        if (off & 0x8000) {
          s = (l & ~3) | ((off >> (2 * (l & 3))) & 3);
        } else {
          const int and_mask = off & 31, or_mask = (off >> 5) & 31, xor_mask = (off >> 10) & 31;
          s = (l & ~31) | ((((l & 31) & and_mask) | or_mask) ^ xor_mask);
        }
        r[l] = ((exec >> s) & 1) ? data[s] : 0;
      }
      LANES if ((exec >> l) & 1) w.v[dst - 256][l] = r[l];
      mark_v(dst, 1, tag);
      return;
    }
    default: die("instruction not implemented");
  }
}

// ---- vector ALU ----------------------------------------------------------------------------
inline float fmin_hw(float a, float b) {  // IEEE mode: NaN operands lose to numbers
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return a < b || (a == b && std::signbit(a)) ? a : b;
}
inline float fmax_hw(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return a > b || (a == b && !std::signbit(a)) ? a : b;
}
inline uint32_t cvt_u32(float f) {
  if (std::isnan(f) || f <= 0) return 0;
  if (f >= 4294967296.0f) return 0xffffffffu;
  return uint32_t(f);
}
inline int32_t cvt_i32(double f) {
  if (std::isnan(f)) return 0;
  if (f <= -2147483648.0) return INT32_MIN;
  if (f >= 2147483647.0) return INT32_MAX;
  return int32_t(f);
}
inline uint32_t bfe(uint32_t x, uint32_t off, uint32_t width, bool sign) {
  off &= 31;
  width &= 31;
  if (width == 0) return 0;
  uint32_t r = (x >> off) & ((1u << width) - 1);
  if (off + width > 32) r = x >> off;
  if (sign) r = uint32_t(int32_t(r << (32 - width)) >> (32 - width));
  return r;
}
inline uint32_t perm_byte(uint64_t v, uint32_t sel) {
  if (sel <= 7) return (v >> (8 * sel)) & 0xff;
  if (sel == 8) return ((v >> 15) & 1) ? 0xff : 0;
  if (sel == 9) return ((v >> 31) & 1) ? 0xff : 0;
  if (sel == 10) return ((v >> 47) & 1) ? 0xff : 0;
  if (sel == 11) return ((v >> 63) & 1) ? 0xff : 0;
  if (sel == 12) return 0;
  return 0xff;
}

void Exec::valu() {
  const Inst& i = *in;
  uint32_t r[64];
  uint64_t r64[64];
#define A32 Src a = src(0);
#define AB32 Src a = src(0), b = src(1);
#define ABC32 Src a = src(0), b = src(1), c = src(2);
#define F(x) as_f(x)
#define MAP1(EXPR) { A32 LANES { uint32_t x = a[l]; r[l] = (EXPR); } wv(r); break; }
#define MAP2(EXPR) { AB32 LANES { uint32_t x = a[l], y = b[l]; r[l] = (EXPR); } wv(r); break; }
#define MAP3(EXPR) { ABC32 LANES { uint32_t x = a[l], y = b[l], z = c[l]; r[l] = (EXPR); } wv(r); break; }
#define FMAP1(EXPR) MAP1(as_u(EXPR))
#define FMAP2(EXPR) MAP2(as_u(EXPR))
#define FMAP3(EXPR) MAP3(as_u(EXPR))
  switch (i.op) {
    case OP_v_nop: break;
    case OP_v_mov_b32: case OP_v_accvgpr_mov_b32: case OP_v_accvgpr_read: case OP_v_accvgpr_write: MAP1(x)
    case OP_v_mov_b64: {
      Src64 a = src64(0);
      LANES r64[l] = a[l];
      wv64(r64);
      break;
    }
    case OP_v_readfirstlane_b32: {
      check_v(i.src[0], 1);
      const uint64_t e = w.exec();
      const int lane = e ? __builtin_ctzll(e) : 0;
      swrite(i.dst, i.src[0] >= 256 ? w.v[i.src[0] - 256][lane] : sread(i.src[0]));
      break;
    }
    case OP_v_readlane_b32: {
      check_v(i.src[0], 1);
      const int lane = sread(i.src[1]) & 63;
      swrite(i.dst, i.src[0] >= 256 ? w.v[i.src[0] - 256][lane] : sread(i.src[0]));
      break;
    }
    case OP_v_writelane_b32: {
      const uint32_t v = sread(i.src[0]);
      const int lane = sread(i.src[1]) & 63;
      w.v[i.dst - 256][lane] = v;
      break;
    }
    case OP_v_cndmask_b32: {
      AB32;
      const uint64_t m = sread64(i.src[2]);
      LANES r[l] = ((m >> l) & 1) ? b[l] : a[l];
      wv(r);
      break;
    }
    case OP_v_add_f32: FMAP2(F(x) + F(y))
    case OP_v_sub_f32: FMAP2(F(x) - F(y))
    case OP_v_subrev_f32: FMAP2(F(y) - F(x))
    case OP_v_mul_f32: FMAP2(F(x) * F(y))
    case OP_v_min_f32: FMAP2(fmin_hw(F(x), F(y)))
    case OP_v_max_f32: FMAP2(fmax_hw(F(x), F(y)))
    case OP_v_fma_f32: case OP_v_fmac_f32: FMAP3(std::fma(F(x), F(y), F(z)))
    case OP_v_mac_f32: case OP_v_mad_f32: FMAP3(F(x) * F(y) + F(z))
    case OP_v_min3_f32: FMAP3(fmin_hw(fmin_hw(F(x), F(y)), F(z)))
    case OP_v_max3_f32: FMAP3(fmax_hw(fmax_hw(F(x), F(y)), F(z)))
    case OP_v_med3_f32: FMAP3(fmax_hw(fmin_hw(F(x), F(y)), fmin_hw(fmax_hw(F(x), F(y)), F(z))))
    case OP_v_ldexp_f32: FMAP2(std::ldexp(F(x), int32_t(y)))
    case OP_v_mul_i32_i24: MAP2(uint32_t(int32_t(x << 8) >> 8) * uint32_t(int32_t(y << 8) >> 8))
    case OP_v_mul_hi_i32_i24: MAP2(uint32_t((int64_t(int32_t(x << 8) >> 8) * int64_t(int32_t(y << 8) >> 8)) >> 32))
    case OP_v_mul_u32_u24: MAP2((x & 0xffffff) * (y & 0xffffff))
    case OP_v_mul_hi_u32_u24: MAP2(uint32_t((uint64_t(x & 0xffffff) * (y & 0xffffff)) >> 32))
    case OP_v_mad_i32_i24: MAP3(uint32_t(int32_t(x << 8) >> 8) * uint32_t(int32_t(y << 8) >> 8) + z)
    case OP_v_mad_u32_u24: MAP3((x & 0xffffff) * (y & 0xffffff) + z)
    case OP_v_min_i32: MAP2(uint32_t(std::min(int32_t(x), int32_t(y))))
    case OP_v_max_i32: MAP2(uint32_t(std::max(int32_t(x), int32_t(y))))
    case OP_v_min_u32: MAP2(std::min(x, y))
    case OP_v_max_u32: MAP2(std::max(x, y))
    case OP_v_min3_i32: MAP3(uint32_t(std::min({int32_t(x), int32_t(y), int32_t(z)})))
    case OP_v_max3_i32: MAP3(uint32_t(std::max({int32_t(x), int32_t(y), int32_t(z)})))
    case OP_v_med3_i32: MAP3(uint32_t(std::max(std::min(int32_t(x), int32_t(y)), std::min(std::max(int32_t(x), int32_t(y)), int32_t(z)))))
    case OP_v_min3_u32: MAP3(std::min({x, y, z}))
    case OP_v_max3_u32: MAP3(std::max({x, y, z}))
    case OP_v_med3_u32: MAP3(std::max(std::min(x, y), std::min(std::max(x, y), z)))
    case OP_v_lshrrev_b32: MAP2(y >> (x & 31))
    case OP_v_ashrrev_i32: MAP2(uint32_t(int32_t(y) >> (x & 31)))
    case OP_v_lshlrev_b32: MAP2(y << (x & 31))
    case OP_v_and_b32: MAP2(x & y)
    case OP_v_or_b32: MAP2(x | y)
    case OP_v_xor_b32: MAP2(x ^ y)
    case OP_v_xnor_b32: MAP2(~(x ^ y))
    case OP_v_not_b32: MAP1(~x)
    case OP_v_bfrev_b32: MAP1([](uint32_t v) { uint32_t o = 0; for (int b = 0; b < 32; ++b) o |= ((v >> b) & 1) << (31 - b); return o; }(x))
    case OP_v_ffbh_u32: MAP1(x ? uint32_t(__builtin_clz(x)) : 0xffffffffu)
    case OP_v_ffbl_b32: MAP1(x ? uint32_t(__builtin_ctz(x)) : 0xffffffffu)
    case OP_v_ffbh_i32: MAP1((x == 0 || x == 0xffffffffu) ? 0xffffffffu : uint32_t(__builtin_clz(int32_t(x) < 0 ? ~x : x) - 1))
    case OP_v_add_u32: case OP_v_add_i32: {
      if (i.clamp) MAP2(uint64_t(x) + y > 0xffffffffu ? 0xffffffffu : x + y)
      MAP2(x + y)
    }
    case OP_v_sub_u32: case OP_v_sub_i32: MAP2(x - y)
    case OP_v_subrev_u32: MAP2(y - x)
    case OP_v_add_co_u32: case OP_v_sub_co_u32: case OP_v_subrev_co_u32:
    case OP_v_addc_co_u32: case OP_v_subb_co_u32: case OP_v_subbrev_co_u32: {
      AB32;
      const uint64_t cin = (i.op == OP_v_addc_co_u32 || i.op == OP_v_subb_co_u32 || i.op == OP_v_subbrev_co_u32)
                               ? sread64(i.src[2]) : 0;
      uint64_t carry = 0;
      const uint64_t m = lanes_to_write();
      LANES {
        uint64_t x = a[l], y = b[l], ci = (cin >> l) & 1, res;
        bool co;
        switch (i.op) {
          case OP_v_add_co_u32: res = x + y; co = res >> 32; break;
          case OP_v_addc_co_u32: res = x + y + ci; co = res >> 32; break;
          case OP_v_sub_co_u32: res = x - y; co = y > x; break;
          case OP_v_subb_co_u32: res = x - y - ci; co = y + ci > x; break;
          case OP_v_subrev_co_u32: res = y - x; co = x > y; break;
          default: res = y - x - ci; co = x + ci > y; break;
        }
        r[l] = uint32_t(res);
        if (co && ((m >> l) & 1)) carry |= 1ull << l;
      }
      wv(r);
      wmask(i.sdst, carry);
      break;
    }
    case OP_v_mul_lo_u32: MAP2(x * y)
    case OP_v_mul_hi_u32: MAP2(uint32_t((uint64_t(x) * y) >> 32))
    case OP_v_mul_hi_i32: MAP2(uint32_t((int64_t(int32_t(x)) * int32_t(y)) >> 32))
    case OP_v_mad_u64_u32: case OP_v_mad_i64_i32: {
      AB32;
      Src64 c = src64(2);
      uint64_t carry = 0;
      const uint64_t m = lanes_to_write();
      LANES {
        if (i.op == OP_v_mad_u64_u32) {
          unsigned __int128 p = (unsigned __int128)(uint64_t(a[l]) * b[l]) + c[l];
          r64[l] = uint64_t(p);
          if ((p >> 64) && ((m >> l) & 1)) carry |= 1ull << l;
        } else {
          __int128 p = (__int128)(int64_t(int32_t(a[l])) * int64_t(int32_t(b[l]))) + (__int128)int64_t(c[l]);
          r64[l] = uint64_t(p);
          if ((p != (__int128)int64_t(r64[l])) && ((m >> l) & 1)) carry |= 1ull << l;
        }
      }
      wv64(r64);
      if (i.sdst != 0xffff && i.sdst < 128) wmask(i.sdst, carry);
      break;
    }
    case OP_v_bfe_u32: MAP3(bfe(x, y, z, false))
    case OP_v_bfe_i32: MAP3(bfe(x, y, z, true))
    case OP_v_bfi_b32: MAP3((x & y) | (~x & z))
    case OP_v_bfm_b32: MAP2(((1u << (x & 31)) - 1) << (y & 31))
    case OP_v_alignbit_b32: MAP3(uint32_t(((uint64_t(x) << 32) | y) >> (z & 31)))
    case OP_v_alignbyte_b32: MAP3(uint32_t(((uint64_t(x) << 32) | y) >> (8 * (z & 3))))
    case OP_v_perm_b32: MAP3(perm_byte((uint64_t(x) << 32) | y, z & 0xff) | (perm_byte((uint64_t(x) << 32) | y, (z >> 8) & 0xff) << 8) |
                             (perm_byte((uint64_t(x) << 32) | y, (z >> 16) & 0xff) << 16) | (perm_byte((uint64_t(x) << 32) | y, z >> 24) << 24))
    case OP_v_lshl_add_u32: MAP3((x << (y & 31)) + z)
    case OP_v_add_lshl_u32: MAP3((x + y) << (z & 31))
    case OP_v_add3_u32: MAP3(x + y + z)
    case OP_v_lshl_or_b32: MAP3((x << (y & 31)) | z)
    case OP_v_and_or_b32: MAP3((x & y) | z)
    case OP_v_or3_b32: MAP3(x | y | z)
    case OP_v_xad_u32: MAP3((x ^ y) + z)
    case OP_v_bcnt_u32_b32: MAP2(uint32_t(__builtin_popcount(x)) + y)
    case OP_v_mbcnt_lo_u32_b32: { AB32 LANES r[l] = uint32_t(__builtin_popcount(a[l] & uint32_t((1ull << std::min(l, 32)) - 1))) + b[l]; wv(r); break; }
    case OP_v_mbcnt_hi_u32_b32: { AB32 LANES r[l] = uint32_t(__builtin_popcount(a[l] & uint32_t(l <= 32 ? 0 : (1ull << (l - 32)) - 1))) + b[l]; wv(r); break; }
    case OP_v_lshl_add_u64: {
      Src64 a = src64(0), c = src64(2);
      Src b = src(1);
      LANES r64[l] = (a[l] << (b[l] & 7)) + c[l];
      wv64(r64);
      break;
    }
    case OP_v_lshlrev_b64: case OP_v_lshrrev_b64: case OP_v_ashrrev_i64: {
      Src a = src(0);
      Src64 b = src64(1);
      LANES {
        const uint32_t sh = a[l] & 63;
        r64[l] = i.op == OP_v_lshlrev_b64 ? b[l] << sh : i.op == OP_v_lshrrev_b64 ? b[l] >> sh : uint64_t(int64_t(b[l]) >> sh);
      }
      wv64(r64);
      break;
    }
    case OP_v_add_f64: case OP_v_mul_f64: case OP_v_min_f64: case OP_v_max_f64: case OP_v_ldexp_f64: {
      Src64 a = src64(0);
      if (i.op == OP_v_ldexp_f64) {
        Src b = src(1);
        LANES r64[l] = as_u64(std::ldexp(as_d(a[l]), int32_t(b[l])));
      } else {
        Src64 b = src64(1);
        LANES {
          double x = as_d(a[l]), y = as_d(b[l]);
          double v = i.op == OP_v_add_f64 ? x + y : i.op == OP_v_mul_f64 ? x * y
                   : i.op == OP_v_min_f64 ? (std::isnan(x) ? y : std::isnan(y) ? x : std::fmin(x, y))
                                          : (std::isnan(x) ? y : std::isnan(y) ? x : std::fmax(x, y));
          r64[l] = as_u64(v);
        }
      }
      wv64(r64);
      break;
    }
    case OP_v_fma_f64: {
      Src64 a = src64(0), b = src64(1), c = src64(2);
      LANES r64[l] = as_u64(std::fma(as_d(a[l]), as_d(b[l]), as_d(c[l])));
      wv64(r64);
      break;
    }
    case OP_v_cvt_f32_i32: FMAP1(float(int32_t(x)))
    case OP_v_cvt_f32_u32: FMAP1(float(x))
    case OP_v_cvt_u32_f32: MAP1(cvt_u32(F(x)))
    case OP_v_cvt_i32_f32: MAP1(uint32_t(cvt_i32(F(x))))
    case OP_v_cvt_rpi_i32_f32: MAP1(uint32_t(cvt_i32(std::floor(double(F(x)) + 0.5))))
    case OP_v_cvt_flr_i32_f32: MAP1(uint32_t(cvt_i32(std::floor(F(x)))))
    case OP_v_cvt_f32_ubyte0: FMAP1(float(x & 0xff))
    case OP_v_cvt_f32_ubyte1: FMAP1(float((x >> 8) & 0xff))
    case OP_v_cvt_f32_ubyte2: FMAP1(float((x >> 16) & 0xff))
    case OP_v_cvt_f32_ubyte3: FMAP1(float(x >> 24))
    case OP_v_cvt_f32_bf16: FMAP1(bf16_to_f32(uint16_t(x)))
    case OP_v_cvt_f16_f32: { A32 const uint32_t* d = w.v[i.dst - 256];
      LANES r[l] = (i.opsel & 8) ? ((d[l] & 0xffff) | (uint32_t(f32_to_f16(F(a[l]))) << 16)) : ((d[l] & 0xffff0000u) | f32_to_f16(F(a[l])));
      wv(r); break; }
    case OP_v_cvt_f32_f16: FMAP1(f16_to_f32(uint16_t((i.opsel & 1) ? x >> 16 : x)))
    case OP_v_cvt_f32_f64: { Src64 a = src64(0); LANES r[l] = as_u(float(as_d(a[l]))); wv(r); break; }
    case OP_v_cvt_i32_f64: { Src64 a = src64(0); LANES r[l] = uint32_t(cvt_i32(as_d(a[l]))); wv(r); break; }
    case OP_v_cvt_u32_f64: { Src64 a = src64(0); LANES { double d = as_d(a[l]); r[l] = std::isnan(d) || d <= 0 ? 0 : d >= 4294967295.0 ? 0xffffffffu : uint32_t(d); } wv(r); break; }
    case OP_v_cvt_f64_f32: { A32 LANES r64[l] = as_u64(double(F(a[l]))); wv64(r64); break; }
    case OP_v_cvt_f64_i32: { A32 LANES r64[l] = as_u64(double(int32_t(a[l]))); wv64(r64); break; }
    case OP_v_cvt_f64_u32: { A32 LANES r64[l] = as_u64(double(a[l])); wv64(r64); break; }
    case OP_v_trunc_f32: FMAP1(std::trunc(F(x)))
    case OP_v_ceil_f32: FMAP1(std::ceil(F(x)))
    case OP_v_rndne_f32: FMAP1(std::nearbyint(F(x)))
    case OP_v_floor_f32: FMAP1(std::floor(F(x)))
    case OP_v_fract_f32: FMAP1(std::isinf(F(x)) ? std::nanf("") : std::fmin(F(x) - std::floor(F(x)), 0x1.fffffep-1f))
    case OP_v_exp_f32: FMAP1(std::exp2(F(x)))
    case OP_v_log_f32: FMAP1(std::log2(F(x)))
    case OP_v_rcp_f32: case OP_v_rcp_iflag_f32: FMAP1(1.0f / F(x))
    case OP_v_rsq_f32: FMAP1(1.0f / std::sqrt(F(x)))
    case OP_v_sqrt_f32: FMAP1(std::sqrt(F(x)))
    case OP_v_frexp_exp_i32_f32: MAP1(std::isfinite(F(x)) && F(x) != 0 ? uint32_t(std::ilogb(F(x)) + 1) : 0u)
    case OP_v_frexp_mant_f32: FMAP1(std::isfinite(F(x)) ? [](float f) { int e; return std::frexp(f, &e); }(F(x)) : F(x))
    case OP_v_rcp_f64: case OP_v_sqrt_f64: case OP_v_rsq_f64: case OP_v_trunc_f64: case OP_v_floor_f64:
    case OP_v_ceil_f64: case OP_v_rndne_f64: case OP_v_fract_f64: {
      Src64 a = src64(0);
      LANES {
        double d = as_d(a[l]), v;
        switch (i.op) {
          case OP_v_rcp_f64: v = 1.0 / d; break;
          case OP_v_sqrt_f64: v = std::sqrt(d); break;
          case OP_v_rsq_f64: v = 1.0 / std::sqrt(d); break;
          case OP_v_trunc_f64: v = std::trunc(d); break;
          case OP_v_floor_f64: v = std::floor(d); break;
          case OP_v_ceil_f64: v = std::ceil(d); break;
          case OP_v_rndne_f64: v = std::nearbyint(d); break;
          default: v = std::fmin(d - std::floor(d), 0x1.fffffffffffffp-1); break;
        }
        r64[l] = as_u64(v);
      }
      wv64(r64);
      break;
    }
    case OP_v_div_scale_f32: {
      // Scales nothing (S0 is returned as is, VCC says "no scaling"): v_div_fixup then
      // returns the correctly rounded quotient of its unscaled operands, which is what the
      // whole scale/fmas/fixup sequence computes.
      A32;
      LANES r[l] = a[l];
      wv(r);
      wmask(i.sdst, 0);
      break;
    }
    case OP_v_div_fmas_f32: FMAP3(std::fma(F(x), F(y), F(z)))
    case OP_v_div_fixup_f32: FMAP3(F(z) / F(y))
    case OP_v_cvt_pkrtz_f16_f32: {
      AB32;
      LANES {
        // round toward zero: convert, then step back when the rounding went away from zero
        auto rtz = [](float f) {
          uint16_t h = f32_to_f16(f);
          float back = f16_to_f32(h);
          if (std::isfinite(f) && std::fabs(back) > std::fabs(f)) h = uint16_t(h - 1);
          return uint32_t(h);
        };
        r[l] = rtz(F(a[l])) | (rtz(F(b[l])) << 16);
      }
      wv(r);
      break;
    }
    case OP_v_cvt_pk_u16_u32: MAP2(std::min(x, 0xffffu) | (std::min(y, 0xffffu) << 16))
    case OP_v_cvt_pk_i16_i32: MAP2(uint32_t(uint16_t(std::clamp(int32_t(x), -32768, 32767))) | (uint32_t(uint16_t(std::clamp(int32_t(y), -32768, 32767))) << 16))
    case OP_v_pack_b32_f16: MAP2(((i.opsel & 1) ? x >> 16 : x & 0xffff) | (((i.opsel & 2) ? y >> 16 : y & 0xffff) << 16))
    case OP_v_cvt_pk_u8_f32: {
      ABC32;
      LANES {
        const uint32_t byte = b[l] & 3;
        float f = F(a[l]);
        uint32_t v = std::isnan(f) ? 0 : uint32_t(std::clamp(std::nearbyint(f), 0.0f, 255.0f));
        r[l] = (c[l] & ~(0xffu << (8 * byte))) | (v << (8 * byte));
      }
      wv(r);
      break;
    }
    case OP_v_swap_b32: {
      check_v(i.src[0], 1);
      const uint64_t m = w.exec();
      uint32_t* x = w.v[i.dst - 256];
      uint32_t* y = w.v[i.src[0] - 256];
      LANES if ((m >> l) & 1) std::swap(x[l], y[l]);
      break;
    }
    case OP_v_cvt_f32_fp8: case OP_v_cvt_f32_bf8: {
      A32;
      const float* table = i.op == OP_v_cvt_f32_fp8 ? fp8_tables().fp8 : fp8_tables().bf8;
      const int byte = i.fmt == F_VOP3 ? (i.opsel & 3) : 0;
      LANES r[l] = as_u(table[(a[l] >> (8 * byte)) & 0xff]);
      wv(r);
      break;
    }
    case OP_v_cvt_pk_f32_fp8: case OP_v_cvt_pk_f32_bf8: {
      A32;
      const float* table = i.op == OP_v_cvt_pk_f32_fp8 ? fp8_tables().fp8 : fp8_tables().bf8;
      const int word = i.fmt == F_VOP3 ? (i.opsel & 1) : (in->ext == 2 && in->src_sel[0] == 5 ? 0 : 0);
      LANES {
        const uint32_t h = (a[l] >> (16 * word)) & 0xffff;
        r64[l] = as_u(table[h & 0xff]) | (uint64_t(as_u(table[h >> 8])) << 32);
      }
      wv64(r64);
      break;
    }
    case OP_v_cvt_pk_fp8_f32: case OP_v_cvt_pk_bf8_f32: {
      AB32;
      const Fp8Spec f = i.op == OP_v_cvt_pk_fp8_f32 ? kFp8 : kBf8;
      const uint32_t* d = w.v[i.dst - 256];
      const bool hi = (i.opsel >> 3) & 1;
      const bool saturate = (w.mode >> 23) & 1;  // MODE.FP16_OVFL
      LANES {
        const uint32_t pk = f32_to_fp8(f, F(a[l]), saturate) | (uint32_t(f32_to_fp8(f, F(b[l]), saturate)) << 8);
        r[l] = hi ? ((d[l] & 0xffff) | (pk << 16)) : ((d[l] & 0xffff0000u) | pk);
      }
      wv(r);
      break;
    }
    case OP_v_add_u16: MAP2((x + y) & 0xffff)
    case OP_v_sub_u16: MAP2((x - y) & 0xffff)
    case OP_v_mul_lo_u16: MAP2((x * y) & 0xffff)
    case OP_v_lshlrev_b16: MAP2((y << (x & 15)) & 0xffff)
    case OP_v_lshrrev_b16: MAP2((y & 0xffff) >> (x & 15))
    case OP_v_ashrrev_i16: MAP2(uint32_t(int16_t(y) >> (x & 15)) & 0xffff)
    case OP_v_max_u16: MAP2(std::max(x & 0xffff, y & 0xffff))
    case OP_v_min_u16: MAP2(std::min(x & 0xffff, y & 0xffff))
    case OP_v_max_i16: MAP2(uint32_t(uint16_t(std::max(int16_t(x), int16_t(y)))))
    case OP_v_min_i16: MAP2(uint32_t(uint16_t(std::min(int16_t(x), int16_t(y)))))
    case OP_v_mad_u32_u16: MAP3((x & 0xffff) * (y & 0xffff) + z)
    case OP_v_mad_i32_i16: MAP3(uint32_t(int32_t(int16_t(x)) * int32_t(int16_t(y))) + z)
    case OP_v_sat_pk_u8_i16: MAP1(uint32_t(std::clamp(int32_t(int16_t(x)), 0, 255)) | (uint32_t(std::clamp(int32_t(int16_t(x >> 16)), 0, 255)) << 8))
    case OP_v_dot2c_f32_bf16: FMAP3(std::fma(bf16_to_f32(uint16_t(x >> 16)), bf16_to_f32(uint16_t(y >> 16)),
                                             std::fma(bf16_to_f32(uint16_t(x)), bf16_to_f32(uint16_t(y)), F(z))))
    default: die("instruction not implemented");
  }
#undef A32
#undef AB32
#undef ABC32
#undef MAP1
#undef MAP2
#undef MAP3
#undef FMAP1
#undef FMAP2
#undef FMAP3
}

// VOP3P: packed math. 32-bit halves of 64-bit operands (f32 pairs) or 16-bit halves of a dword.
void Exec::vop3p() {
  const Inst& i = *in;
  if (i.op == OP_v_mfma) return mfma();
  if (i.op == OP_v_accvgpr_read || i.op == OP_v_accvgpr_write) return valu();
  uint32_t r[64];
  uint64_t r64[64];
  const bool pk32 = i.op == OP_v_pk_fma_f32 || i.op == OP_v_pk_mul_f32 || i.op == OP_v_pk_add_f32 || i.op == OP_v_pk_mov_b32;
  if (pk32) {
    const int n = i.op == OP_v_pk_fma_f32 ? 3 : 2;
    Src64 s[3] = {src64(0), src64(1), n == 3 ? src64(2) : Src64{nullptr, nullptr, 0}};
    LANES {
      uint32_t lo[3], hi[3];
      for (int k = 0; k < n; ++k) {
        const uint64_t v = s[k][l];
        lo[k] = uint32_t(v >> (((i.opsel >> k) & 1) ? 32 : 0));
        hi[k] = uint32_t(v >> (((i.opsel_hi >> k) & 1) ? 32 : 0));
        if (i.op != OP_v_pk_mov_b32) {
          if ((i.neg >> k) & 1) lo[k] ^= 0x80000000u;
          if ((i.neg_hi >> k) & 1) hi[k] ^= 0x80000000u;
        }
      }
      auto op = [&](const uint32_t* v) -> uint32_t {
        switch (i.op) {
          case OP_v_pk_fma_f32: return as_u(std::fma(as_f(v[0]), as_f(v[1]), as_f(v[2])));
          case OP_v_pk_mul_f32: return as_u(as_f(v[0]) * as_f(v[1]));
          case OP_v_pk_add_f32: return as_u(as_f(v[0]) + as_f(v[1]));
          default: return v[0];
        }
      };
      uint32_t rl, rh;
      if (i.op == OP_v_pk_mov_b32) {  // D.lo = S0[op_sel[0]], D.hi = S1[op_sel[1]]
        rl = lo[0];
        rh = lo[1];
      } else {
        rl = op(lo);
        rh = op(hi);
      }
      r64[l] = uint64_t(rl) | (uint64_t(rh) << 32);
    }
    wv64(r64);
    return;
  }
  const int n = (i.op == OP_v_pk_fma_f16) ? 3 : 2;
  Src s[3] = {src(0), src(1), n == 3 ? src(2) : Src{nullptr, 0}};
  if (i.op == OP_v_dot2_f32_bf16) {
    Src c = src(2);
    LANES {
      const uint32_t x = s[0][l], y = s[1][l];
      r[l] = as_u(std::fma(bf16_to_f32(uint16_t(x >> 16)), bf16_to_f32(uint16_t(y >> 16)),
                           std::fma(bf16_to_f32(uint16_t(x)), bf16_to_f32(uint16_t(y)), as_f(c[l]))));
    }
    wv(r);
    return;
  }
  LANES {
    uint32_t lo[3], hi[3];
    for (int k = 0; k < n; ++k) {
      const uint32_t v = s[k][l];
      lo[k] = ((i.opsel >> k) & 1) ? v >> 16 : v & 0xffff;
      hi[k] = ((i.opsel_hi >> k) & 1) ? v >> 16 : v & 0xffff;
      if (i.op == OP_v_pk_fma_f16 || i.op == OP_v_pk_add_f16 || i.op == OP_v_pk_mul_f16) {
        if ((i.neg >> k) & 1) lo[k] ^= 0x8000u;
        if ((i.neg_hi >> k) & 1) hi[k] ^= 0x8000u;
      }
    }
    auto op = [&](const uint32_t* v) -> uint32_t {
      const uint32_t x = v[0], y = v[1];
      switch (i.op) {
        case OP_v_pk_add_u16: case OP_v_pk_add_i16: return (x + y) & 0xffff;
        case OP_v_pk_sub_u16: return (x - y) & 0xffff;
        case OP_v_pk_mul_lo_u16: return (x * y) & 0xffff;
        case OP_v_pk_lshlrev_b16: return (y << (x & 15)) & 0xffff;
        case OP_v_pk_lshrrev_b16: return y >> (x & 15);
        case OP_v_pk_ashrrev_i16: return uint32_t(int16_t(y) >> (x & 15)) & 0xffff;
        case OP_v_pk_max_i16: return uint16_t(std::max(int16_t(x), int16_t(y)));
        case OP_v_pk_min_i16: return uint16_t(std::min(int16_t(x), int16_t(y)));
        case OP_v_pk_max_u16: return std::max(x, y);
        case OP_v_pk_min_u16: return std::min(x, y);
        case OP_v_pk_add_f16: return f32_to_f16(f16_to_f32(uint16_t(x)) + f16_to_f32(uint16_t(y)));
        case OP_v_pk_mul_f16: return f32_to_f16(f16_to_f32(uint16_t(x)) * f16_to_f32(uint16_t(y)));
        case OP_v_pk_fma_f16: {
          _Float16 a, b, c;
          uint16_t xa = uint16_t(x), xb = uint16_t(y), xc = uint16_t(v[2]);
          memcpy(&a, &xa, 2); memcpy(&b, &xb, 2); memcpy(&c, &xc, 2);
          return f32_to_f16(float(std::fma(double(a), double(b), double(c))));
        }
        default: die("instruction not implemented");
      }
    };
    r[l] = op(lo) | (op(hi) << 16);
  }
  wv(r);
}

// VOPC: a lane mask into VCC / an SGPR pair (and EXEC for v_cmpx).
void Exec::compare() {
  const Inst& i = *in;
  const int cond = i.sub, type = i.ctype;  // types: f16 f32 f64 i16 i32 i64 u16 u32 u64
  const uint64_t exec = w.exec();
  uint64_t mask = 0;
  const bool wide = type == 2 || type == 5 || type == 8;
  auto fcmp = [&](double x, double y) -> bool {
    const bool un = std::isnan(x) || std::isnan(y);
    switch (cond) {
      case 0: return false;
      case 1: return x < y;
      case 2: return x == y;
      case 3: return x <= y;
      case 4: return x > y;
      case 5: return x < y || x > y;
      case 6: return x >= y;
      case 7: return !un;
      case 8: return un;
      case 9: return !(x >= y);
      case 10: return !(x < y || x > y);
      case 11: return !(x > y);
      case 12: return !(x <= y);
      case 13: return !(x == y);
      case 14: return !(x < y);
      default: return true;
    }
  };
  auto icmp = [&](auto x, auto y) -> bool {
    switch (cond) {
      case 0: return false;
      case 1: return x < y;
      case 2: return x == y;
      case 3: return x <= y;
      case 4: return x > y;
      case 16: case 13: case 5: return x != y;
      case 6: return x >= y;
      default: return true;
    }
  };
  auto cls = [&](double x, uint32_t m, bool denorm) -> bool {
    if (std::isnan(x)) return (m & 3) != 0;  // signalling/quiet NaN not told apart
    const bool neg = std::signbit(x);
    if (std::isinf(x)) return (m >> (neg ? 2 : 9)) & 1;
    if (x == 0) return (m >> (neg ? 5 : 6)) & 1;
    if (denorm) return (m >> (neg ? 4 : 7)) & 1;
    return (m >> (neg ? 3 : 8)) & 1;
  };
  if (cond == 18) {  // class
    Src b = src(1);
    if (type == 2) {
      Src64 a = src64(0);
      LANES if (cls(as_d(a[l]), b[l], std::fpclassify(as_d(a[l])) == FP_SUBNORMAL)) mask |= 1ull << l;
    } else {
      Src a = src(0);
      LANES {
        float f = type == 0 ? f16_to_f32(uint16_t(a[l])) : as_f(a[l]);
        bool sub = type == 0 ? ((a[l] & 0x7c00) == 0 && (a[l] & 0x3ff)) : std::fpclassify(f) == FP_SUBNORMAL;
        if (cls(f, b[l], sub)) mask |= 1ull << l;
      }
    }
  } else if (wide) {
    Src64 a = src64(0), b = src64(1);
    LANES {
      bool t;
      if (type == 2) t = fcmp(as_d(a[l]), as_d(b[l]));
      else if (type == 5) t = icmp(int64_t(a[l]), int64_t(b[l]));
      else t = icmp(a[l], b[l]);
      if (t) mask |= 1ull << l;
    }
  } else {
    Src a = src(0), b = src(1);
    LANES {
      const uint32_t x = a[l], y = b[l];
      bool t;
      switch (type) {
        case 0: t = fcmp(f16_to_f32(uint16_t(x)), f16_to_f32(uint16_t(y))); break;
        case 1: t = fcmp(as_f(x), as_f(y)); break;
        case 3: t = icmp(int16_t(x), int16_t(y)); break;
        case 4: t = icmp(int32_t(x), int32_t(y)); break;
        case 6: t = icmp(uint16_t(x), uint16_t(y)); break;
        default: t = icmp(x, y); break;
      }
      if (t) mask |= 1ull << l;
    }
  }
  mask &= exec;
  if (i.op == OP_v_cmpx) {
    swrite64(kExec, mask);
    if (i.fmt == F_VOP3 && i.sdst < 128) wmask(i.sdst, mask);
    else if (i.fmt != F_VOP3) wmask(i.sdst, mask);
  } else {
    wmask(i.sdst, mask);
  }
}

// MFMA / SMFMAC (mfma.cpp): operands checked for outstanding loads, scalar sources read here.
void Exec::mfma() {
  const auto t0 = std::chrono::steady_clock::now();
  const MatrixOperands ops = matrix_operands(*in);
  const int dwords[3] = {ops.a, ops.b, ops.src2};
  uint64_t scalar[3] = {0, 0, 0};
  for (int s = 0; s < 3; ++s) {
    if (in->src[s] >= 256) check_v(in->src[s], dwords[s]);
    else scalar[s] = s == 2 && !ops.src2_is_f64 ? sread(in->src[s], K_F32) : sread64(in->src[s], s == 2 ? K_F64 : K_INT);
  }
  if (ops.reads_d) check_v(in->dst, ops.d);
  execute_matrix_op(*in, w, L, scalar);
  ++w.mfmas;
  w.mfma_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---- the interpreter loop -------------------------------------------------------------------
void Exec::run(uint64_t budget) {
  const std::vector<Inst>& insts = L.co->insts;
  const int32_t count = int32_t(insts.size());
  static const int trace_group = getenv("ISA_ENGINE_TRACE") ? atoi(getenv("ISA_ENGINE_TRACE")) : -1;
  const bool trace = trace_group >= 0 && uint32_t(trace_group) == g.linear;  // wave 0 of that workgroup
  for (uint64_t n = 0; n < budget; ++n) {
    if (w.pc < 0 || w.pc >= count) {
      std::ostringstream os;
      os << L.k->symbol << ": the program counter left the code object (instruction index " << w.pc << ")";
      throw Fault(os.str());
    }
    in = &insts[size_t(w.pc)];
    const Inst& i = *in;
    ++w.instructions;
    int32_t next = w.pc + 1;
    if (i.op == OP_UNKNOWN) die("unknown or unimplemented instruction");
    switch (i.fmt) {
      case F_SOP1:
        if (i.op == OP_s_setpc_b64 || i.op == OP_s_swappc_b64) {
          const uint64_t target = sread64(i.src[0]) - uint64_t(reinterpret_cast<uintptr_t>(L.co->image.data()));
          if (i.op == OP_s_swappc_b64) swrite64(i.dst, uint64_t(reinterpret_cast<uintptr_t>(L.co->image.data())) + i.addr + 4);
          auto it = L.co->by_addr.find(target);
          if (it == L.co->by_addr.end()) die("jump to an address that is not an instruction");
          next = it->second;
          break;
        }
        salu();
        break;
      case F_SOP2: case F_SOPC: case F_SOPK:
        if (i.op == OP_s_call_b64) {
          swrite64(i.dst, uint64_t(reinterpret_cast<uintptr_t>(L.co->image.data())) + i.addr + 4);
          auto it = L.co->by_addr.find(i.addr + 4 + int64_t(i.simm16) * 4);
          if (it == L.co->by_addr.end()) die("call to an address that is not an instruction");
          next = it->second;
          break;
        }
        salu();
        break;
      case F_SOPP: {
        bool taken = false;
        switch (i.op) {
          case OP_s_endpgm: w.done = true; w.pc = next; return;
          case OP_s_barrier: w.at_barrier = true; w.pc = next; return;
          case OP_s_waitcnt: sopp_waitcnt(); break;
          case OP_s_branch: taken = true; break;
          case OP_s_cbranch_scc0: taken = !w.scc; break;
          case OP_s_cbranch_scc1: taken = w.scc; break;
          case OP_s_cbranch_vccz: taken = (w.s[kVcc] | w.s[kVcc + 1]) == 0; break;
          case OP_s_cbranch_vccnz: taken = (w.s[kVcc] | w.s[kVcc + 1]) != 0; break;
          case OP_s_cbranch_execz: taken = w.exec() == 0; break;
          case OP_s_cbranch_execnz: taken = w.exec() != 0; break;
          case OP_s_trap: die("s_trap (a device-side abort or assert)");
          case OP_s_sethalt: die("s_sethalt");
          default: break;  // s_nop, s_sleep, s_setprio, hints
        }
        if (taken) {
          if (i.target < 0) die("branch to an address that is not an instruction");
          if (i.target <= w.pc) count_loop_iteration();
          next = i.target;
        }
        break;
      }
      case F_SMEM: smem(); break;
      case F_VOP1: case F_VOP2: case F_VOP3:
        if (i.op == OP_v_cmp || i.op == OP_v_cmpx) compare();
        else valu();
        break;
      case F_VOPC: compare(); break;
      case F_VOP3P: vop3p(); break;
      case F_DS: ds(); break;
      case F_FLAT: case F_GLOBAL: case F_SCRATCH: case F_MUBUF: vmem(); break;
      default: die("instruction format not implemented");
    }
    if (!contested.empty()) settle_lds_writes();
    if (trace && w.id == 0) {
      fprintf(stderr, "%6llx %-28s", (unsigned long long)i.addr, i.name);
      if (i.dst != 0xffff && i.dst >= 256 && i.dst < 768) fprintf(stderr, " d=%08x %08x", w.v[i.dst - 256][0], w.v[i.dst - 256][1]);
      else if (i.dst < 128) fprintf(stderr, " s=%08x", w.s[i.dst]);
      fprintf(stderr, " exec=%016llx scc=%d\n", (unsigned long long)w.exec(), int(w.scc));
    }
    w.pc = next;
  }
}

void Exec::sopp_waitcnt() {
  const uint32_t s = uint16_t(in->simm16);
  const uint32_t vm = (s & 0xf) | ((s >> 10) & 0x30);
  const uint32_t lgkm = (s >> 8) & 0xf;
  // NOTE: counters decrement in issue order for VMEM loads and LDS; SMEM may return out of
  // order, which this in-order model treats like LDS.
  if (w.vm_issued - w.vm_done > vm) w.vm_done = w.vm_issued - vm;
  if (w.lgkm_issued - w.lgkm_done > lgkm) w.lgkm_done = w.lgkm_issued - lgkm;
  if (lgkm == 0) w.smem_done = w.smem_last;
}

}  // namespace

// ---- wave initial state --------------------------------------------------------------------
void init_wave(Wave& w, int index, const Workgroup& g, const Launch& L) {
  const KernelInfo& k = *L.k;
  memset(w.s, 0, sizeof w.s);
  memset(w.vpend, 0, sizeof w.vpend);
  memset(w.spend, 0, sizeof w.spend);
  w.scc = false;
  w.pc = k.first;
  w.done = w.at_barrier = false;
  w.loop_pc = -1;
  w.loop_count = 0;
  w.loop_reads_memory = false;
  w.id = index;
  w.vm_issued = w.vm_done = w.lgkm_issued = w.lgkm_done = w.smem_last = w.smem_done = 0;
  // MODE from compute_pgm_rsrc1: FLOAT_ROUND_MODE_32/16_64 [15:12], FLOAT_DENORM_MODE_32/16_64 [19:16]
  // MODE: round [3:0], denorm [7:4], DX10_CLAMP [8], IEEE [9], FP16_OVFL [23]
  w.mode = ((k.rsrc1 >> 12) & 0xff) | (((k.rsrc1 >> 21) & 1) << 8) | (((k.rsrc1 >> 23) & 1) << 9) |
           (((k.rsrc1 >> 26) & 1) << 23);
  // user SGPRs in kernel-code-properties order
  int s = 0;
  auto put64 = [&](uint64_t v) { w.s[s++] = uint32_t(v); w.s[s++] = uint32_t(v >> 32); };
  const uint16_t p = k.code_props;
  if (p & 1) s += 4;                               // private segment buffer (unused: flat scratch)
  if (p & 2) put64(L.dispatch_packet);
  if (p & 4) put64(0);                             // queue ptr
  if (p & 8) put64(L.kernarg);
  if (p & 16) put64(0);                            // dispatch id
  if (p & 32) put64(0);                            // flat scratch init
  if (p & 64) w.s[s++] = k.private_segment;
  const int preload = k.kernarg_preload & 0x7f, preload_off = (k.kernarg_preload >> 7) & 0x1ff;
  for (int d = 0; d < preload; ++d) memcpy(&w.s[s++], reinterpret_cast<const uint8_t*>(L.kernarg) + 4 * (preload_off + d), 4);
  s = int((k.rsrc2 >> 1) & 31);                    // system SGPRs follow USER_SGPR_COUNT
  if (k.rsrc2 & (1u << 7)) w.s[s++] = g.id[0];
  if (k.rsrc2 & (1u << 8)) w.s[s++] = g.id[1];
  if (k.rsrc2 & (1u << 9)) w.s[s++] = g.id[2];
  if (k.rsrc2 & (1u << 10)) w.s[s++] = 0;          // workgroup info
  if (k.rsrc2 & 1u) w.s[s++] = 0;                  // private segment wave offset
  // work-item ids, packed in v0 on gfx90a+: x [9:0], y [19:10], z [29:20]
  const uint32_t threads = L.block.x * L.block.y * L.block.z;
  uint64_t exec = 0;
  LANES {
    uint32_t t = uint32_t(index) * 64 + l;
    uint32_t x = t % L.block.x, y = (t / L.block.x) % L.block.y, z = t / (L.block.x * L.block.y);
    w.v[0][l] = t < threads ? (x | (y << 10) | (z << 20)) : 0;
    if (t < threads) exec |= 1ull << l;
  }
  memcpy(&w.s[kExec], &exec, 8);
  w.private_bytes = k.private_segment;
  if (w.private_bytes) w.scratch.assign(size_t(64) * w.private_bytes, 0);
}

void run_wave(Wave& w, Workgroup& g, const Launch& L, uint64_t budget) {
  Exec x(w, g, L);
  x.run(budget);
}

}  // namespace isa::detail
