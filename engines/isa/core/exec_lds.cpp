// DS: LDS reads, writes, atomics and the cross-lane permutes, and the LDS checks (addresses
// past the workgroup's allocation, races between waves since the last s_barrier).
#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>

#include "exec.h"

namespace isa::detail {

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

}  // namespace isa::detail
