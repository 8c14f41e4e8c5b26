// The executor's loop: one wave64 instruction at a time over the pre-decoded instruction array,
// dispatched by encoding family (exec.h lists the files), MFMA, and a wave's initial state.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "exec.h"
#include "mfma.h"

namespace isa::detail {

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
  w.allocation_hint = 0;
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
