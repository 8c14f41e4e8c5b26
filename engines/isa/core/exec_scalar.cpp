// SALU (SOP1 / SOP2 / SOPC / SOPK), SMEM loads and s_waitcnt: the wave's scalar instructions.
#include <chrono>
#include <cstring>
#include <string>

#include "exec.h"

namespace isa::detail {

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

// s_waitcnt: loads count as complete down to the vmcnt / lgkmcnt it names (check_pending reads that).
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

}  // namespace isa::detail
