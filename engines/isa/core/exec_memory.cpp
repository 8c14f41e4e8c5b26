// FLAT / GLOBAL / SCRATCH / MUBUF: per-lane addresses, the checks on global and scratch
// addresses, loads (into VGPRs or LDS), stores and atomics.
#include <cstring>
#include <iterator>
#include <sstream>
#include <string>

#include "exec.h"

namespace isa::detail {

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
  const auto& allocations = L.allocations;
  const size_t hint = w.allocation_hint;
  // The allocation of the wave's last access, when it is still the one first_allocation_above
  // finds (the last with a base at or below addr) and holds the access: lanes walk one tensor.
  if (hint < allocations.size() && allocations[hint].base <= addr && addr + bytes <= allocations[hint].end &&
      (hint + 1 == allocations.size() || allocations[hint + 1].base > addr)) {
    if (w.log) w.log->note(addr, bytes, !load);
    return reinterpret_cast<uint8_t*>(addr);
  }
  if (!allocations.empty()) {
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
    w.allocation_hint = size_t(std::prev(it) - allocations.begin());
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

}  // namespace isa::detail
