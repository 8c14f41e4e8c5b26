// VOP3P: packed math on two halves at once (v_mfma and v_accvgpr_read/write share the
// encoding and go to their own semantics).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "exec.h"

namespace isa::detail {

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

}  // namespace isa::detail
